#include "text2semantic/model_config.h"

#include "checkpoint/atomic_file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check.h"
#include "checkpoint/model_file.h"
#include "input_limits.h"

namespace reef {
namespace {

using nlohmann::json;

[[noreturn]] void bad_field(const std::string& what, const std::string& field, const std::string& problem) {
    throw ReefError(ErrorCode::CorruptModel, what + ": " + field + ": " + problem,
                    "the model folder's config.json does not describe a fish-speech dual-AR model");
}

// Field readers: `prefix` is the dotted path of `obj` for error messages ("text_config.").
struct Fields {
    const json& obj;
    std::string what;
    std::string prefix;

    bool has(const char* key) const { return obj.contains(key) && !obj.at(key).is_null(); }

    int64_t integer(const char* key) const {
        if (!has(key)) bad_field(what, prefix + key, "missing");
        const json& v = obj.at(key);
        if (!v.is_number_integer()) bad_field(what, prefix + key, "not an integer: " + v.dump());
        const int64_t n = v.get<int64_t>();
        if (n <= 0) bad_field(what, prefix + key, "must be positive, got " + std::to_string(n));
        return n;
    }
    int64_t integer_or(const char* key, int64_t fallback) const { return has(key) ? integer(key) : fallback; }
    int64_t any_integer_or(const char* key, int64_t fallback) const {
        if (!has(key)) return fallback;
        if (!obj.at(key).is_number_integer()) bad_field(what, prefix + key, "not an integer: " + obj.at(key).dump());
        return obj.at(key).get<int64_t>();
    }
    double number_or(const char* key, double fallback) const {
        if (!has(key)) return fallback;
        if (!obj.at(key).is_number()) bad_field(what, prefix + key, "not a number: " + obj.at(key).dump());
        const double x = obj.at(key).get<double>();
        if (!(x > 0) || !std::isfinite(x)) bad_field(what, prefix + key, "must be positive and finite");
        return x;
    }
    bool boolean_or(const char* key, bool fallback) const {
        if (!has(key)) return fallback;
        if (!obj.at(key).is_boolean()) bad_field(what, prefix + key, "not a boolean: " + obj.at(key).dump());
        return obj.at(key).get<bool>();
    }
    const json& object(const char* key) const {
        if (!has(key)) bad_field(what, prefix + key, "missing");
        if (!obj.at(key).is_object()) bad_field(what, prefix + key, "not an object");
        return obj.at(key);
    }
};

// Every size against limits.h, before anything is derived from it: these numbers size the
// expected-shape table, the RoPE tables and the KV cache, so 10^12 must stop here.
void check_limits(const DualArConfig& c, const std::string& what) {
    using namespace limits;
    auto bound = [&](const char* field, int64_t v, int64_t lo, int64_t hi) {
        if (v < lo || v > hi)
            bad_field(what, field, std::to_string(v) + " is out of range: it must be between " + std::to_string(lo) +
                                       " and " + std::to_string(hi) + " (too large for any fish-speech model)");
    };
    bound("vocab_size", c.vocab_size, 1, kMaxVocab);
    bound("n_layer", c.n_layer, 1, kMaxLayers);
    bound("n_head", c.n_head, 1, kMaxHeads);
    bound("n_local_heads", c.n_local_heads, 1, kMaxHeads);
    bound("head_dim", c.head_dim, 2, kMaxHeadDim);
    bound("dim", c.dim, 1, kMaxDim);
    bound("intermediate_size", c.intermediate_size, 1, kMaxIntermediate);
    bound("max_seq_len", c.max_seq_len, 1, kMaxSeqLen);
    bound("codebook_size", c.codebook_size, 1, kMaxCodebookSize);
    bound("num_codebooks", c.num_codebooks, 2, kMaxCodebooks);
    bound("semantic_begin_id", c.semantic_begin_id, 0, kMaxVocab);
    bound("semantic_end_id", c.semantic_end_id, 0, kMaxVocab);
    bound("n_fast_layer", c.n_fast_layer, 1, kMaxLayers);
    bound("fast_dim", c.fast_dim, 1, kMaxDim);
    bound("fast_n_head", c.fast_n_head, 1, kMaxHeads);
    bound("fast_n_local_heads", c.fast_n_local_heads, 1, kMaxHeads);
    bound("fast_head_dim", c.fast_head_dim, 2, kMaxHeadDim);
    bound("fast_intermediate_size", c.fast_intermediate_size, 1, kMaxIntermediate);
    if (!(c.rope_base > 1.0 && c.rope_base <= kMaxRopeBase)) bad_field(what, "rope_base", "must be in (1, 1e12]");
    if (!(c.norm_eps > 0.0 && c.norm_eps < 1.0)) bad_field(what, "norm_eps", "must be in (0, 1)");
}

// port of BaseModelArgs.__post_init__ + DualARModelArgs.__post_init__ (fast_* default to slow).
// `fast_*` fields hold 0 / -1 (bools) when unset.
void post_init(DualArConfig& c, int fast_qkv_bias, int fast_qk_norm, int fast_o_bias, const std::string& what) {
    // dim first: the intermediate_size default below multiplies it.
    if (c.dim > limits::kMaxDim) bad_field(what, "dim", std::to_string(c.dim) + " is out of range: at most " + std::to_string(limits::kMaxDim));
    if (c.n_local_heads == -1) c.n_local_heads = c.n_head;
    if (c.intermediate_size == 0) c.intermediate_size = find_multiple(int64_t(2 * 4 * c.dim / 3), 256);
    if (c.fast_dim == 0) c.fast_dim = c.dim;
    if (c.fast_n_head == 0) c.fast_n_head = c.n_head;
    if (c.fast_n_local_heads == 0) c.fast_n_local_heads = c.n_local_heads;
    if (c.fast_head_dim == 0) c.fast_head_dim = c.head_dim;
    if (c.fast_intermediate_size == 0) c.fast_intermediate_size = c.intermediate_size;
    c.fast_attention_qkv_bias = fast_qkv_bias < 0 ? c.attention_qkv_bias : fast_qkv_bias != 0;
    c.fast_attention_qk_norm = fast_qk_norm < 0 ? c.attention_qk_norm : fast_qk_norm != 0;
    c.fast_attention_o_bias = fast_o_bias < 0 ? c.attention_o_bias : fast_o_bias != 0;

    auto require = [&](bool ok, const std::string& field, const std::string& problem) {
        if (!ok) bad_field(what, field, problem);
    };
    check_limits(c, what);
    require(c.n_local_heads > 0 && c.n_head % c.n_local_heads == 0, "n_local_heads",
            "n_head " + std::to_string(c.n_head) + " is not a multiple of " + std::to_string(c.n_local_heads));
    require(c.fast_n_local_heads > 0 && c.fast_n_head % c.fast_n_local_heads == 0, "fast_n_local_heads",
            "fast_n_head " + std::to_string(c.fast_n_head) + " is not a multiple of " +
                std::to_string(c.fast_n_local_heads));
    require(c.head_dim % 2 == 0, "head_dim", "must be even for RoPE, got " + std::to_string(c.head_dim));
    require(c.fast_head_dim % 2 == 0, "fast_head_dim", "must be even for RoPE");
    require(c.dim % c.n_head == 0, "dim", "not a multiple of n_head (fish-speech asserts it)");
    require(c.fast_dim % c.fast_n_head == 0, "fast_dim", "not a multiple of fast_n_head");
    require(c.num_codebooks >= 2, "num_codebooks", "must be at least 2");
    require(c.semantic_begin_id <= c.semantic_end_id, "semantic_end_token_id", "below the start id");
}

int tri_bool(const Fields& f, const char* key) {
    return f.has(key) ? int(f.boolean_or(key, false)) : -1;
}

// port of BaseModelArgs._from_fish_qwen3_omni
DualArConfig parse_s2(const json& data, const std::string& what) {
    Fields top{data, what, ""};
    Fields tc{top.object("text_config"), what, "text_config."};
    Fields adc{top.object("audio_decoder_config"), what, "audio_decoder_config."};
    DualArConfig c;
    c.layout = ModelLayout::S2;
    c.model_type = "fish_qwen3_omni";
    c.vocab_size = tc.integer("vocab_size");
    c.n_layer = tc.integer("n_layer");
    c.n_head = tc.integer("n_head");
    c.n_local_heads = tc.any_integer_or("n_local_heads", -1);
    c.head_dim = tc.integer_or("head_dim", 64);  // the flat default, NOT dim / n_head
    c.dim = tc.integer("dim");
    c.intermediate_size = tc.integer_or("intermediate_size", 0);
    c.rope_base = tc.number_or("rope_base", 10000);
    c.norm_eps = tc.number_or("norm_eps", 1e-5);
    c.max_seq_len = tc.integer_or("max_seq_len", 2048);
    c.tie_word_embeddings = tc.boolean_or("tie_word_embeddings", true);
    c.attention_qkv_bias = tc.boolean_or("attention_qkv_bias", false);
    c.attention_o_bias = tc.boolean_or("attention_o_bias", false);
    c.attention_qk_norm = tc.boolean_or("attention_qk_norm", false);
    c.semantic_begin_id = top.any_integer_or("semantic_start_token_id", 0);
    c.semantic_end_id = top.any_integer_or("semantic_end_token_id", 0);
    c.scale_codebook_embeddings = true;
    c.norm_fastlayer_input = true;
    c.codebook_size = adc.integer("vocab_size");
    c.num_codebooks = adc.integer("num_codebooks");
    c.n_fast_layer = adc.integer("n_layer");
    c.fast_dim = adc.integer_or("dim", 0);
    c.fast_n_head = adc.integer_or("n_head", 0);
    c.fast_n_local_heads = adc.integer_or("n_local_heads", 0);
    c.fast_head_dim = adc.integer_or("head_dim", 0);
    c.fast_intermediate_size = adc.integer_or("intermediate_size", 0);
    post_init(c, tri_bool(adc, "attention_qkv_bias"), tri_bool(adc, "attention_qk_norm"),
              tri_bool(adc, "attention_o_bias"), what);
    return c;
}

// port of DualARModelArgs(**flat config) (S1 era; unknown keys ignored as fish-speech filters them)
DualArConfig parse_s1(const json& data, const std::string& what) {
    Fields f{data, what, ""};
    DualArConfig c;
    c.layout = ModelLayout::S1;
    c.model_type = "dual_ar";
    c.vocab_size = f.integer_or("vocab_size", 32000);
    c.n_layer = f.integer_or("n_layer", 32);
    c.n_head = f.integer_or("n_head", 32);
    c.dim = f.integer_or("dim", 4096);
    c.n_local_heads = f.any_integer_or("n_local_heads", -1);
    c.head_dim = f.integer_or("head_dim", 64);
    c.intermediate_size = f.integer_or("intermediate_size", 0);
    c.rope_base = f.number_or("rope_base", 10000);
    c.norm_eps = f.number_or("norm_eps", 1e-5);
    c.max_seq_len = f.integer_or("max_seq_len", 2048);
    c.tie_word_embeddings = f.boolean_or("tie_word_embeddings", true);
    c.attention_qkv_bias = f.boolean_or("attention_qkv_bias", false);
    c.attention_o_bias = f.boolean_or("attention_o_bias", false);
    c.attention_qk_norm = f.boolean_or("attention_qk_norm", false);
    c.codebook_size = f.integer_or("codebook_size", 160);
    c.num_codebooks = f.integer_or("num_codebooks", 4);
    c.semantic_begin_id = f.any_integer_or("semantic_begin_id", 0);
    c.semantic_end_id = f.any_integer_or("semantic_end_id", 0);
    c.scale_codebook_embeddings = f.boolean_or("scale_codebook_embeddings", false);
    c.norm_fastlayer_input = f.boolean_or("norm_fastlayer_input", false);
    c.n_fast_layer = f.integer_or("n_fast_layer", 4);
    c.fast_dim = f.integer_or("fast_dim", 0);
    c.fast_n_head = f.integer_or("fast_n_head", 0);
    c.fast_n_local_heads = f.integer_or("fast_n_local_heads", 0);
    c.fast_head_dim = f.integer_or("fast_head_dim", 0);
    c.fast_intermediate_size = f.integer_or("fast_intermediate_size", 0);
    post_init(c, tri_bool(f, "fast_attention_qkv_bias"), tri_bool(f, "fast_attention_qk_norm"),
              tri_bool(f, "fast_attention_o_bias"), what);
    return c;
}

}  // namespace

DualArConfig parse_model_config(const std::string& json_text, const std::string& what) {
    json data;
    try {
        data = json::parse(json_text);
    } catch (const json::exception& e) {
        throw ReefError(ErrorCode::CorruptModel, what + ": not valid JSON: " + e.what());
    }
    if (!data.is_object()) bad_field(what, "(top level)", "not a JSON object");
    if (!data.contains("model_type") || !data.at("model_type").is_string()) bad_field(what, "model_type", "missing");
    const std::string type = data.at("model_type").get<std::string>();
    if (type == "fish_qwen3_omni") return parse_s2(data, what);
    if (type == "dual_ar") return parse_s1(data, what);
    bad_field(what, "model_type", "unsupported \"" + type + "\" (expected fish_qwen3_omni or dual_ar)");
}

DualArConfig load_model_config(const std::string& model_dir) {
    const auto path = std::filesystem::path(model_dir) / "config.json";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw ReefError(ErrorCode::ModelNotFound, path.string() + ": cannot open",
                        "choose a fish-speech model folder (S2-Pro, S1-mini) or create a demo model");
    return parse_model_config(read_model_text(path, limits::kMaxConfigFileBytes, "model config"), path.string());
}

std::string model_config_to_json(const DualArConfig& c) {
    const int64_t max_seq_len = find_multiple(c.max_seq_len, 8);
    if (c.layout == ModelLayout::S2) {
        json tc = {{"vocab_size", c.vocab_size}, {"n_layer", c.n_layer}, {"n_head", c.n_head},
                   {"n_local_heads", c.n_local_heads}, {"head_dim", c.head_dim}, {"dim", c.dim},
                   {"intermediate_size", c.intermediate_size}, {"rope_base", c.rope_base},
                   {"norm_eps", c.norm_eps}, {"max_seq_len", max_seq_len}, {"dropout", 0.0},
                   {"tie_word_embeddings", c.tie_word_embeddings}, {"attention_qkv_bias", c.attention_qkv_bias},
                   {"attention_o_bias", c.attention_o_bias}, {"attention_qk_norm", c.attention_qk_norm}};
        json adc = {{"model_type", "fish_qwen3_audio_decoder"}, {"vocab_size", c.codebook_size},
                    {"num_codebooks", c.num_codebooks}, {"n_layer", c.n_fast_layer}, {"dim", c.fast_dim},
                    {"text_dim", c.dim}, {"n_head", c.fast_n_head}, {"n_local_heads", c.fast_n_local_heads},
                    {"head_dim", c.fast_head_dim}, {"intermediate_size", c.fast_intermediate_size},
                    {"attention_qkv_bias", c.fast_attention_qkv_bias},
                    {"attention_qk_norm", c.fast_attention_qk_norm},
                    {"attention_o_bias", c.fast_attention_o_bias}, {"max_seq_len", c.num_codebooks + 1},
                    {"rope_base", c.rope_base}, {"norm_eps", c.norm_eps}, {"tie_word_embeddings", false}};
        json top = {{"model_type", "fish_qwen3_omni"}, {"text_config", tc}, {"audio_decoder_config", adc},
                    {"semantic_start_token_id", c.semantic_begin_id},
                    {"semantic_end_token_id", c.semantic_end_id}, {"dtype", "bfloat16"}};
        return top.dump(2) + "\n";
    }
    // S1-era DualARModelArgs(**config) rejects unknown keys, so the flat layout carries only the
    // fields d3df505 knows: no norm_fastlayer_input (always False there) and no semantic ids (they
    // come from the tokenizer at load).
    json flat = {{"model_type", "dual_ar"}, {"vocab_size", c.vocab_size}, {"n_layer", c.n_layer},
                 {"n_head", c.n_head}, {"n_local_heads", c.n_local_heads}, {"head_dim", c.head_dim},
                 {"dim", c.dim}, {"intermediate_size", c.intermediate_size}, {"rope_base", c.rope_base},
                 {"norm_eps", c.norm_eps}, {"max_seq_len", max_seq_len}, {"dropout", 0.0},
                 {"tie_word_embeddings", c.tie_word_embeddings}, {"attention_qkv_bias", c.attention_qkv_bias},
                 {"attention_o_bias", c.attention_o_bias}, {"attention_qk_norm", c.attention_qk_norm},
                 {"codebook_size", c.codebook_size}, {"num_codebooks", c.num_codebooks},
                 {"scale_codebook_embeddings", c.scale_codebook_embeddings}, {"n_fast_layer", c.n_fast_layer},
                 {"fast_dim", c.fast_dim}, {"fast_n_head", c.fast_n_head},
                 {"fast_n_local_heads", c.fast_n_local_heads}, {"fast_head_dim", c.fast_head_dim},
                 {"fast_intermediate_size", c.fast_intermediate_size},
                 {"fast_attention_qkv_bias", c.fast_attention_qkv_bias},
                 {"fast_attention_qk_norm", c.fast_attention_qk_norm},
                 {"fast_attention_o_bias", c.fast_attention_o_bias}};
    return flat.dump(2) + "\n";
}

void write_model_config(const std::string& path, const DualArConfig& config) {
    const std::string text = model_config_to_json(config);
    AtomicFileWriter out(path);
    out.write(text.data(), text.size());
    out.commit();
}

DualArConfig preset_config(const std::string& preset, ModelLayout layout, int64_t vocab_size) {
    if (vocab_size <= 0) throw ReefError(ErrorCode::InvalidArgument, "preset " + preset + ": vocab_size must be > 0");
    DualArConfig c;
    c.layout = layout;
    c.model_type = layout == ModelLayout::S2 ? "fish_qwen3_omni" : "dual_ar";
    c.vocab_size = vocab_size;
    c.codebook_size = 4096;
    c.num_codebooks = 10;
    c.rope_base = 1e6;
    c.norm_eps = 1e-6;
    c.scale_codebook_embeddings = true;
    c.norm_fastlayer_input = layout == ModelLayout::S2;
    c.tie_word_embeddings = layout == ModelLayout::S2;
    c.attention_qk_norm = true;
    c.fast_attention_qk_norm = false;
    if (preset == "tiny") {
        c.dim = 64, c.n_layer = 2, c.n_head = 4, c.n_local_heads = 2, c.head_dim = 16, c.intermediate_size = 128;
        c.n_fast_layer = 2, c.fast_dim = 64, c.fast_n_head = 4, c.fast_n_local_heads = 2, c.fast_head_dim = 16;
        c.fast_intermediate_size = 128;
        c.max_seq_len = 4096;
    } else if (preset == "s1-mini") {
        c.dim = 1024, c.n_layer = 28, c.n_head = 16, c.n_local_heads = 8, c.head_dim = 128;
        c.intermediate_size = 3072;
        c.n_fast_layer = 4, c.fast_dim = 1024, c.fast_n_head = 16, c.fast_n_local_heads = 8, c.fast_head_dim = 64;
        c.fast_intermediate_size = 3072;
        c.max_seq_len = 8192;
    } else if (preset == "s2-pro") {
        c.dim = 2560, c.n_layer = 36, c.n_head = 32, c.n_local_heads = 8, c.head_dim = 128;
        c.intermediate_size = 9728;
        c.n_fast_layer = 4, c.fast_dim = 2560, c.fast_n_head = 32, c.fast_n_local_heads = 8, c.fast_head_dim = 128;
        c.fast_intermediate_size = 9728;
        c.max_seq_len = 32768;
    } else {
        throw ReefError(ErrorCode::InvalidArgument, "unknown model preset \"" + preset + "\"",
                        "use tiny, s1-mini or s2-pro");
    }
    // Semantic ids at the top of the vocab below two padding rows, as in S2-Pro (151678..155773).
    c.semantic_begin_id = std::max<int64_t>(0, vocab_size - c.codebook_size - 2);
    c.semantic_end_id = std::min<int64_t>(vocab_size - 1, c.semantic_begin_id + c.codebook_size - 1);
    return c;
}

}  // namespace reef
