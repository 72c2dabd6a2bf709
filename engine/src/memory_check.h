// "This model needs X GB, Y GB is available": checked before weights are converted and before a
// KV cache is allocated, so a model or a request too large for the machine is an error value
// rather than a bad_alloc half-way through, or the kernel's OOM killer ending the process (Linux
// overcommits, so a huge allocation often "succeeds" and the kill comes later).
#pragma once
#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <string>

namespace reef {

// Bytes the device can still give: for the CPU MemAvailable of /proc/meminfo, or what the process's
// memory cgroup still allows when lower (cgroup_memory.h); cudaMemGetInfo's free bytes for CUDA.
// nullopt when unknown (no /proc, no CUDA runtime): callers then skip the check rather than guess.
std::optional<uint64_t> available_memory(c10::Device device);

// Throws ReefError(InsufficientMemory) "<what> needs X GB, Y GB is available on <device>" when
// needed > available. Pure, so tests can exercise the message with chosen numbers.
void check_memory_fits(uint64_t needed, uint64_t available, c10::Device device, const std::string& what);

// check_memory_fits against available_memory(device); no-op when that is unknown.
void require_memory(uint64_t needed, c10::Device device, const std::string& what);

// "1.23 GB" (10^9 bytes), as the messages here say it.
std::string format_gb(uint64_t bytes);

// Overflow-safe product of sizes (saturates at UINT64_MAX), for "needed" figures.
uint64_t bytes_product(std::initializer_list<uint64_t> factors);

}  // namespace reef
