#include "memory_check.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "cgroup_memory.h"
#include "check.h"

#ifdef REEF_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace reef {

std::string format_gb(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", double(bytes) / 1e9);
    return buf;
}

namespace {

std::optional<uint64_t> meminfo_available() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::nullopt;
}

// MemAvailable, or the cgroup's remaining allowance when that is lower (a container's limit);
// limited says which one it was, for the message.
std::optional<uint64_t> cpu_available(bool* limited = nullptr) {
    const auto machine = meminfo_available();
    const auto cgroup = cgroup_memory_available();
    const bool by_cgroup = cgroup && (!machine || *cgroup < *machine);
    if (limited) *limited = by_cgroup;
    return by_cgroup ? cgroup : machine;
}

void fits_or_throw(uint64_t needed, uint64_t available, const std::string& where, const std::string& what) {
    if (needed <= available) return;
    throw ReefError(ErrorCode::InsufficientMemory,
                    what + " needs " + format_gb(needed) + ", " + format_gb(available) + " is available on " + where,
                    "close other programs, use a smaller model or lower precision, or ask for fewer frames");
}

}  // namespace

std::optional<uint64_t> available_memory(c10::Device device) {
    if (device.is_cpu()) return cpu_available();
#ifdef REEF_WITH_CUDA
    if (device.is_cuda()) {
        size_t free_bytes = 0, total = 0;
        int previous = 0;
        if (cudaGetDevice(&previous) != cudaSuccess) return std::nullopt;
        const int index = device.has_index() ? device.index() : previous;
        if (cudaSetDevice(index) != cudaSuccess) return std::nullopt;
        const bool ok = cudaMemGetInfo(&free_bytes, &total) == cudaSuccess;
        cudaSetDevice(previous);
        if (ok) return uint64_t(free_bytes);
    }
#endif
    return std::nullopt;
}

void check_memory_fits(uint64_t needed, uint64_t available, c10::Device device, const std::string& what) {
    fits_or_throw(needed, available, device.str(), what);
}

void require_memory(uint64_t needed, c10::Device device, const std::string& what) {
    if (device.is_cpu()) {
        bool limited = false;
        if (const auto available = cpu_available(&limited))
            fits_or_throw(needed, *available, limited ? "cpu (under this process's cgroup memory limit)" : "cpu", what);
        return;
    }
    if (const auto available = available_memory(device)) check_memory_fits(needed, *available, device, what);
}

uint64_t bytes_product(std::initializer_list<uint64_t> factors) {
    uint64_t p = 1;
    for (uint64_t f : factors) {
        if (f != 0 && p > std::numeric_limits<uint64_t>::max() / f) return std::numeric_limits<uint64_t>::max();
        p *= f;
    }
    return p;
}

}  // namespace reef
