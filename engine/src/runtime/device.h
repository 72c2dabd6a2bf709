// Device, dtype and capability queries (what this build and machine can run, and why not).
#pragma once
#include <ATen/ATen.h>

#include <string>

#include "reef/engine_types.h"

namespace reef {

DeviceCaps query_device_caps(DeviceKind device);
at::Device to_torch_device(DeviceKind device);
at::ScalarType to_scalar_type(Precision precision);
// Throws ReefError(UnsupportedDevice) with the reason when the device/precision cannot run here.
void require_device(DeviceKind device, Precision precision);
MemoryStats query_memory(DeviceKind device);
void reset_peak_memory(DeviceKind device);
// "Intel(R) Xeon(R) ..." from /proc/cpuinfo's first "model name" ("cpu" when there is none), or the
// CUDA device's name.
std::string device_model_name(DeviceKind device);
// Bytes a new allocation can take now: /proc/meminfo MemAvailable, or the CUDA device's free
// memory; -1 when unknown.
int64_t available_memory_bytes(DeviceKind device);
// "3.76 4.90 3.91": /proc/loadavg's 1/5/15-minute load (empty when unknown). CPU timings on a
// shared machine mean little without it.
std::string host_load_average();

}  // namespace reef
