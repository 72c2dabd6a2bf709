#!/usr/bin/env bash
# The #1337 answer with every arm the maintainers named, in one `reef-cli bench` run: eager + MATH,
# eager + auto (the PR), compiled + MATH (today's rule under torch.compile) and compiled + auto,
# each over the active prefix and over fish-speech's whole cache (:full), with a context sweep,
# quality checks against eager + MATH, per-arm WAVs and the PR-ready report.
#   bench/study_1337_arms.sh [OUT_DIR]      (default bench/results/cpu)
# For fish-speech's pinned libtorch: REEF_TORCH=2.8.0 ./test.sh builds build-torch2.8.0, then
#   REEF_CLI=build-torch2.8.0/app/reef-cli REEF_STUDY_TAG=torch2.8.0 bench/study_1337_arms.sh
# Files are named pr-arms-s1mini-bf16[-TAG].*. REEF_STUDY_CONTEXTS sets the sweep (default
# 128,512,2048: at 8160 tokens MATH's prefill alone takes minutes per arm and 15 GB on this VM).
# The four packages are compiled first with `reef-cli compile` (minutes each on 2 cores; cached, so
# a rerun skips them); their compile times appear in the report's "compile s" column.
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
NAME="pr-arms-s1mini-bf16${REEF_STUDY_TAG:+-$REEF_STUDY_TAG}"
ARMS=eager:math,eager:auto,aot-inductor:math,aot-inductor:auto
ARMS=$(study_arms "$ARMS,eager:math:full,eager:auto:full,aot-inductor:math:full,aot-inductor:auto:full")
for sdpa in math auto; do
  for kv in active full; do
    aot_on || continue
    "$CLI" compile -m "$MODEL" --precision bf16 --threads "$THREADS" --sdpa $sdpa --kv $kv >/dev/null
  done
done
cd "$OUT"   # the report links its WAVs relative to itself
"$CLI" bench -m "$MODEL" --precision bf16 --threads "$THREADS" --kv-margin 100000 --arms "$ARMS" \
  $(sizes 32 4 3) --context "${REEF_STUDY_CONTEXTS:-128,512,2048}" --sweep-repeats 1 \
  --wav-dir "$NAME-wavs" --pr-report "$NAME.md" --json "$NAME-bench.json" --md "$NAME-bench.md" \
  --sweep-csv "$NAME-sweep.csv" >/dev/null
echo "reports in $OUT: $NAME.md (+ -bench.json/.md, -sweep.csv, -wavs/)"
