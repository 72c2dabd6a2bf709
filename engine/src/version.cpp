// Versions of libtorch and CUDA as this build and this machine see them.
#include <ATen/Context.h>
#include <ATen/Version.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include "library_versions.h"
#include "runtime/device.h"
#include "reef/engine.h"

namespace reef {

VersionInfo Engine::versions() { return library_versions(); }

VersionInfo library_versions() {
    VersionInfo v;
    v.reef = REEF_VERSION;
    v.libtorch = TORCH_VERSION;
    v.cuda_compiled = cuda_built();   // compiled in, GPU or not (at::hasCUDA() needs a GPU)
    v.cuda_available = v.cuda_compiled && torch::cuda::is_available();
#ifdef CUDA_VERSION
    v.cuda_version = std::to_string(CUDA_VERSION / 1000) + "." + std::to_string((CUDA_VERSION % 1000) / 10);
#endif
    if (v.cuda_compiled) {
        long cudnn = at::detail::getCUDAHooks().versionCuDNN();
        if (cudnn > 0) v.cudnn_version = std::to_string(cudnn);
        int cuda_rt = at::detail::getCUDAHooks().versionCUDART();
        if (cuda_rt > 0) v.cuda_version = std::to_string(cuda_rt / 1000) + "." + std::to_string((cuda_rt % 1000) / 10);
    }
    return v;
}

}  // namespace reef
