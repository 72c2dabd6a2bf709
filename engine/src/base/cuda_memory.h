// CUDA devices and caching-allocator figures (allocated, reserved, peak). Compiled only when
// libtorch has CUDA (REEF_WITH_CUDA); elsewhere the figures stay -1 ("no CUDA"), reset is a no-op
// and the device list is empty.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

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
// Every CUDA device the runtime sees: "cuda:N", its name and memory (available, no reason).
std::vector<DeviceInfo> list_cuda_devices();
// Makes cuda:N the current device of the calling (engine) thread, so that the memory figures and
// every "current device" query above are about it.
void select_cuda_device(int index);

}  // namespace reef
