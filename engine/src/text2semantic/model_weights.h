// Text2semantic checkpoint names and files (fish-speech llama.py: from_pretrained): the expected state dict
// of a config, the S2 HF-name remap (and its inverse for demo models), the S1 .pth rules, and the
// file priority index.json > model.safetensors > model.pth.
#pragma once
#include <string>

#include "checkpoint/safetensors.h"
#include "checkpoint/tensor_map.h"
#include "text2semantic/model_config.h"

namespace reef {

// fish-speech internal names (after the remap) -> shapes, PyTorch Linear layout [out, in].
ExpectedShapes expected_shapes(const DualArConfig& config);

// port of llama.py: _remap_fish_qwen3_omni_keys — applied only when some key starts with
// "text_model." or "audio_decoder.".
TensorMap remap_fish_qwen3_omni_keys(TensorMap weights);
// The inverse, for writing demo models in the S2 HF layout.
TensorMap to_fish_qwen3_omni_keys(const TensorMap& weights);
// The S1 model.pth rules of from_pretrained: unwrap "state_dict", strip "model." everywhere when
// the keys start with it, drop every key containing "audio_".
TensorMap normalize_pth_keys(TensorMap weights);
// port of Attention.load_hook: legacy wq/wk/wv.weight -> wqkv.weight = cat([q; k; v], 0).
// With `expected`, only prefixes whose wqkv.weight is expected are merged, and q/k/v must add up
// to its shape before cat copies them (a hostile file cannot make it materialise stray tensors).
void merge_split_qkv(TensorMap& weights, const ExpectedShapes* expected = nullptr);

// Reads the weight files of a model folder (first of model.safetensors.index.json,
// model.safetensors, model.pth), applies the name rules above and returns internal names.
// `source` receives the file that was read. Throws ReefError(ModelNotFound) when none exists.
// `expected` goes to merge_split_qkv; `home`: where safetensors tensors go (checkpoint/safetensors.h).
TensorMap read_text2semantic_weights(const std::string& model_dir, std::string* source = nullptr,
                                     const ExpectedShapes* expected = nullptr,
                                     TensorHome home = TensorHome::WeightMemory);

}  // namespace reef
