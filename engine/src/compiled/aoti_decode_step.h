// The compiled decode step: the slow and fast forwards of one decode frame run from the AOTInductor
// packages (aoti_package.h) through libtorch's AOTIModelPackageLoader, over Reef's own KV caches.
// Only aoti_decode_step.cpp includes the loader header.
#pragma once
#include <memory>
#include <string>

#include "compiled/aoti_package.h"
#include "text2semantic/generator.h"

namespace reef {

// What a package's generated code calls for attention, read from the package itself: the SDPA
// kernel shims (aoti_torch_{cpu,cuda}__scaled_dot_product_*) in its wrapper code, or none when
// Inductor decomposed attention into matmul/softmax (MATH).
struct PackageAttention {
    SdpaBackend backend = SdpaBackend::Unknown;
    std::string evidence;  // e.g. "calls aoti_torch_cpu__scaled_dot_product_flash_attention_for_cpu"
};
PackageAttention package_attention(const std::string& pt2_path);

// Loads both packages (throws ReefError(BackendUnavailable) naming the file when libtorch refuses
// one). Each call records its site's backend, as read from the package, with the compiled mark.
std::unique_ptr<CompiledDecodeStep> load_aoti_decode_step(const AotiPackage& package, at::Device device);

}  // namespace reef
