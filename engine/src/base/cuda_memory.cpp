#include "base/cuda_memory.h"

#ifdef REEF_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#endif

namespace reef {

#ifdef REEF_WITH_CUDA
void fill_cuda_memory(MemoryStats& m) {
    if (c10::cuda::device_count() == 0) return;
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(c10::cuda::current_device());
    constexpr size_t kAll = size_t(c10::CachingAllocator::StatType::AGGREGATE);
    m.cuda_allocated_bytes = stats.allocated_bytes[kAll].current;
    m.cuda_reserved_bytes = stats.reserved_bytes[kAll].current;
    m.cuda_peak_allocated_bytes = stats.allocated_bytes[kAll].peak;
}

void reset_cuda_peak() {
    if (c10::cuda::device_count() == 0) return;
    c10::cuda::CUDACachingAllocator::resetPeakStats(c10::cuda::current_device());
}

std::string cuda_device_name() {
    if (c10::cuda::device_count() == 0) return {};
    cudaDeviceProp prop{};  // the runtime API directly: ATen's CUDAContext.h would need cuSPARSE/cuBLAS headers
    if (cudaGetDeviceProperties(&prop, c10::cuda::current_device()) != cudaSuccess) return "CUDA device";
    return prop.name;
}

std::string cuda_device_arch(int device_index) {
    if (c10::cuda::device_count() == 0) return {};
    const int index = device_index >= 0 ? device_index : int(c10::cuda::current_device());
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) return "sm_unknown";
    return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + " " + prop.name;
}

int64_t cuda_free_bytes() {
    if (c10::cuda::device_count() == 0) return -1;
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return -1;
    return int64_t(free_bytes);  // the caching allocator's own reserve is not counted as free
}

std::vector<DeviceInfo> list_cuda_devices() {
    std::vector<DeviceInfo> out;
    const int n = int(c10::cuda::device_count());
    for (int i = 0; i < n; ++i) {
        DeviceInfo d;
        d.id = "cuda:" + std::to_string(i);
        d.available = true;
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) == cudaSuccess) {
            d.name = prop.name;
            d.memory_bytes = int64_t(prop.totalGlobalMem);
        } else {
            d.name = "CUDA device " + std::to_string(i);
        }
        out.push_back(std::move(d));
    }
    return out;
}

void select_cuda_device(int index) { c10::cuda::set_device(c10::DeviceIndex(index)); }
#else
std::string cuda_device_name() { return {}; }
std::string cuda_device_arch(int) { return {}; }
int64_t cuda_free_bytes() { return -1; }
void fill_cuda_memory(MemoryStats&) {}
void reset_cuda_peak() {}
std::vector<DeviceInfo> list_cuda_devices() { return {}; }
void select_cuda_device(int) {}
#endif

}  // namespace reef
