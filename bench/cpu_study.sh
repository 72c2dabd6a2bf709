#!/usr/bin/env bash
# The CPU study behind bench/results/cpu: s1-mini dimensions (random weights, S2 layout), 2 threads.
#   bench/cpu_study.sh [OUT_DIR]   (default bench/results/cpu; about 15 minutes on 2 cores)
# Uses build/app/reef-cli (./test.sh builds it) and writes the demo model to $REEF_STUDY_MODEL
# (default /tmp/reef-s1mini-s2, 1.4 GB) if it is not there yet. Every figure is from `reef-cli
# bench`: arms interleaved within one run, medians over repeats.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/bench/results/cpu}"
CLI="${REEF_CLI:-$ROOT/build/app/reef-cli}"
MODEL="${REEF_STUDY_MODEL:-/tmp/reef-s1mini-s2}"
mkdir -p "$OUT"
[[ -f "$MODEL/config.json" ]] || "$CLI" demo-model "$MODEL" --preset s1-mini --layout s2
common=(-m "$MODEL" --threads 2 --no-audio --warmup 4)
bench() {  # name, then bench flags
  local name=$1
  shift
  "$CLI" bench "${common[@]}" "$@" --json "$OUT/$name.json" --md "$OUT/$name.md" >/dev/null || [[ $? -eq 3 ]]
}
# active prefix, the decode GEMV on (default) and off (libtorch's linear: the "before" of the hot loop)
bench s1mini-bf16 --precision bf16 --frames 64 --repeats 3 --profile "$OUT/s1mini-bf16-profile.md" \
  --arms eager:math,eager:auto,eager:flash,eager:fish-speech
REEF_GEMV=0 bench s1mini-bf16-libtorch-linear --precision bf16 --frames 64 --repeats 3 \
  --profile "$OUT/s1mini-bf16-libtorch-linear-profile.md" --arms eager:math,eager:auto
bench s1mini-fp32 --precision fp32 --frames 32 --repeats 3 --arms eager:math,eager:auto,eager:fish-speech
# an s1-mini-sized cache (8192 rows): the active prefix against fish-speech HEAD's masked full cache
bench s1mini-bf16-kv8000 --precision bf16 --frames 16 --repeats 3 --kv-margin 8000 \
  --arms eager:auto,eager:math,eager:auto:full,eager:math:full
echo "reports in $OUT"
