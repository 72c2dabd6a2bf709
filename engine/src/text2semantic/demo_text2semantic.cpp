#include "text2semantic/demo_text2semantic.h"

#include <ATen/CPUGeneratorImpl.h>

#include <filesystem>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "checkpoint/verify.h"
#include "text2semantic/model_weights.h"

namespace reef {
namespace {

ModelLayout parse_layout(const std::string& layout) {
    if (layout == "s2") return ModelLayout::S2;
    if (layout == "s1") return ModelLayout::S1;
    throw ReefError(ErrorCode::InvalidArgument, "unknown demo layout '" + layout + "' (s2, s1)");
}

// One tensor at a time so a 4.5 B-parameter preset never holds fp32 copies of everything.
TensorMap random_state_dict(const DualArConfig& c, uint64_t seed, at::ScalarType dtype) {
    TensorMap out;
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed ^ 0x9e3779b97f4a7c15ULL);
    uint64_t i = 0;
    for (const auto& [key, shape] : expected_shapes(c)) {
        at::Tensor t = make_random_weights({{key, shape}}, seed * 1000003ULL + i++).at(key);
        if (key.find("norm") != std::string::npos) t = 1.0 + 0.1 * at::randn(t.sizes(), gen, at::kFloat);
        out[key] = t.to(dtype);
    }
    return out;
}

}  // namespace

DualArConfig demo_text2semantic_config(const std::string& preset, const std::string& layout, int64_t vocab_size) {
    return preset_config(preset, parse_layout(layout), vocab_size);
}

void write_demo_text2semantic(const std::string& dir, const std::string& preset, const std::string& layout,
                              const DemoTokenizerInfo& tokenizer, uint64_t seed) {
    DualArConfig c = demo_text2semantic_config(preset, layout, tokenizer.vocab_size);
    if (tokenizer.semantic_begin >= 0 && tokenizer.semantic_end >= tokenizer.semantic_begin) {
        c.semantic_begin_id = tokenizer.semantic_begin;
        c.semantic_end_id = tokenizer.semantic_end;
    }
    REEF_CHECK(c.semantic_end_id < c.vocab_size, "demo tokenizer ids beyond its vocab_size");
    namespace fs = std::filesystem;
    const fs::path d(dir);
    if (!fs::is_directory(d)) throw ReefError(ErrorCode::Io, dir + ": not a folder");
    write_model_config((d / "config.json").string(), c);
    const at::ScalarType dtype = preset == "tiny" ? at::kFloat : at::kBFloat16;
    TensorMap weights = random_state_dict(c, seed, dtype);
    if (c.layout == ModelLayout::S1) {
        save_pth((d / "model.pth").string(), weights);
        return;
    }
    TensorMap hf = to_fish_qwen3_omni_keys(weights);
    weights.clear();
    if (preset == "s2-pro")
        save_safetensors_sharded(dir, hf, 2);
    else
        save_safetensors((d / "model.safetensors").string(), hf, {{"format", "pt"}});
}

void write_demo_text2semantic(const std::string& dir, const std::string& preset, const std::string& layout,
                              int64_t vocab_size, uint64_t seed) {
    const DualArConfig c = demo_text2semantic_config(preset, layout, vocab_size);
    DemoTokenizerInfo info{vocab_size, int32_t(c.semantic_begin_id), int32_t(c.semantic_end_id), -1};
    write_demo_text2semantic(dir, preset, layout, info, seed);
}

}  // namespace reef
