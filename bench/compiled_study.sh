#!/usr/bin/env bash
# The three arms of fish-speech PR #1337 on this machine: eager + MATH, eager + automatic backend,
# and compiled (AOTInductor) + MATH, each over the active prefix and over fish-speech's whole
# 8192-row cache (:full), in one `reef-cli bench` run per precision, plus the fish-speech policy in
# both modes (MATH when compiled, automatic when eager).
#   bench/compiled_study.sh [OUT_DIR]   (default bench/results/cpu)
# s1-mini dimensions with random weights (S2 layout) in $REEF_STUDY_MODEL (default
# /tmp/reef-s1mini-s2, written if missing), 2 threads. The packages are compiled first with
# `reef-cli compile` (about 2-3 minutes each on 2 cores; cached, so a rerun skips them) and their
# compile times are reported in the bench's "compile s" column.
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
ARMS=eager:math,eager:auto,aot-inductor:math,aot-inductor:auto
ARMS=$ARMS,eager:math:full,eager:auto:full,aot-inductor:math:full,aot-inductor:auto:full
ARMS=$(study_arms "$ARMS,eager:fish-speech,aot-inductor:fish-speech")
for prec in bf16 fp32; do
  for sdpa in math auto; do
    for kv in active full; do
      aot_on || continue
      "$CLI" compile -m "$MODEL" --precision $prec --threads "$THREADS" --sdpa $sdpa --kv $kv >/dev/null
    done
  done
  extra=()
  [[ $prec == bf16 ]] && extra=(--pr-report "compiled-pr-s1mini-bf16.md" --profile "compiled-s1mini-bf16-profile.md")
  (cd "$OUT" && "$CLI" bench -m "$MODEL" --precision $prec --threads "$THREADS" --kv-margin 100000 --arms "$ARMS" \
    $(sizes 32 4 3) --no-audio --json "compiled-s1mini-$prec.json" --md "compiled-s1mini-$prec.md" \
    "${extra[@]}" >/dev/null)
done
echo "reports in $OUT"
