#include "text2semantic/model_weights.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "checkpoint/verify.h"

namespace reef {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

void add_block(ExpectedShapes& out, const std::string& p, int64_t dim, int64_t n_head, int64_t n_local, int64_t hd,
               int64_t inter, bool qkv_bias, bool o_bias, bool qk_norm) {
    const int64_t qkv = (n_head + 2 * n_local) * hd;
    out[p + "attention.wqkv.weight"] = {qkv, dim};
    if (qkv_bias) out[p + "attention.wqkv.bias"] = {qkv};
    out[p + "attention.wo.weight"] = {dim, n_head * hd};
    if (o_bias) out[p + "attention.wo.bias"] = {dim};
    if (qk_norm) {
        out[p + "attention.q_norm.weight"] = {hd};
        out[p + "attention.k_norm.weight"] = {hd};
    }
    out[p + "attention_norm.weight"] = {dim};
    out[p + "ffn_norm.weight"] = {dim};
    out[p + "feed_forward.w1.weight"] = {inter, dim};
    out[p + "feed_forward.w3.weight"] = {inter, dim};
    out[p + "feed_forward.w2.weight"] = {dim, inter};
}

}  // namespace

ExpectedShapes expected_shapes(const DualArConfig& c) {
    ExpectedShapes out;
    out["embeddings.weight"] = {c.vocab_size, c.dim};
    out["codebook_embeddings.weight"] = {c.codebook_size * c.num_codebooks, c.dim};
    for (int64_t i = 0; i < c.n_layer; ++i)
        add_block(out, "layers." + std::to_string(i) + ".", c.dim, c.n_head, c.n_local_heads, c.head_dim,
                  c.intermediate_size, c.attention_qkv_bias, c.attention_o_bias, c.attention_qk_norm);
    out["norm.weight"] = {c.dim};
    if (!c.tie_word_embeddings) out["output.weight"] = {c.vocab_size, c.dim};
    if (c.has_fast_project_in()) {
        out["fast_project_in.weight"] = {c.fast_dim, c.dim};
        out["fast_project_in.bias"] = {c.fast_dim};
    }
    out["fast_embeddings.weight"] = {c.codebook_size, c.fast_dim};
    for (int64_t i = 0; i < c.n_fast_layer; ++i)
        add_block(out, "fast_layers." + std::to_string(i) + ".", c.fast_dim, c.fast_n_head, c.fast_n_local_heads,
                  c.fast_head_dim, c.fast_intermediate_size, c.fast_attention_qkv_bias, c.fast_attention_o_bias,
                  c.fast_attention_qk_norm);
    out["fast_norm.weight"] = {c.fast_dim};
    out["fast_output.weight"] = {c.codebook_size, c.fast_dim};
    return out;
}

std::vector<std::string> linear_weight_keys(const DualArConfig& c) {
    std::vector<std::string> out;
    for (const auto& [key, shape] : expected_shapes(c))
        if (shape.size() == 2 && key.find("embeddings.") == std::string::npos) out.push_back(key);
    return out;
}

std::vector<std::string> embedding_table_keys() { return {"embeddings.weight", "codebook_embeddings.weight"}; }

