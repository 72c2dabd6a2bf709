#!/usr/bin/env bash
# The SIMD targets of the CPU kernels (issue #26): s1-mini dimensions (random weights, S2 layout),
# 2 threads, bf16 and fp32. One bench run per precision: an arm per target (`eager:auto@<target>`,
# the kernels forced to it for that arm) and libtorch's linear (`eager:auto:linear`), interleaved
# repeat by repeat, so every ratio comes from one run on a machine whose speed drifts between
# minutes. libtorch keeps its own best CPU level: forcing it lower with ATEN_CPU_CAPABILITY would
# also slow the bench's bandwidth probe (an ATen sum), which then reads as a lower roofline
# (measured: 26 against 45 GB/s with "default").
#   bench/cpu_targets.sh [OUT_DIR] [TARGET ...]   (default bench/results/cpu; targets: this CPU's,
#                                                  from `reef-cli --version`; ~1 minute a target)
# TEAM=1: each target also with the opt-in GEMV team (`eager:auto:team@<target>`, nn/gemv_team.h):
# its A/B in the same run. REPEATS=N (default 5): repeats per arm. Every warm frame is set against
# the bandwidth probed right before and after it (--frame-probes): this VM's switches between
# levels within seconds.
# Reports: OUT_DIR/targets-<precision>.md/.json
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  # "CPU kernels: avx2 (this CPU runs: avx2 sse4 ssse3 scalar)"
  read -r -a targets < <("$CLI" --version | sed -n 's/^CPU kernels: .*(this CPU runs: \(.*\)).*/\1/p')
fi
arms=""
for target in "${targets[@]}"; do
  arms+="eager:auto@$target,"
  if [[ "${TEAM:-0}" == 1 ]]; then arms+="eager:auto:team@$target,"; fi
done
arms+="eager:auto:linear"
for precision in bf16 fp32; do
  echo "== $precision: $arms"
  "$CLI" bench -m "$MODEL" --threads "$THREADS" --no-audio --precision "$precision" \
    $(sizes 32 4 "${REPEATS:-5}") --frame-probes --arms "$arms" \
    --json "$OUT/targets-$precision.json" --md "$OUT/targets-$precision.md" >/dev/null 2>&1 ||
    [[ $? -eq 3 ]]
  grep -E '^\| `eager' "$OUT/targets-$precision.md" | cut -d'|' -f2-4
done
echo "reports in $OUT"
