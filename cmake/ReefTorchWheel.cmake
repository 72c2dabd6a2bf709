# libtorch from a CUDA build of the torch wheel without a CUDA toolkit (REEF_TORCH_WHEEL_CPU=ON).
#
# PyPI's only Linux x86-64 build of some versions (e.g. torch 2.8.0, the version fish-speech pins)
# is the CUDA one. Its TorchConfig.cmake stops when it cannot find a CUDA toolkit (nvcc, headers and
# runtime of the same version), which a CPU machine does not have. This defines what
# find_package(Torch) would (TORCH_LIBRARIES, TORCH_INCLUDE_DIRS, TORCH_CXX_FLAGS,
# TORCH_INSTALL_PREFIX) from the wheel's own files:
#   - by default the CPU libraries only (libtorch_cpu, libc10): the CUDA runtime libraries
#     libtorch_cpu itself needs come from the wheel's nvidia-* dependencies through its own RPATH,
#     and no CUDA code path of Reef is compiled;
#   - with REEF_TORCH_WHEEL_CUDA=ON also libtorch_cuda and libc10_cuda, with the CUDA headers and the
#     CUDA runtime of the wheel's nvidia-* packages (nvidia/<lib>/include, nvidia/<lib>/lib): Reef's
#     CUDA code paths (REEF_WITH_CUDA) are compiled and linked as on a GPU machine, so a CPU-only CI
#     catches what would break there. The binaries run on the CPU too (no GPU: CUDA reports none).
#   -DREEF_TORCH_WHEEL_CPU=ON -DREEF_TORCH_ROOT=<venv>/lib/python3.X/site-packages/torch [-DREEF_TORCH_WHEEL_CUDA=ON]
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

if(NOT REEF_TORCH_WHEEL_CUDA)
  message(STATUS "reef: libtorch from the wheel in ${REEF_TORCH_ROOT} (${reef_torch_version}), CPU libraries only")
  return()
endif()
# The nvidia-* wheels sit beside torch/ in site-packages.
get_filename_component(reef_site_packages "${REEF_TORCH_ROOT}" DIRECTORY)
set(reef_cudart_dir "${reef_site_packages}/nvidia/cuda_runtime")
file(GLOB reef_cudart "${reef_cudart_dir}/lib/libcudart.so*")
if(NOT EXISTS "${REEF_TORCH_ROOT}/lib/libtorch_cuda.so" OR NOT EXISTS "${reef_cudart_dir}/include/cuda_runtime_api.h"
   OR NOT reef_cudart)
  message(FATAL_ERROR "REEF_TORCH_WHEEL_CUDA needs a CUDA build of the torch wheel with its nvidia-* dependencies: "
                      "${REEF_TORCH_ROOT}/lib/libtorch_cuda.so and ${reef_cudart_dir}/include/cuda_runtime_api.h, lib/libcudart.so*")
endif()
list(GET reef_cudart 0 reef_cudart)
if(NOT EXISTS "${reef_site_packages}/nvidia/cuda_nvcc/include/crt/host_defines.h")
  message(FATAL_ERROR "REEF_TORCH_WHEEL_CUDA: cuda_runtime_api.h needs crt/host_defines.h from the nvidia-cuda-nvcc "
                      "wheel of the same CUDA release (scripts/setup.sh installs it into the venv)")
endif()
file(GLOB reef_nvidia_includes LIST_DIRECTORIES true "${reef_site_packages}/nvidia/*/include")
file(GLOB reef_nvidia_libdirs LIST_DIRECTORIES true "${reef_site_packages}/nvidia/*/lib")
target_include_directories(reef_torch_wheel_cpu SYSTEM INTERFACE ${reef_nvidia_includes})
# libtorch_cuda is linked even where no symbol of ours needs it (as TorchConfig does): loading it
# registers the CUDA kernels and allocator with the dispatcher.
target_link_libraries(reef_torch_wheel_cpu INTERFACE "-Wl,--no-as-needed" "${REEF_TORCH_ROOT}/lib/libtorch_cuda.so"
                      "${REEF_TORCH_ROOT}/lib/libc10_cuda.so" "-Wl,--as-needed" "${reef_cudart}")
# libtorch_cuda's own dependencies (cuBLAS, cuDNN, NCCL...) for the linker; at run time its RPATH finds them.
list(TRANSFORM reef_nvidia_libdirs PREPEND "-Wl,-rpath-link,")
target_link_options(reef_torch_wheel_cpu INTERFACE ${reef_nvidia_libdirs})
string(REGEX MATCH "set_target_properties\\(torch_cuda PROPERTIES[ \n]+INTERFACE_COMPILE_DEFINITIONS \"([^\"]*)\""
       reef_unused "${reef_caffe2_targets}")
target_compile_definitions(reef_torch_wheel_cpu INTERFACE ${CMAKE_MATCH_1})
set(C10_CUDA_LIBRARY "${REEF_TORCH_ROOT}/lib/libc10_cuda.so")   # as TorchConfig.cmake sets it in CUDA builds
message(STATUS "reef: libtorch from the wheel in ${REEF_TORCH_ROOT} (${reef_torch_version}), with its CUDA libraries "
               "(CUDA headers and runtime from ${reef_site_packages}/nvidia)")
