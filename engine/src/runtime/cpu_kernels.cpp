#include "reef/cpu_kernels.h"

#include <cstdlib>

#ifdef REEF_HAVE_KERNELS
#include "kernels/cpu_target.h"
#endif

namespace reef {

CpuKernelInfo cpu_kernel_info() {
    CpuKernelInfo info;
    const char* env = std::getenv("REEF_CPU_TARGET");
    info.requested = env ? env : "";
#ifdef REEF_HAVE_KERNELS
    info.built = true;
    info.runnable = kernels::runnable_targets();
    info.target = kernels::current_target();
    info.error = kernels::env_target_error();
#else
    if (!info.requested.empty()) info.error = "REEF_CPU_TARGET is set but this build has no SIMD kernels (no Highway)";
#endif
    return info;
}

std::string cpu_kernels_ran() {
#ifdef REEF_HAVE_KERNELS
    return kernels::ran_target();
#else
    return {};
#endif
}

void reset_cpu_kernels_ran() {
#ifdef REEF_HAVE_KERNELS
    kernels::reset_ran_target();
#endif
}

}  // namespace reef
