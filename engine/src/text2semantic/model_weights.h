// Text2semantic checkpoint names and files (fish-speech llama.py: from_pretrained): the expected state dict
// of a config, the S2 HF-name remap (and its inverse for demo models), the S1 .pth rules, and the
// file priority index.json > model.safetensors > model.pth.
#pragma once
#include <string>
#include <vector>

#include "checkpoint/safetensors.h"
#include "checkpoint/tensor_map.h"
#include "text2semantic/model_config.h"

namespace reef {

// fish-speech internal names (after the remap) -> shapes, PyTorch Linear layout [out, in].
ExpectedShapes expected_shapes(const DualArConfig& config);

// The projections' weight keys (every nn.Linear of fish-speech's model: attention, feed-forward,
// output and fast heads, fast_project_in): what quantize.py quantizes, all 2-D but the embeddings.
std::vector<std::string> linear_weight_keys(const DualArConfig& config);

// The embedding tables Reef may quantize too (reef-cli quantize --embeddings; quantize.py keeps
// them bf16): the token and the codebook embeddings, the bulk of a model's non-linear bytes
// (S2-Pro: 1.0 GB of 9.1 in bf16). The fast embeddings are small and stay as stored.
std::vector<std::string> embedding_table_keys();

// expected_shapes plus "<p>.scales" [N] for every linear or embedding table whose weight in `weights`
// is int8, and the packed shape with "<p>.scales" and "<p>.zeros" [N, groups] for int4 (issue #44).
// Throws ReefError(ShapeMismatch) for a quantized tensor that is not such a weight (a norm, the fast
// embeddings) and for scales or zeros beside a weight that is not quantized.
ExpectedShapes expected_shapes_for(const DualArConfig& config, const TensorMap& weights);

// How the linears of a model are stored (issue #44): float (the run dtype), int8 (one scale per
// row) or int4 (a bf16 scale and zero per `group` weights).
struct WeightFormat {
    int bits = 0;             // 0: float, 8 or 4
    int64_t group = 0;        // int4's group size
    bool embeddings = false;  // the embedding tables are quantized too (embedding_table_keys)
    static WeightFormat int8() { return {8, 0}; }
    static WeightFormat int4(int64_t group) { return {4, group}; }
    // "" (float), "int8", "int4-g128": the name reports and the studio show
    std::string name() const;
};

// Bytes the model's weights take in `dtype`, the linears as `format` stores them (int8: a byte an
// element and fp32 scales; int4: half a byte and a bf16 scale and zero per group): the memory check
// before any weight is read.
uint64_t model_weight_bytes(const DualArConfig& config, at::ScalarType dtype, WeightFormat format);

// What loading the model takes before its first frame: model_weight_bytes plus the RoPE table
// (fp32, [max_seq_len, head_dim]). The load's memory check and the studio's model picker
// (model_folder_size) both count this.
uint64_t model_load_bytes(const DualArConfig& config, at::ScalarType dtype, WeightFormat format);

// What the folder says of its weights before they are read: Reef's quantization.json ("int8", or
// "int4" with its "group"), or fish-speech's own rule, "int8" in the folder's name (llama.py
// from_pretrained). Float when it says nothing.
WeightFormat folder_weight_format(const std::string& model_dir);
inline bool folder_says_int8(const std::string& model_dir) { return folder_weight_format(model_dir).bits == 8; }

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
// An int8 folder (folder_says_int8) with a model.pth beside safetensors reads the model.pth: quantize.py
// copies the whole source folder, bf16 shards included, and writes its int8 weights to model.pth.
// `source` receives the file that was read. Throws ReefError(ModelNotFound) when none exists.
// `expected` goes to merge_split_qkv; `home`: where safetensors tensors go (checkpoint/safetensors.h).
TensorMap read_text2semantic_weights(const std::string& model_dir, std::string* source = nullptr,
                                     const ExpectedShapes* expected = nullptr,
                                     TensorHome home = TensorHome::WeightMemory);

}  // namespace reef
