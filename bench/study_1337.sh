#!/usr/bin/env bash
# The #1337 study on this machine, as the maintainers asked for it: the matrix and a context sweep
# in one `reef-cli bench` run with the PR report and per-arm WAVs, then the isolated SDPA kernel
# tables for both models' dimensions.
#   bench/study_1337.sh [OUT_DIR]   (default bench/results/cpu; about 20 minutes on 2 cores)
# s1-mini dimensions with random weights (S2 layout) in $REEF_STUDY_MODEL (default /tmp/reef-s1mini-s2,
# written if missing), bf16, 2 threads. The :full arm and --kv-margin 100000 give every run
# fish-speech's full-length cache (max_seq_len rows), as HEAD allocates it. s1-mini's max_seq_len is
# 8192, so the longest sweep prompt is 8160 tokens: room for the 32 decoded frames.
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
cd "$OUT"   # the report links its WAVs relative to itself
"$CLI" bench -m "$MODEL" --precision bf16 --threads "$THREADS" --kv-margin 100000 \
  --arms "$(study_arms eager:math,eager:auto,eager:fish-speech,eager:auto:full,aot-inductor:fish-speech)" \
  $(sizes 32 4 3) --context "${REEF_STUDY_CONTEXTS:-128,512,2048,8160}" --sweep-repeats "${REEF_STUDY_REPEATS:-2}" \
  --wav-dir pr-s1mini-bf16-wavs --pr-report pr-s1mini-bf16.md --json sweep-s1mini-bf16.json \
  --md sweep-s1mini-bf16.md --sweep-csv sweep-s1mini-bf16.csv >/dev/null || [[ $? -eq 3 ]]   # 3: an arm could not run (reported)
widths=()   # REEF_STUDY_SDPA_WIDTHS: the key widths (default sdpa-bench's, up to 32768)
[[ -n "${REEF_STUDY_SDPA_WIDTHS:-}" ]] && widths=(--widths "$REEF_STUDY_SDPA_WIDTHS")
for preset in s1-mini s2-pro; do
  name=${preset//-/}
  "$CLI" sdpa-bench --preset "$preset" --precision bf16 --threads "$THREADS" "${widths[@]}" \
    --json "sdpa-bench-$name-bf16.json" --md "sdpa-bench-$name-bf16.md" >/dev/null
done
echo "reports in $OUT"
