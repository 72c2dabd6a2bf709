#!/usr/bin/env bash
# The SIMD targets of the CPU kernels (issue #26): s1-mini dimensions (random weights, S2 layout),
# 2 threads, bf16 and fp32. Each run forces one target of Reef's kernels (REEF_CPU_TARGET) and
# interleaves them (`eager:auto`) with libtorch's linear (`eager:auto:linear`), so the ratio comes
# from one run. libtorch keeps its own best CPU level (on an AVX2 CPU: avx2, the same target):
# forcing it lower with ATEN_CPU_CAPABILITY would also slow the bench's bandwidth probe (an ATen
# sum), which then reads as a lower roofline (measured: 26 against 45 GB/s with "default").
#   bench/cpu_targets.sh [OUT_DIR] [TARGET ...]   (default bench/results/cpu; targets: this CPU's,
#                                                  from `reef-cli --version`; ~6 minutes a target)
# Reports: OUT_DIR/targets-<target>-<precision>.md/.json
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  # "CPU kernels: avx2 (this CPU runs: avx2 sse4 ssse3 scalar)"
  read -r -a targets < <("$CLI" --version | sed -n 's/^CPU kernels: .*(this CPU runs: \(.*\)).*/\1/p')
fi
for target in "${targets[@]}"; do
  for precision in bf16 fp32; do
    frames=32
    echo "== $target $precision"
    REEF_CPU_TARGET=$target "$CLI" bench -m "$MODEL" --threads 2 --no-audio --precision "$precision" --frames $frames --warmup 4 \
      --repeats 5 --arms eager:auto,eager:auto:linear \
      --json "$OUT/targets-$target-$precision.json" --md "$OUT/targets-$target-$precision.md" >/dev/null 2>&1 ||
      [[ $? -eq 3 ]]
    grep -E '^\| `eager' "$OUT/targets-$target-$precision.md" | cut -d'|' -f2-4
  done
done
echo "reports in $OUT"
