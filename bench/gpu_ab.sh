#!/usr/bin/env bash
# The A/B matrix on a GPU box (issue: GPU A/B report). Builds the engine + reef-cli only (no Qt, no
# PortAudio) against the machine's own CUDA libtorch, writes real-dimension demo models (random
# weights, bf16) and runs every arm, with the active-prefix and the full-length (--kv full) cache.
#   bench/gpu_ab.sh OUT_DIR
# Needs: python3 with a CUDA torch, cmake, ninja, a C++20 compiler; header-only nlohmann-json and
# CLI11 either installed or carried in .deps/include; PCRE2 (libpcre2-8) headers and library.
set -euo pipefail
OUT="${1:?usage: bench/gpu_ab.sh OUT_DIR}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${REEF_GPU_BUILD:-$ROOT/build-gpu}"
MODELS="${REEF_GPU_MODELS:-/tmp/reef-gpu-models}"
FRAMES="${REEF_GPU_FRAMES:-128}"
REPEATS="${REEF_GPU_REPEATS:-3}"
PRESETS="${REEF_GPU_PRESETS:-s1-mini s2-pro}"
mkdir -p "$OUT" "$MODELS"
PY="${PYTHON:-python3}"
TORCH_CMAKE="$($PY -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
$PY - <<'PY' | tee "$OUT/environment.txt"
import torch, subprocess
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
if torch.cuda.is_available():
    print("gpu", torch.cuda.get_device_name(0))
try:
    print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip())
except FileNotFoundError:
    print("nvidia-smi not found")
PY
EXTRA=()
[[ -d "$ROOT/.deps/include" ]] && EXTRA+=("-DCMAKE_CXX_FLAGS=-isystem $ROOT/.deps/include" "-DCMAKE_PREFIX_PATH=$TORCH_CMAKE;$ROOT/.deps")
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREEF_BUILD_GUI=OFF -DREEF_BUILD_AUDIO=OFF \
  -DREEF_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$TORCH_CMAKE" "${EXTRA[@]}"
cmake --build "$BUILD" --target reef-cli -j "$(nproc)"
CLI="$BUILD/app/reef-cli"
"$CLI" --version | tee -a "$OUT/environment.txt"

# cuda-graph arms join once the capture has run on a GPU: until then reef-cli refuses them up front.
ARMS="eager:math,eager:auto,eager:fish-speech"
ARMS_FULL="eager:math:full,eager:auto:full,eager:fish-speech:full"
for preset in $PRESETS; do
  dir="$MODELS/$preset"
  [[ -f "$dir/config.json" ]] || "$CLI" demo-model "$dir" --preset "$preset"
  "$CLI" bench -m "$dir" --device cuda --precision bf16 --arms "$ARMS,$ARMS_FULL" --frames "$FRAMES" \
    --warmup 8 --repeats "$REPEATS" --no-audio \
    --json "$OUT/$preset-bf16.json" --md "$OUT/$preset-bf16.md" --csv "$OUT/$preset-bf16.csv" ||
    [[ $? -eq 3 ]]   # 3 = some arm could not run; its reason is in the report
done
echo "reports in $OUT"
