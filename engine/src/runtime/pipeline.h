// A loaded model folder: tokenizer, dual-AR model, codec and the caches kept between requests.
#pragma once
#include <ATen/ATen.h>

#include <map>
#include <memory>
#include <string>

#include "codec/codec.h"
#include "compiled/aoti_package.h"
#include "reef/engine_types.h"
#include "text2semantic/generator.h"
#include "text2semantic/tokenizer.h"

namespace reef {

struct Pipeline {
    EngineConfig config;
    ModelInfo info;
    std::unique_ptr<Tokenizer> tokenizer;
    std::unique_ptr<DualArModel> model;
    std::unique_ptr<Codec> codec;  // null when the folder has none or load_codec is off
    Text2SemanticCaches caches;
    // The KV rows of recent voice prefixes (prefix_kv_store.h): the segments of one voice prefill
    // their reference once per project.
    PrefixKvStore prefix_store;
    TokenIds ids;
    // Eager CPU decode frames' thread counts (EngineConfig::adaptive_threads): what it learned
    // about this machine's other programs carries from one request to the next.
    ThreadGovernor thread_governor;
    // Compiled decode steps (aot-inductor) loaded so far, by package folder, and the one in use.
    // A step stays loaded for the pipeline's life: libtorch 2.13's package loader does not give a
    // package's constants (a copy of the weights) back when it is destroyed (+1.2 GB per
    // load/unload of the s1-mini bf16 package, measured), so unloading and loading again would only
    // grow the process.
    std::map<std::string, std::unique_ptr<CompiledDecodeStep>> loaded_steps;
    CompiledDecodeStep* compiled = nullptr;
    AotiPackage compiled_package;
    std::map<std::string, AotiPackage> package_for_options;  // "policy/kv mode/..." -> its package
};

// Loads everything a folder holds; throws ReefError naming the file and the problem.
std::unique_ptr<Pipeline> load_pipeline(const EngineConfig& config);

// Codes <-> tensors at the facade boundary. Throws ReefError(InvalidArgument) on a shape or range error.
at::Tensor codes_to_tensor(const Codes& codes, int64_t n_codebooks, const std::string& what);  // (N, T) int64
Codes tensor_to_codes(const at::Tensor& codes);                                              // (N, T) -> Codes

// The marker write_demo_model leaves in a demo folder ("reef_demo.json").
inline constexpr const char* kDemoMarker = "reef_demo.json";

}  // namespace reef