ExpectedShapes expected_shapes_for(const DualArConfig& c, const TensorMap& weights) {
    ExpectedShapes out = expected_shapes(c);
    std::vector<std::string> linears = linear_weight_keys(c);
    for (const std::string& key : embedding_table_keys()) linears.push_back(key);
    auto dtype_of = [&](const std::string& key) {
        const auto it = weights.find(key);
        return it != weights.end() && it->second.defined() ? it->second.scalar_type() : at::ScalarType::Undefined;
    };
    for (const std::string& key : linears) {
        const std::string stem = key.substr(0, key.size() - 7);  // "x" of "x.weight"
        const at::ScalarType dtype = dtype_of(key);
        if (dtype == at::kChar) {
            if (!weights.count(stem + ".scales"))
                throw ReefError(ErrorCode::ShapeMismatch,
                                "text2semantic weights: " + key + " is int8 but " + stem + ".scales is missing",
                                "an int8 checkpoint stores one scale per output row beside each weight (quantize.py)");
            out[stem + ".scales"] = {out[key].at(0)};
        } else if (dtype == at::kByte) {
            // int4, two weights a byte: [N, K/2], scales and zeros [N, K/group] (nn/linear.h); the
            // group is the file's (scales' second dim), checked to split K by make_linear
            const auto scales = weights.find(stem + ".scales");
            if (scales == weights.end() || !weights.count(stem + ".zeros"))
                throw ReefError(ErrorCode::ShapeMismatch,
                                "text2semantic weights: " + key + " is int4 (packed uint8) but " + stem +
                                    (scales == weights.end() ? ".scales" : ".zeros") + " is missing",
                                "an int4 model stores a bf16 scale and zero per group of weights (reef-cli quantize --format int4)");
            const int64_t n = out[key].at(0), k = out[key].at(1);
            if (k % 2)
                throw ReefError(ErrorCode::ShapeMismatch, "text2semantic weights: " + key + " cannot be int4: " +
                                                              std::to_string(k) + " inputs do not pack two a byte");
            const int64_t groups = scales->second.dim() == 2 ? scales->second.size(1) : std::max<int64_t>(1, k / 128);
            out[key] = {n, k / 2};
            out[stem + ".scales"] = {n, groups};
            out[stem + ".zeros"] = {n, groups};
        }
    }
    for (const auto& [key, t] : weights) {
        if (key.find("scales_and_zeros") != std::string::npos)
            throw ReefError(ErrorCode::ShapeMismatch,
                            "text2semantic weights: " + key + " is fish-speech's int4 pack (quantize.py --mode int4), "
                            "whose tiles are laid out for one CUDA kernel and cannot be read faithfully on another device",
                            "quantize the bf16 model instead: reef-cli quantize MODEL OUT --format int4 (the same "
                            "arithmetic in a layout for every device) or --format int8 (or quantize.py --mode int8)");
        if (t.defined() && t.scalar_type() == at::kChar && out.count(key) && !key.ends_with(".weight"))
            throw ReefError(ErrorCode::ShapeMismatch, "text2semantic weights: " + key + " is int8, but only the linear projections and the embedding tables can be quantized");
        if (t.defined() && t.scalar_type() == at::kChar && key.ends_with(".weight") && out.count(key) &&
            !out.count(key.substr(0, key.size() - 6) + "scales"))
            throw ReefError(ErrorCode::ShapeMismatch, "text2semantic weights: " + key +
                                                          " is int8, but only the linear projections and the embedding tables can be quantized");
        const std::string stem = key.substr(0, key.size() - std::min<size_t>(key.size(), 7));  // "x" of "x.scales"
        if (key.ends_with(".scales") && !out.count(key) && out.count(stem + ".weight"))
            throw ReefError(ErrorCode::ShapeMismatch,
                            "text2semantic weights: " + key + " is present but " + stem + ".weight is not int8 or int4");
        const std::string zstem = key.substr(0, key.size() - std::min<size_t>(key.size(), 6));  // "x" of "x.zeros"
        if (key.ends_with(".zeros") && !out.count(key) && out.count(zstem + ".weight"))
            throw ReefError(ErrorCode::ShapeMismatch,
                            "text2semantic weights: " + key + " is present but " + zstem + ".weight is not int4 (packed uint8)");
        if (t.defined() && t.scalar_type() == at::kByte && key.ends_with(".weight") && !out.count(stem + ".zeros"))
            throw ReefError(ErrorCode::ShapeMismatch, "text2semantic weights: " + key +
                                                          " is uint8 (int4), but only the linear projections and the embedding tables can be quantized");
    }
    return out;
}

std::string WeightFormat::name() const {
    if (bits == 8) return "int8";
    if (bits == 4) return "int4-g" + std::to_string(group);
    return "";
}

