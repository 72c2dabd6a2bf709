// DualARModelArgs port (fish-speech: fish_speech/models/text2semantic/llama.py): the flat config of the dual-AR
// text2semantic model, parsed from either config.json layout and written back in it.
#pragma once
#include <cstdint>
#include <string>

namespace reef {

// Which on-disk layout (and which fish-speech era) a model folder follows.
//   S2: model_type "fish_qwen3_omni", nested config, HF key names in safetensors, HEAD decoding
//       (semantic logit bias, RAS, full-width fast logits, normed fast input).
//   S1: model_type "dual_ar", flat config, model.pth with flat names, S1-era decoding (§4.9:
//       repetition penalty, no bias, 1024-wide fast logits, un-normed fast input).
enum class ModelLayout { S2, S1 };

// port of llama.py: DualARModelArgs (after __post_init__; every fast_* field resolved)
struct DualArConfig {
    ModelLayout layout = ModelLayout::S2;
    std::string model_type = "fish_qwen3_omni";

    int64_t vocab_size = 0;
    int64_t n_layer = 0;
    int64_t n_head = 0;
    int64_t n_local_heads = 0;
    int64_t head_dim = 64;
    int64_t dim = 0;
    int64_t intermediate_size = 0;
    double rope_base = 10000;
    double norm_eps = 1e-5;
    int64_t max_seq_len = 2048;
    bool tie_word_embeddings = true;
    bool attention_qkv_bias = false;
    bool attention_o_bias = false;
    bool attention_qk_norm = false;

    int64_t codebook_size = 0;
    int64_t num_codebooks = 0;
    int64_t semantic_begin_id = 0;  // overwritten from the tokenizer at load (§2.2 step 2)
    int64_t semantic_end_id = 0;
    bool scale_codebook_embeddings = false;
    bool norm_fastlayer_input = false;

    int64_t n_fast_layer = 4;
    int64_t fast_dim = 0;
    int64_t fast_n_head = 0;
    int64_t fast_n_local_heads = 0;
    int64_t fast_head_dim = 0;
    int64_t fast_intermediate_size = 0;
    bool fast_attention_qkv_bias = false;
    bool fast_attention_qk_norm = false;
    bool fast_attention_o_bias = false;

    bool has_fast_project_in() const { return fast_dim != dim; }
    // S1-era decoding rules (§4.9) apply to the flat dual_ar layout.
    bool s1_decoding() const { return layout == ModelLayout::S1; }
};

// Parses config.json text. `what` names the file in errors. Throws ReefError(CorruptModel) naming
// the missing or malformed field, e.g. "config.json: text_config.n_head: missing".
DualArConfig parse_model_config(const std::string& json_text, const std::string& what = "config.json");
// Reads <model_dir>/config.json. Throws ReefError(ModelNotFound) when it is absent.
DualArConfig load_model_config(const std::string& model_dir);

// The config.json text in the config's layout: S2 nested (text_config / audio_decoder_config), S1
// flat. head_dim is always written and max_seq_len is rounded up to a multiple of 8, so that
// fish-speech's own loader reads the folder unchanged (llama.py: BaseModelArgs, setup_caches).
std::string model_config_to_json(const DualArConfig& config);
void write_model_config(const std::string& path, const DualArConfig& config);

// Presets: "tiny" (demo), "s1-mini" (§1.4) and "s2-pro" (§1.2). vocab_size comes from the
// tokenizer; the semantic range is placed at the top of the vocab (4096 ids below the last two
// rows, as in S2) unless the tokenizer overwrites it later. Throws ReefError(InvalidArgument).
DualArConfig preset_config(const std::string& preset, ModelLayout layout, int64_t vocab_size);

// Multiple-of helper used for the cache length (fish-speech find_multiple).
inline int64_t find_multiple(int64_t n, int64_t k) { return n % k == 0 ? n : n + k - n % k; }

}  // namespace reef
