// CUDA caching-allocator figures (allocated, reserved, peak). Compiled only when libtorch has CUDA
// (REEF_WITH_CUDA); elsewhere the figures stay -1 ("no CUDA") and reset is a no-op.
#pragma once
#include <cstdint>
#include <string>

#include "reef/engine_types.h"

namespace reef {

void fill_cuda_memory(MemoryStats& m);
void reset_cuda_peak();
// e.g. "NVIDIA H200"; empty without CUDA.
std::string cuda_device_name();
// The device's architecture and name, e.g. "sm_90 NVIDIA H200" (index -1: the current device);
// what decides whether compiled GPU code runs on it. Empty without CUDA.
std::string cuda_device_arch(int device_index);
// Free bytes on the current CUDA device (cudaMemGetInfo); -1 without CUDA.
int64_t cuda_free_bytes();

}  // namespace reef
