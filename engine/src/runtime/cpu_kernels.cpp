#include "reef/cpu_kernels.h"

#include <cstdlib>

#include "check.h"
#include "runtime/cpu_target_scope.h"

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

CpuTargetScope::CpuTargetScope(const std::string& target) {
    if (target.empty()) return;
#ifdef REEF_HAVE_KERNELS
    const std::string before = kernels::current_target();
    const std::string why = kernels::force_target(target);
    if (!why.empty()) throw ReefError(ErrorCode::UnsupportedDevice, "CPU target \"" + target + "\": " + why);
    m_previous = before;
#else
    throw ReefError(ErrorCode::UnsupportedDevice,
                    "CPU target \"" + target + "\": this build has no SIMD kernels (no Highway)");
#endif
}

CpuTargetScope::~CpuTargetScope() {
#ifdef REEF_HAVE_KERNELS
    if (!m_previous.empty()) kernels::force_target(m_previous);
#endif
}

}  // namespace reef
