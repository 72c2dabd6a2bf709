#!/usr/bin/env bash
# Soak and cancel campaign (issue #13, docs/reliability.md "Soak and cancel"): `reef-cli soak` runs
# many syntheses in one process with RSS read after each and every Nth one cancelled mid-frame
# from another thread, then prints RSS growth after the warm-up and the cancel latency.
#   1. the tiny demo model: 200 syntheses of 32 frames, every 10th cancelled, growth from run 20;
#   2. s1-mini-sized weights (a demo model at S1-mini's real dimensions, random weights): 20
#      syntheses of 16 frames in bf16, every 4th cancelled, growth from run 5.
# Each step fails the script when a synthesis failed, RSS grew 5 % or more after the warm-up, or
# a cancelled synthesis decoded more than one frame after the cancel was asked for.
#
# usage: scripts/soak.sh [OUT_DIR]          (default: build/soak; per-run CSVs and logs land there)
# env:   REEF_CLI (default build/app/reef-cli)
#        REEF_SOAK_TINY_RUNS (200), REEF_SOAK_TINY_FRAMES (32), REEF_SOAK_TINY_CANCEL_EVERY (10),
#        REEF_SOAK_TINY_WARMUP (20)
#        REEF_SOAK_S1MINI: the s1-mini-sized model folder (default: written into OUT_DIR with
#        `reef-cli demo-model --preset s1-mini`, about 2.8 GB); "none" skips step 2
#        REEF_SOAK_S1MINI_RUNS (20), REEF_SOAK_S1MINI_FRAMES (16), REEF_SOAK_S1MINI_CANCEL_EVERY (4),
#        REEF_SOAK_S1MINI_WARMUP (5), REEF_SOAK_S1MINI_PRECISION (bf16)
#        REEF_SOAK_TINY_THREADS (1: the tiny model gains nothing from more), REEF_SOAK_S1MINI_THREADS
#        (0 = libtorch's default, one per core), REEF_SOAK_MAX_GROWTH (5)
# On a shared machine: nice -n 5 scripts/soak.sh
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/build/soak}"
CLI="${REEF_CLI:-$ROOT/build/app/reef-cli}"
GROWTH="${REEF_SOAK_MAX_GROWTH:-5}"
[[ -x "$CLI" ]] || { echo "error: no reef-cli at $CLI (build it, or set REEF_CLI)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
status=0

run_step() {  # name model runs frames cancel_every warmup precision threads
  local name="$1" model="$2" runs="$3" frames="$4" every="$5" warmup="$6" precision="$7" threads="$8"
  echo "== $name: $runs syntheses of up to $frames frames ($precision, threads $threads), every ${every}th cancelled"
  local t0=$SECONDS
  "$CLI" soak -m "$model" --precision "$precision" --threads "$threads" --runs "$runs" --frames "$frames" \
    --cancel-every "$every" --warmup "$warmup" --max-growth "$GROWTH" --csv "$OUT/$name.csv" \
    >"$OUT/$name.txt" 2>"$OUT/$name.log"
  local rc=$?
  cat "$OUT/$name.txt"
  echo "($name: exit $rc, $((SECONDS - t0)) s; per-run lines in $OUT/$name.log, rows in $OUT/$name.csv)"
  if ((rc != 0)); then
    status=1
    tail -n 5 "$OUT/$name.log"
  fi
}

TINY="$OUT/tiny-model"
if [[ ! -f "$TINY/config.json" ]]; then
  rm -rf "$TINY"
  "$CLI" demo-model "$TINY" --preset tiny >/dev/null || exit 2
fi
run_step tiny "$TINY" "${REEF_SOAK_TINY_RUNS:-200}" "${REEF_SOAK_TINY_FRAMES:-32}" \
  "${REEF_SOAK_TINY_CANCEL_EVERY:-10}" "${REEF_SOAK_TINY_WARMUP:-20}" fp32 "${REEF_SOAK_TINY_THREADS:-1}"

S1="${REEF_SOAK_S1MINI:-$OUT/s1-mini-model}"
if [[ "$S1" != none ]]; then
  if [[ ! -f "$S1/config.json" ]]; then
    echo "writing an s1-mini-sized demo model to $S1 (random weights, about 2.8 GB)"
    rm -rf "$S1"
    "$CLI" demo-model "$S1" --preset s1-mini >/dev/null || exit 2
  fi
  run_step s1-mini "$S1" "${REEF_SOAK_S1MINI_RUNS:-20}" "${REEF_SOAK_S1MINI_FRAMES:-16}" \
    "${REEF_SOAK_S1MINI_CANCEL_EVERY:-4}" "${REEF_SOAK_S1MINI_WARMUP:-5}" "${REEF_SOAK_S1MINI_PRECISION:-bf16}" \
    "${REEF_SOAK_S1MINI_THREADS:-0}"
fi
((status == 0)) && echo "soak campaign: PASS" || echo "soak campaign: FAIL"
exit "$status"
