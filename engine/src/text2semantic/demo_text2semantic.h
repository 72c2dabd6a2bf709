// Demo text2semantic weights: a deterministic random-weight model in the real file formats, so the
// same loader reads demo and real folders (docs/architecture.md, "Adding a model layout").
#pragma once
#include <cstdint>
#include <string>

#include "text2semantic/demo_tokenizer.h"
#include "text2semantic/model_config.h"

namespace reef {

// Writes <dir>/config.json and the weights of preset "tiny" | "s1-mini" | "s2-pro":
//   layout "s2": HF names (text_model.model.*, audio_decoder.*) in model.safetensors, or 2 shards +
//                model.safetensors.index.json for s2-pro (9 GB: never in tests);
//   layout "s1": model.pth (torch zip, flat internal names) and a flat dual_ar config.json.
// tiny is stored in fp32, the real-size presets in bf16 (as released). Norm scales are 1 + 0.1·N(0,1)
// so that a missing "× weight" is visible in parity runs. Throws ReefError(InvalidArgument / Io).
void write_demo_text2semantic(const std::string& dir, const std::string& preset, const std::string& layout,
                              int64_t vocab_size, uint64_t seed);
// The same with the semantic range taken from the demo tokenizer that was written next to it.
void write_demo_text2semantic(const std::string& dir, const std::string& preset, const std::string& layout,
                              const DemoTokenizerInfo& tokenizer, uint64_t seed);

// The config a demo folder gets (exposed for tests and the bench).
DualArConfig demo_text2semantic_config(const std::string& preset, const std::string& layout, int64_t vocab_size);

}  // namespace reef
