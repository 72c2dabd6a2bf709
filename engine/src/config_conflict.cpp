// The compile mode / SDPA policy / device combinations no build runs, in one place: Engine::load
// refuses them before reading any weights, and the settings panel disables the items that would
// make one, with the same reason as tooltip (issue #47).
#include "reef/engine_types.h"

namespace reef {

ConfigConflict config_conflict(CompileMode mode, SdpaPolicy policy, DeviceKind device) {
    if (mode == CompileMode::CudaGraph)
        return {device == DeviceKind::Cuda
                    ? "compile mode 'cuda-graph' is not available: CUDA-graph capture of the decode step is not "
                      "implemented in this build"
                    : "compile mode 'cuda-graph' needs a CUDA device; this run is on the " + std::string(to_string(device)),
                "use compile mode 'eager'"};
    if (policy == SdpaPolicy::Reef) {
        if (device != DeviceKind::Cpu)
            return {"SDPA policy 'reef' is Reef's own CPU decode attention kernel; this run is on " +
                        std::string(to_string(device)),
                    "use the 'auto' SDPA policy"};
        if (mode != CompileMode::Eager)
            return {std::string("SDPA policy 'reef' runs Reef's own kernel in eager decoding; compile mode '") +
                        to_string(mode) + "' runs the attention compiled into its package",
                    "use compile mode 'eager', or another SDPA policy"};
    }
    return {};
}

SdpaPolicy default_sdpa_policy(DeviceKind device, CompileMode mode) {
#ifdef REEF_HAVE_KERNELS
    if (device == DeviceKind::Cpu && mode == CompileMode::Eager) return SdpaPolicy::Reef;
#else
    (void)device, (void)mode;
#endif
    return SdpaPolicy::Auto;
}

}  // namespace reef
