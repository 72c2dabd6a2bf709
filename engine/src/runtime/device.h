// Device, dtype and capability queries (what this build and machine can run, and why not).
#pragma once
#include <ATen/ATen.h>

#include "reef/engine_types.h"

namespace reef {

DeviceCaps query_device_caps(DeviceKind device);
at::Device to_torch_device(DeviceKind device);
at::ScalarType to_scalar_type(Precision precision);
// Throws ReefError(UnsupportedDevice) with the reason when the device/precision cannot run here.
void require_device(DeviceKind device, Precision precision);
MemoryStats query_memory(DeviceKind device);
void reset_peak_memory(DeviceKind device);

}  // namespace reef
