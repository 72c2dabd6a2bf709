#!/usr/bin/env bash
# The GEMV team's A/B (nn/gemv_team.h, issue #26): s1-mini dimensions (random weights, S2 layout),
# 2 threads, bf16 and fp32, the kernels on each named target without the team (`eager:auto@<target>`,
# the default: the rows on libtorch's OpenMP pool) and with it (`eager:auto:team@<target>`),
# interleaved repeat by repeat in one run per precision, every frame set against the bandwidth
# probed right before and after it (--frame-probes).
#   bench/gemv_team.sh [OUT_DIR] [TARGET ...]   (default bench/results/cpu; targets: this CPU's best)
# REPEATS=N (default 9). Reports: OUT_DIR/gemv-team-<precision>.md/.json
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  read -r -a targets < <("$CLI" --version | sed -n 's/^CPU kernels: \([a-z0-9-]*\) .*/\1/p')
fi
arms=""
for target in "${targets[@]}"; do arms+="eager:auto@$target,eager:auto:team@$target,"; done
arms="${arms%,}"
for precision in bf16 fp32; do
  echo "== $precision: $arms"
  "$CLI" bench -m "$MODEL" --threads 2 --no-audio --precision "$precision" --frames 32 --warmup 4 \
    --repeats "${REPEATS:-9}" --frame-probes --arms "$arms" \
    --json "$OUT/gemv-team-$precision.json" --md "$OUT/gemv-team-$precision.md" >/dev/null 2>&1 ||
    [[ $? -eq 3 ]]
  grep -E '^\| `eager' "$OUT/gemv-team-$precision.md" | cut -d'|' -f2-4
done
echo "reports in $OUT"
