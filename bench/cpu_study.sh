#!/usr/bin/env bash
# The CPU study behind bench/results/cpu: s1-mini dimensions (random weights, S2 layout), 2 threads.
#   bench/cpu_study.sh [OUT_DIR]   (default bench/results/cpu; about 15 minutes on 2 cores)
# Uses build/app/reef-cli (./test.sh builds it) and writes the demo model to $REEF_STUDY_MODEL
# (default /tmp/reef-s1mini-s2, 1.4 GB) if it is not there yet. With FISH_SPEECH_TREE (a fish-speech
# checkout) and FISH_SPEECH_PYTHON (a Python with its text2semantic dependencies) it also times
# fish-speech's own eager decode back to back with Reef on an 8192-row cache. Every figure is from `reef-cli
# bench`: arms interleaved within one run, medians over repeats.
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
common=(-m "$MODEL" --threads "$THREADS" --no-audio)
bench() {  # name, then bench flags
  local name=$1
  shift
  "$CLI" bench "${common[@]}" "$@" --json "$OUT/$name.json" --md "$OUT/$name.md" >/dev/null 2>&1 || [[ $? -eq 3 ]]
}
# active prefix, the decode GEMV on (default) and off (libtorch's linear: the "before" of the hot loop)
bench s1mini-bf16 --precision bf16 $(sizes 64 4 3) --profile "$OUT/s1mini-bf16-profile.md" \
  --arms eager:math,eager:auto,eager:flash,eager:fish-speech
REEF_GEMV=0 bench s1mini-bf16-libtorch-linear --precision bf16 $(sizes 64 4 3) \
  --profile "$OUT/s1mini-bf16-libtorch-linear-profile.md" --arms eager:math,eager:auto
# the small ops through ATen (REEF_ROW_KERNELS=0): the "before" of nn/row_kernels
REEF_ROW_KERNELS=0 bench s1mini-bf16-aten-small-ops --precision bf16 $(sizes 64 4 3) \
  --profile "$OUT/s1mini-bf16-aten-small-ops-profile.md" --arms eager:math,eager:auto
bench s1mini-fp32 --precision fp32 $(sizes 32 4 5) --arms eager:math,eager:auto,eager:fish-speech
REEF_GEMV=0 bench s1mini-fp32-libtorch-linear --precision fp32 $(sizes 32 4 3) --arms eager:math,eager:auto
# an s1-mini-sized cache (8192 rows): the active prefix against fish-speech HEAD's masked full cache
bench s1mini-bf16-kv8000 --precision bf16 $(sizes 16 4 3) --kv-margin 8000 \
  --arms eager:auto,eager:math,eager:auto:full,eager:math:full
echo "reports in $OUT"
# Back to back with fish-speech's own eager decode on the same weights and an 8192-row cache, when
# a fish-speech tree and a Python with its text2semantic dependencies are given (outside the repo).
if [[ -n "${FISH_SPEECH_TREE:-}" && -n "${FISH_SPEECH_PYTHON:-}" ]]; then
  for round in 1 2; do
    for sdpa in math auto; do
      "$FISH_SPEECH_PYTHON" "$ROOT/bench/fish_speech_eager.py" --fish-speech "$FISH_SPEECH_TREE" --model "$MODEL" \
        --frames 12 --warmup 2 --sdpa "$sdpa" 2>/dev/null | grep '^fish-speech'
    done
    bench "s1mini-bf16-kv8000-vs-fish-speech-reef" --precision bf16 $(sizes 12 2 2) \
      --kv-margin 8000 --arms eager:math:full,eager:auto:full
    grep -E '^\| `eager' "$OUT/s1mini-bf16-kv8000-vs-fish-speech-reef.md" | cut -d'|' -f2,3
  done
fi
