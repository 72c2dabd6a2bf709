# libtorch from a CUDA build of the torch wheel, used on the CPU (REEF_TORCH_WHEEL_CPU=ON).
#
# PyPI's only Linux x86-64 build of some versions (e.g. torch 2.8.0, the version fish-speech pins)
# is the CUDA one. It runs on a machine without a GPU, but its TorchConfig.cmake stops when it
# cannot find a CUDA toolkit, which a CPU machine does not have. This defines what
# find_package(Torch) would (TORCH_LIBRARIES, TORCH_INCLUDE_DIRS, TORCH_CXX_FLAGS,
# TORCH_INSTALL_PREFIX) from the wheel's own files, linking the CPU libraries only (libtorch_cpu,
# libc10): the CUDA runtime libraries libtorch_cpu itself needs come from the wheel's nvidia-*
# dependencies through its own RUNPATH, and no CUDA code path of Reef is compiled.
#   -DREEF_TORCH_WHEEL_CPU=ON -DREEF_TORCH_ROOT=<venv>/lib/python3.X/site-packages/torch
if(NOT REEF_TORCH_ROOT OR NOT EXISTS "${REEF_TORCH_ROOT}/lib/libtorch_cpu.so")
  message(FATAL_ERROR "REEF_TORCH_WHEEL_CPU needs REEF_TORCH_ROOT, the wheel's torch/ folder holding lib/libtorch_cpu.so "
                      "(got '${REEF_TORCH_ROOT}')")
endif()
set(TORCH_INSTALL_PREFIX "${REEF_TORCH_ROOT}")
set(TORCH_INCLUDE_DIRS "${REEF_TORCH_ROOT}/include" "${REEF_TORCH_ROOT}/include/torch/csrc/api/include")
# The wheel's ABI and compile definitions, as its own config would hand them to us.
file(READ "${REEF_TORCH_ROOT}/share/cmake/Caffe2/Caffe2Targets.cmake" reef_caffe2_targets)
string(REGEX MATCH "set_target_properties\\(torch_cpu PROPERTIES[ \n]+INTERFACE_COMPILE_DEFINITIONS \"([^\"]*)\""
       reef_unused "${reef_caffe2_targets}")
set(reef_torch_defs "${CMAKE_MATCH_1}")
set(TORCH_CXX_FLAGS "")
file(STRINGS "${REEF_TORCH_ROOT}/share/cmake/Torch/TorchConfig.cmake" reef_abi REGEX "_GLIBCXX_USE_CXX11_ABI=[01]")
if(reef_abi MATCHES "_GLIBCXX_USE_CXX11_ABI=([01])")
  set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${CMAKE_MATCH_1}")
endif()
add_library(reef_torch_wheel_cpu INTERFACE)
target_include_directories(reef_torch_wheel_cpu SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
target_link_libraries(reef_torch_wheel_cpu INTERFACE "${REEF_TORCH_ROOT}/lib/libtorch_cpu.so" "${REEF_TORCH_ROOT}/lib/libc10.so")
target_compile_definitions(reef_torch_wheel_cpu INTERFACE ${reef_torch_defs})
set(TORCH_LIBRARIES reef_torch_wheel_cpu)
file(STRINGS "${REEF_TORCH_ROOT}/version.py" reef_torch_version REGEX "^__version__")
message(STATUS "reef: libtorch from the wheel in ${REEF_TORCH_ROOT} (${reef_torch_version}), CPU libraries only")
