// The machine a bench ran on, as a report for other people needs it: CPU model, cores, memory,
// OS, and the GPU with its driver where CUDA runs. Plain reads of /proc and /etc; no torch.
#pragma once
#include "reef/bench.h"

namespace reef {

// cuda_device_name: what the device query found ("" without CUDA); the CUDA runtime/cuDNN
// versions come from libtorch (library_versions), the driver's from the CUDA driver API.
HostInfo query_host_info(const std::string& cuda_device_name);

}  // namespace reef
