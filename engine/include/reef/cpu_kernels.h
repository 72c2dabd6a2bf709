// The SIMD target of Reef's CPU kernels (engine/kernels: the decode GEMV and the row ops), for
// `reef-cli --version`, bench reports and the UI: what runs and what ran, not what was asked.
#pragma once
#include <string>
#include <vector>

namespace reef {

struct CpuKernelInfo {
    bool built = false;                 // the build has the SIMD kernels (Highway)
    std::string target;                 // the target kernel calls use now, e.g. "avx2"
    std::vector<std::string> runnable;  // what this CPU can run, best first
    std::string requested;              // REEF_CPU_TARGET, "" when unset
    std::string error;                  // why REEF_CPU_TARGET could not be applied ("" if it was)
};
CpuKernelInfo cpu_kernel_info();

// The target the decode GEMV last ran since reset_cpu_kernels_ran(); "" when none ran (every
// projection went to libtorch: REEF_GEMV=0, fp16, a GPU, a compiled arm).
std::string cpu_kernels_ran();
void reset_cpu_kernels_ran();

}  // namespace reef
