#!/usr/bin/env bash
# The SIMD targets of the CPU kernels (issue #26): s1-mini dimensions (random weights, S2 layout),
# 2 threads, bf16 and fp32. Each run forces one target (REEF_CPU_TARGET, and ATen's own dispatch
# level ATEN_CPU_CAPABILITY where it has one) and interleaves the kernels (`eager:auto`) with
# libtorch's linear on the same target (`eager:auto:linear`), so the ratio comes from one run.
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
aten_level() {  # ATen's CPU dispatch level closest to a Reef target
  case $1 in
    avx512*) echo avx512 ;;
    avx2) echo avx2 ;;
    *) echo default ;;
  esac
}
for target in "${targets[@]}"; do
  for precision in bf16 fp32; do
    frames=32
    echo "== $target $precision"
    REEF_CPU_TARGET=$target ATEN_CPU_CAPABILITY=$(aten_level "$target") \
      "$CLI" bench -m "$MODEL" --threads 2 --no-audio --precision "$precision" --frames $frames --warmup 4 \
      --repeats 5 --arms eager:auto,eager:auto:linear \
      --json "$OUT/targets-$target-$precision.json" --md "$OUT/targets-$target-$precision.md" >/dev/null 2>&1 ||
      [[ $? -eq 3 ]]
    grep -E '^\| `eager' "$OUT/targets-$target-$precision.md" | cut -d'|' -f2-4
  done
done
echo "reports in $OUT"
