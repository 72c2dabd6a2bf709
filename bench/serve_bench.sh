#!/usr/bin/env bash
# The serving bench against reef-cli serve on this machine: starts the server on a model, measures
# it from the client at each concurrency level (reef-cli bench --server), stops it, and writes
# <out>.md and <out>.json. The same bench runs against any fish-speech, SGLang-Omni or vLLM-Omni
# server: reef-cli bench --server URL --concurrency 1,4,16 (README, "Remote engines").
# Usage: bench/serve_bench.sh MODEL_DIR OUT_BASE [CONCURRENCY] [-- extra serve options]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLI="${REEF_CLI:-$ROOT/build/app/reef-cli}"
model="$1"; out="$2"; levels="${3:-1,4}"; shift $(( $# >= 3 ? 3 : 2 ))
[[ "${1:-}" == "--" ]] && shift
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$CLI" serve -m "$model" --port 0 --port-file "$work/port" --queue 32 "$@" >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [[ -s "$work/port" ]] && break; kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log"; exit 1; }; sleep 0.5; done
port="$(cat "$work/port")"
echo "reef-cli serve on port $port ($(head -1 "$work/serve.log"))"
"$CLI" bench --server "http://127.0.0.1:$port" --concurrency "$levels" --frames "${REEF_BENCH_FRAMES:-64}" \
  --md "$out.md" --json "$out.json"
{ echo; echo "Server: \`reef-cli serve -m <model> $*\` ($(head -1 "$work/serve.log")), on the same machine as the client."
  echo "Command: \`bench/serve_bench.sh <model> <out> $levels${*:+ -- $*}\` at $(git -C "$ROOT" rev-parse --short HEAD)."
  # With --batch-size: the batches the server formed, from its log ("batch: N requests decoding together").
  if grep -q "^batch: " "$work/serve.log"; then
    echo "Batches the server formed (size: count): $(grep -o '^batch: [0-9]*' "$work/serve.log" | cut -d' ' -f2 | sort -n | uniq -c | awk '{printf "%s%s: %s", sep, $2, $1; sep=", "}'); every other request ran alone."
  fi; } >> "$out.md"
