// The compiled arm's packages (compile mode aot-inductor): two AOTInductor .pt2 files, the slow
// and the fast decode step, produced by engine/python/reef_aoti_export.py from the weights the
// eager engine holds, and cached in the user's private cache folder (package_cache.h) per model
// fingerprint, device, precision, SDPA policy, KV mode, libtorch and Reef version and host code
// features. A cached package is checked (sizes and content hashes) before it is trusted; a bad
// one is rebuilt.
#pragma once
#include <ATen/ATen.h>

#include <functional>
#include <string>

#include "reef/engine_types.h"

namespace reef {

class DualArModel;

struct AotiPackage {
    std::string dir;                 // the cache entry: slow.pt2, fast.pt2, manifest.json
    std::string slow_path, fast_path;
    double compile_s = 0;            // the export + Inductor compile that made it, now or (from_cache) when it was built
    bool from_cache = false;
    SdpaPolicy sdpa_policy = SdpaPolicy::Math;  // what the package was exported under (resolved)
    KvMode kv_mode = KvMode::ActivePrefix;
};

struct AotiCompileOptions {
    SdpaPolicy policy = SdpaPolicy::Math;  // resolved: never FishSpeech
    KvMode kv_mode = KvMode::ActivePrefix;
    int threads = 0;                       // for the exporter's torch; 0 = its default
    std::function<void(const std::string&)> progress;  // "compiling the decode step... 41 s"
    std::function<bool()> should_abort;
};

// REEF_AOTI_KERNEL_PROFILE=1: packages whose generated kernels report to libtorch's profiler
// (reef-cli bench --profile); they are packages of their own (the setting is in the cache key).
bool aoti_kernel_profile();

// The cache entry (folder) the package for this model and these options lives in: its key hashes
// the weights, the spec, the exporter, libtorch's and Reef's versions and the host's code features
// (package_cache.h). The cache is private_cache_root(); nothing is compiled.
std::string aoti_entry_dir(const DualArModel& model, const at::Tensor& head, const AotiCompileOptions& options);

// The cached package for this model, or a new one compiled now (minutes for a big model). head:
// the row-restricted output head the eager decode uses (undefined = all rows). Throws
// ReefError(BackendUnavailable) with the reason (no Python, wrong torch, export or compile failure)
// or ReefError(Cancelled); nothing half-written is left in the cache either way.
AotiPackage ensure_aoti_package(const DualArModel& model, const at::Tensor& head, const AotiCompileOptions& options);

// Forgets a cache entry (a package that failed to load), so the next ensure_aoti_package rebuilds it.
void discard_aoti_package(const AotiPackage& package);

}  // namespace reef
