#!/usr/bin/env bash
# How to build against the torch wheel of a Python: sourced by scripts/setup.sh and bench/gpu_ab.sh.
#   reef_torch_wheel_args PYTHON CUDA
# sets REEF_TORCH_CMAKE_ARGS (an array) for cmake. A CUDA build of the wheel on a machine without a
# complete CUDA toolkit (the usual pip set-up, and PyPI's only Linux build of some versions) cannot
# go through torch's own TorchConfig.cmake, which wants the toolkit's headers and runtime, so it
# goes through cmake/ReefTorchWheel.cmake: CUDA=0 links the wheel's CPU libraries only, CUDA=1 its
# CUDA libraries too, with Reef's CUDA code paths compiled against the headers of the wheel's
# nvidia-* packages. Anything else (a CPU wheel, or a CUDA wheel beside a full toolkit) keeps
# find_package(Torch): the array stays empty. REEF_TORCH_WHEEL_CPU=1/0 forces the choice.
reef_torch_wheel_args() {
  local py=$1 cuda=$2 wheel=${REEF_TORCH_WHEEL_CPU:-}
  REEF_TORCH_CMAKE_ARGS=()
  if [[ -z $wheel ]]; then
    wheel=0
    "$py" - 2>/dev/null <<'PY' && wheel=1
import os, sys, torch
from torch.utils.cpp_extension import CUDA_HOME
complete = CUDA_HOME and os.path.isfile(os.path.join(CUDA_HOME, "include", "cuda_runtime_api.h"))
sys.exit(0 if torch.version.cuda and not complete else 1)
PY
  fi
  [[ $wheel == 1 ]] || return 0
  local root
  root="$("$py" -c 'import os, torch; print(os.path.dirname(torch.__file__))')"
  REEF_TORCH_CMAKE_ARGS=(-DREEF_TORCH_WHEEL_CPU=ON "-DREEF_TORCH_ROOT=$root")
  if [[ $cuda != 1 ]]; then
    echo "torch in $root is a CUDA build and there is no CUDA toolkit: linking its CPU libraries only"
    return 0
  fi
  echo "torch in $root is a CUDA build without a CUDA toolkit: linking its CUDA libraries, headers from its nvidia-* packages"
  REEF_TORCH_CMAKE_ARGS+=(-DREEF_TORCH_WHEEL_CUDA=ON)
  # cuda_runtime_api.h includes crt/host_defines.h, which ships with the compiler's headers
  # (nvidia-cuda-nvcc, ~90 MB) of the runtime's own CUDA release.
  # The runtime package is nvidia-cuda-runtime-cu12 for CUDA 12 wheels, -cu13 or unsuffixed later.
  local release="" suffix
  for suffix in -cu12 -cu13 ""; do
    release="$("$py" -c "import importlib.metadata as m; print('.'.join(m.version('nvidia-cuda-runtime$suffix').split('.')[:2]))" 2>/dev/null)" &&
      break
  done
  [[ -n $release ]] ||
    { echo "no nvidia-cuda-runtime package beside that torch: install the CUDA toolkit instead" >&2; return 1; }
  "$py" -c "import importlib.metadata as m; m.version('nvidia-cuda-nvcc$suffix')" 2>/dev/null ||
    "$py" -m pip install -q --disable-pip-version-check "nvidia-cuda-nvcc$suffix==$release.*"
}