uint64_t model_weight_bytes(const DualArConfig& c, at::ScalarType dtype, WeightFormat format) {
    ExpectedShapes floats = expected_shapes(c), bytes;
    std::vector<std::string> keys = linear_weight_keys(c);
    if (format.embeddings)
        for (const std::string& key : embedding_table_keys()) keys.push_back(key);
    if (format.bits)
        for (const std::string& key : keys) {
            const int64_t n = floats[key].at(0), k = floats[key].at(1);
            if (format.bits == 8) {
                bytes[key] = floats[key];
                bytes[key + ".scales"] = {n, 4};  // fp32 scales
            } else {
                const int64_t groups = format.group > 0 ? (k + format.group - 1) / format.group : k;
                bytes[key] = {n, (k + 1) / 2};
                bytes[key + ".scales"] = {n, 2 * 2 * groups};  // bf16 scales and zeros
            }
            floats.erase(key);
        }
    const uint64_t a = expected_bytes(floats, dtype), b = expected_bytes(bytes, at::kChar);
    return a > ~uint64_t(0) - b ? ~uint64_t(0) : a + b;
}

uint64_t model_load_bytes(const DualArConfig& c, at::ScalarType dtype, WeightFormat format) {
    const uint64_t rope = uint64_t(c.max_seq_len) * uint64_t(c.head_dim) * sizeof(float);
    const uint64_t weights = model_weight_bytes(c, dtype, format);
    return weights > ~uint64_t(0) - rope ? ~uint64_t(0) : weights + rope;
}

WeightFormat folder_weight_format(const std::string& model_dir) {
    namespace fs = std::filesystem;
    const fs::path dir(model_dir);
    if (fs::is_regular_file(dir / "quantization.json")) {
        std::ifstream in(dir / "quantization.json");
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        WeightFormat f;
        if (j.is_object() && j.value("format", "") == "int8") f = WeightFormat::int8();
        if (j.is_object() && j.value("format", "") == "int4") {
            const auto g = j.find("group");
            f = WeightFormat::int4(g != j.end() && g->is_number_integer() ? g->get<int64_t>() : 128);
        }
        if (f.bits) {
            const auto e = j.find("embeddings");
            f.embeddings = e != j.end() && e->is_boolean() && e->get<bool>();
            return f;
        }
    }
    fs::path norm = fs::absolute(dir).lexically_normal();
    if (norm.filename().empty()) norm = norm.parent_path();  // "dir/"
    return norm.filename().string().find("int8") != std::string::npos ? WeightFormat::int8() : WeightFormat{};
}

TensorMap remap_fish_qwen3_omni_keys(TensorMap weights) {
    bool hf = false;
    for (const auto& [k, v] : weights) hf = hf || starts_with(k, "text_model.") || starts_with(k, "audio_decoder.");
    if (!hf) return weights;
    TensorMap out;
    for (auto& [k, v] : weights) {
        std::string key = k;
        if (starts_with(k, "text_model.model.")) {
            key = k.substr(std::string("text_model.model.").size());
        } else if (starts_with(k, "audio_decoder.")) {
            const std::string suffix = k.substr(std::string("audio_decoder.").size());
            key = starts_with(suffix, "codebook_embeddings.") ? suffix : "fast_" + suffix;
        }
        out[key] = std::move(v);
    }
    return out;
}

TensorMap to_fish_qwen3_omni_keys(const TensorMap& weights) {
    TensorMap out;
    for (const auto& [k, v] : weights) {
        if (starts_with(k, "codebook_embeddings."))
            out["audio_decoder." + k] = v;
        else if (starts_with(k, "fast_"))
            out["audio_decoder." + k.substr(5)] = v;
        else
            out["text_model.model." + k] = v;
    }
    return out;
}

