// Device, dtype and capability queries (what this build and machine can run, and why not).
#pragma once
#include <ATen/ATen.h>

#include <string>

#include "reef/engine_types.h"

namespace reef {

// Whether this libtorch has CUDA compiled in (libtorch_cuda loaded), GPU or not. (at::hasCUDA()
// answers whether a GPU is usable: false on a CUDA build without one.)
bool cuda_built();
DeviceCaps query_device_caps(DeviceKind device);
at::Device to_torch_device(DeviceKind device, int index = 0);
at::ScalarType to_scalar_type(Precision precision);
// The dtype the codec runs in for a model loaded in `model_dtype`: the same, except bf16/fp16 on a
// CPU without native bf16 arithmetic (AVX-512 BF16), where libtorch emulates the codec's
// convolutions and matmuls element by element (measured here on an AVX2 EPYC: about 5 minutes
// for 32 frames of s1-mini's codec in bf16); there it runs in fp32, which is exact and fast. The
// codec's weights are a small part of a model, so the memory it costs is small too.
at::ScalarType codec_dtype(at::Device device, at::ScalarType model_dtype);
// Throws ReefError(UnsupportedDevice) with the reason and a hint when the device cannot run here
// (no such device, a CUDA index past the last GPU, MPS outside macOS); changes nothing. The one
// check: load() runs it through require_device, reef-cli through Engine::check_device.
void check_device_usable(DeviceKind device, int index);
// check_device_usable, then for CUDA makes cuda:index the engine thread's current device.
void require_device(DeviceKind device, int index, Precision precision);
MemoryStats query_memory(DeviceKind device);
void reset_peak_memory(DeviceKind device);
// "Intel(R) Xeon(R) ..." from /proc/cpuinfo's first "model name" ("cpu" when there is none), or the
// CUDA device's name.
std::string device_model_name(DeviceKind device);
// "3.76 4.90 3.91": /proc/loadavg's 1/5/15-minute load (empty when unknown). CPU timings on a
// shared machine mean little without it.
std::string host_load_average();

}  // namespace reef
