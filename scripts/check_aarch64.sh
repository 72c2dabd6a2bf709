#!/usr/bin/env bash
# The SIMD kernels on aarch64: cross-compiled with Debian's g++-aarch64-linux-gnu against the arm64
# Highway (libhwy-dev:arm64), and their unit test run under qemu-user on every Arm target the
# emulated CPU offers (NEON, SVE, SVE2 where this Highway build compiles them), against the fp64
# reference. Correctness only: emulated timings mean nothing.
#   scripts/check_aarch64.sh [BUILD_DIR]     (default build-aarch64; scripts/setup.sh installs the tools)
# ctest runs it as tst_kernels_aarch64 (label aarch64, in CI).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build-aarch64}"
for tool in aarch64-linux-gnu-g++ qemu-aarch64; do
  command -v "$tool" >/dev/null || { echo "check_aarch64: $tool missing (scripts/setup.sh installs it)"; exit 77; }
done
[[ -f /usr/lib/aarch64-linux-gnu/cmake/hwy/hwy-config.cmake ]] ||
  { echo "check_aarch64: libhwy-dev:arm64 missing (scripts/setup.sh installs it)"; exit 77; }
cmake -S "$ROOT/engine/kernels" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake" >/dev/null
cmake --build "$BUILD" -j2
file "$BUILD/tst_simd_kernels" | grep -q "ARM aarch64" || { echo "check_aarch64: not an aarch64 binary"; exit 1; }
# the arm64 libhwy and libstdc++ come from the multiarch folder
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu
qemu-aarch64 "$BUILD/tst_simd_kernels"