TensorMap normalize_pth_keys(TensorMap weights) {
    // load_pth flattens a {"state_dict": {...}} wrapper to "state_dict.<key>".
    bool wrapped = false;
    for (const auto& [k, v] : weights) wrapped = wrapped || starts_with(k, "state_dict.");
    if (wrapped) {
        TensorMap inner;
        for (auto& [k, v] : weights)
            if (starts_with(k, "state_dict.")) inner[k.substr(11)] = std::move(v);
        weights = std::move(inner);
    }
    bool prefixed = !weights.empty();
    for (const auto& [k, v] : weights) prefixed = prefixed && starts_with(k, "model.");
    TensorMap out;
    for (auto& [k, v] : weights) {
        std::string key = k;
        if (prefixed)  // Python's k.replace("model.", ""): every occurrence
            for (size_t pos; (pos = key.find("model.")) != std::string::npos;) key.erase(pos, 6);
        if (key.find("audio_") != std::string::npos) continue;
        out[key] = std::move(v);
    }
    return out;
}

void merge_split_qkv(TensorMap& weights, const ExpectedShapes* expected) {
    std::vector<std::string> prefixes;
    for (const auto& [k, v] : weights) {
        const auto pos = k.rfind("wq.weight");
        if (pos != std::string::npos && pos + 9 == k.size()) prefixes.push_back(k.substr(0, pos));
    }
    for (const auto& p : prefixes) {
        auto q = weights.find(p + "wq.weight"), k = weights.find(p + "wk.weight"), v = weights.find(p + "wv.weight");
        if (k == weights.end() || v == weights.end())
            throw ReefError(ErrorCode::ShapeMismatch, p + "wq.weight present without " + p + "wk/wv.weight");
        if (expected) {
            const auto want = expected->find(p + "wqkv.weight");
            if (want == expected->end()) continue;  // not part of this model: left out, never copied
            const auto& shape = want->second;
            const at::Tensor& tq = q->second;
            const at::Tensor& tk = k->second;
            const at::Tensor& tv = v->second;
            const bool ok = shape.size() == 2 && tq.dim() == 2 && tk.dim() == 2 && tv.dim() == 2 &&
                            tq.size(1) == shape[1] && tk.size(1) == shape[1] && tv.size(1) == shape[1] &&
                            tq.size(0) + tk.size(0) + tv.size(0) == shape[0];
            if (!ok)
                throw ReefError(ErrorCode::ShapeMismatch,
                                "text2semantic weights: " + p + "wq/wk/wv.weight " + std::string(c10::str(tq.sizes())) +
                                    " / " + c10::str(tk.sizes()) + " / " + c10::str(tv.sizes()) +
                                    " do not add up to the expected wqkv.weight [" + std::to_string(shape[0]) + ", " +
                                    std::to_string(shape.size() > 1 ? shape[1] : 0) + "]");
        }
        weights[p + "wqkv.weight"] = at::cat({q->second, k->second, v->second}, 0);
        weights.erase(p + "wq.weight");
        weights.erase(p + "wk.weight");
        weights.erase(p + "wv.weight");
    }
}

TensorMap read_text2semantic_weights(const std::string& model_dir, std::string* source, const ExpectedShapes* expected,
                                     TensorHome home) {
    namespace fs = std::filesystem;
    const fs::path dir(model_dir);
    TensorMap weights;
    std::string file;
    if (fs::exists(dir / "model.pth") && folder_says_int8(model_dir)) {
        file = (dir / "model.pth").string();
        weights = normalize_pth_keys(load_pth(file));
    } else if (fs::exists(dir / "model.safetensors.index.json")) {
        file = (dir / "model.safetensors.index.json").string();
        weights = remap_fish_qwen3_omni_keys(load_safetensors_index(file, home));
    } else if (fs::exists(dir / "model.safetensors")) {
        file = (dir / "model.safetensors").string();
        weights = remap_fish_qwen3_omni_keys(load_safetensors(file, home));
    } else if (fs::exists(dir / "model.pth")) {
        file = (dir / "model.pth").string();
        weights = normalize_pth_keys(load_pth(file));
    } else {
        throw ReefError(ErrorCode::ModelNotFound,
                        model_dir + ": no model weights (model.safetensors.index.json, model.safetensors or model.pth)",
                        "choose a fish-speech model folder or create a demo model");
    }
    merge_split_qkv(weights, expected);
    if (source) *source = file;
    return weights;
}

}  // namespace reef
