// A loaded model folder: tokenizer, dual-AR model, codec and the caches kept between requests.
#pragma once
#include <ATen/ATen.h>

#include <memory>

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
    TokenIds ids;
    // The loaded compiled decode step (aot-inductor) and its package; one at a time, since each
    // holds a copy of the weights.
    std::unique_ptr<CompiledDecodeStep> compiled;
    AotiPackage compiled_package;
};

// Loads everything a folder holds; throws ReefError naming the file and the problem.
std::unique_ptr<Pipeline> load_pipeline(const EngineConfig& config);

// Codes <-> tensors at the facade boundary. Throws ReefError(InvalidArgument) on a shape or range error.
at::Tensor codes_to_tensor(const Codes& codes, int64_t n_codebooks, const std::string& what);  // (N, T) int64
Codes tensor_to_codes(const at::Tensor& codes);                                              // (N, T) -> Codes

// The marker write_demo_model leaves in a demo folder ("reef_demo.json").
inline constexpr const char* kDemoMarker = "reef_demo.json";

}  // namespace reef
