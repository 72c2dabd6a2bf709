#include "codec/codec_weights.h"

#include <filesystem>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"

namespace reef {
namespace {

constexpr const char* kParamG = ".parametrizations.weight.original0";
constexpr const char* kParamV = ".parametrizations.weight.original1";
constexpr const char* kLegacyG = ".weight_g";
constexpr const char* kLegacyV = ".weight_v";

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string shape_str(at::IntArrayRef s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

// Collects the parameters of one module tree; keeps codec_params() readable.
struct ParamList {
    std::vector<CodecParam> params;

    void add(std::string key, std::vector<int64_t> shape, ParamRole role = ParamRole::Weight,
             WeightNormKind wn = WeightNormKind::None) {
        params.push_back({std::move(key), std::move(shape), wn, role});
    }
    // CausalWNConv1d / CausalWNConvTranspose1d: "<p>.conv.weight" (weight norm) + bias.
    void wn_conv(const std::string& p, std::vector<int64_t> shape, int64_t bias) {
        add(p + ".conv.weight", std::move(shape), ParamRole::Weight, WeightNormKind::Parametrization);
        add(p + ".conv.bias", {bias}, ParamRole::Bias);
    }
    void plain_conv(const std::string& p, std::vector<int64_t> shape, int64_t bias) {
        add(p + ".conv.weight", std::move(shape));
        add(p + ".conv.bias", {bias}, ParamRole::Bias);
    }
    void snake(const std::string& p, int64_t c) { add(p + ".alpha", {1, c, 1}, ParamRole::Alpha); }
    void residual_unit(const std::string& p, int64_t dim) {
        snake(p + ".block.0", dim);
        wn_conv(p + ".block.1", {dim, dim, 7}, dim);
        snake(p + ".block.2", dim);
        wn_conv(p + ".block.3", {dim, dim, 1}, dim);
    }
    void convnext(const std::string& p, int64_t d) {
        plain_conv(p + ".dwconv", {d, 1, 7}, d);
        add(p + ".norm.weight", {d}, ParamRole::Norm);
        add(p + ".norm.bias", {d}, ParamRole::NormBias);
        add(p + ".pwconv1.weight", {4 * d, d});
        add(p + ".pwconv1.bias", {4 * d}, ParamRole::Bias);
        add(p + ".pwconv2.weight", {d, 4 * d});
        add(p + ".pwconv2.bias", {d}, ParamRole::Bias);
        add(p + ".gamma", {d}, ParamRole::Scale);
    }
    void transformer(const std::string& p, int64_t n_layer, int64_t n_head, int64_t head_dim, int64_t dim,
                     int64_t ffn) {
        const int64_t hd = n_head * head_dim;
        for (int64_t l = 0; l < n_layer; ++l) {
            const std::string q = p + ".layers." + std::to_string(l);
            add(q + ".attention.wqkv.weight", {3 * hd, dim});
            add(q + ".attention.wo.weight", {dim, hd});
            add(q + ".feed_forward.w1.weight", {ffn, dim});
            add(q + ".feed_forward.w3.weight", {ffn, dim});
            add(q + ".feed_forward.w2.weight", {dim, ffn});
            add(q + ".attention_norm.weight", {dim}, ParamRole::Norm);
            add(q + ".ffn_norm.weight", {dim}, ParamRole::Norm);
            add(q + ".attention_layer_scale.gamma", {dim}, ParamRole::Scale);
            add(q + ".ffn_layer_scale.gamma", {dim}, ParamRole::Scale);
        }
        add(p + ".norm.weight", {dim}, ParamRole::Norm);
    }
    void vq(const std::string& p, int64_t input_dim, int64_t codebook_size, int64_t codebook_dim) {
        add(p + ".in_proj.weight", {codebook_dim, input_dim, 1}, ParamRole::Weight, WeightNormKind::Legacy);
        add(p + ".in_proj.bias", {codebook_dim}, ParamRole::Bias);
        add(p + ".out_proj.weight", {input_dim, codebook_dim, 1}, ParamRole::Weight, WeightNormKind::Legacy);
        add(p + ".out_proj.bias", {input_dim}, ParamRole::Bias);
        add(p + ".codebook.weight", {codebook_size, codebook_dim}, ParamRole::Codebook);
    }
};

void add_encoder(ParamList& l, const CodecConfig& c) {
    const std::string p = "encoder.block.";
    l.wn_conv(p + "0", {c.encoder_dim, 1, 7}, c.encoder_dim);
    for (size_t i = 0; i < c.encoder_rates.size(); ++i) {
        const int64_t d = c.encoder_block_dim(i), h = d / 2, s = c.encoder_rates[i];
        const std::string b = p + std::to_string(i + 1) + ".block.";
        for (int j = 0; j < 3; ++j) l.residual_unit(b + std::to_string(j), h);
        l.snake(b + "3", h);
        l.wn_conv(b + "4", {d, h, 2 * s}, d);
        if (c.encoder_transformer_layers[i] > 0)
            l.transformer(b + "5", c.encoder_transformer_layers[i], d / 64, c.transformer_head_dim, d, 3 * d);
    }
    const size_t n = c.encoder_rates.size();
    const int64_t d = c.encoder_block_dim(n - 1);
    l.snake(p + std::to_string(n + 1), d);
    l.wn_conv(p + std::to_string(n + 2), {c.latent_dim(), d, 3}, c.latent_dim());
}

void add_quantizer(ParamList& l, const CodecConfig& c) {
    const int64_t d = c.latent_dim();
    l.vq("quantizer.semantic_quantizer.quantizers.0", d, c.semantic_codebook_size, c.codebook_dim);
    for (int64_t i = 0; i < c.n_codebooks; ++i)
        l.vq("quantizer.quantizer.quantizers." + std::to_string(i), d, c.codebook_size, c.codebook_dim);
    for (size_t i = 0; i < c.downsample_factor.size(); ++i) {
        const std::string s = std::to_string(i);
        l.plain_conv("quantizer.downsample." + s + ".0", {d, d, c.downsample_factor[i]}, d);
        l.convnext("quantizer.downsample." + s + ".1", d);
        // upsample.i undoes downsample stage (n-1-i); ConvTranspose1d weight is (in, out, k).
        const int64_t f = c.downsample_factor[c.downsample_factor.size() - 1 - i];
        l.plain_conv("quantizer.upsample." + s + ".0", {d, d, f}, d);
        l.convnext("quantizer.upsample." + s + ".1", d);
    }
    const auto& m = c.quantizer_module;
    for (const char* name : {"quantizer.pre_module", "quantizer.post_module"})
        l.transformer(name, m.n_layer, m.n_head, m.head_dim, m.dim, m.intermediate_size);
}

void add_decoder(ParamList& l, const CodecConfig& c) {
    const std::string p = "decoder.model.";
    l.wn_conv(p + "0", {c.decoder_dim, c.latent_dim(), 7}, c.decoder_dim);
    for (size_t i = 0; i < c.decoder_rates.size(); ++i) {
        const int64_t in = c.decoder_block_in(i), out = c.decoder_block_out(i), s = c.decoder_rates[i];
        const std::string b = p + std::to_string(i + 1) + ".block.";
        l.snake(b + "0", in);
        l.wn_conv(b + "1", {in, out, 2 * s}, out);
        for (int j = 0; j < 3; ++j) l.residual_unit(b + std::to_string(j + 2), out);
    }
    const size_t n = c.decoder_rates.size();
    const int64_t out = c.decoder_block_out(n - 1);
    l.snake(p + std::to_string(n + 1), out);
    l.wn_conv(p + std::to_string(n + 2), {1, out, 7}, 1);
}

// W = v * (g / ||v||) with the norm over every dim but 0, as torch._weight_norm(v, g, 0).
at::Tensor fuse(const at::Tensor& g, const at::Tensor& v, const std::string& what, const std::string& key) {
    if (v.dim() < 2 || g.numel() != v.size(0) || g.size(0) != v.size(0))
        throw ReefError(ErrorCode::ShapeMismatch, what + ": weight norm of " + key + ": g " + shape_str(g.sizes()) +
                                                      " does not match v " + shape_str(v.sizes()) +
                                                      " (g must be (v.size(0), 1, ...))");
    const auto vf = v.to(at::kFloat);
    std::vector<int64_t> dims;
    for (int64_t d = 1; d < v.dim(); ++d) dims.push_back(d);
    const auto norm = at::linalg_vector_norm(vf, 2, dims, /*keepdim=*/true);
    return vf * (g.to(at::kFloat).reshape(norm.sizes()) / norm);
}

}  // namespace

std::vector<CodecParam> codec_params(const CodecConfig& config) {
    ParamList l;
    add_encoder(l, config);
    add_quantizer(l, config);
    add_decoder(l, config);
    return std::move(l.params);
}

ExpectedShapes codec_expected_shapes(const CodecConfig& config) {
    ExpectedShapes out;
    for (const auto& p : codec_params(config)) out[p.key] = p.shape;
    return out;
}

std::string weight_norm_g_key(const std::string& fused_key, WeightNormKind kind) {
    REEF_CHECK(ends_with(fused_key, ".weight") && kind != WeightNormKind::None, "not a weight-norm key: " + fused_key);
    const std::string base = fused_key.substr(0, fused_key.size() - 7);
    return base + (kind == WeightNormKind::Parametrization ? kParamG : kLegacyG);
}

std::string weight_norm_v_key(const std::string& fused_key, WeightNormKind kind) {
    REEF_CHECK(ends_with(fused_key, ".weight") && kind != WeightNormKind::None, "not a weight-norm key: " + fused_key);
    const std::string base = fused_key.substr(0, fused_key.size() - 7);
    return base + (kind == WeightNormKind::Parametrization ? kParamV : kLegacyV);
}

TensorMap prepare_codec_state_dict(TensorMap raw, const std::string& what, const ExpectedShapes* expected) {
    // 1. Optional {"state_dict": {...}} wrapper (load_pth flattens it to "state_dict.<key>").
    bool wrapped = false;
    for (const auto& [k, t] : raw) wrapped = wrapped || starts_with(k, "state_dict.");
    if (wrapped) {
        TensorMap inner;
        for (auto& [k, t] : raw)
            if (starts_with(k, "state_dict.")) inner.emplace(k.substr(11), t);
        raw = std::move(inner);
    }
    // 2. A training checkpoint holds generator.* and discriminator.* keys: keep the generator.
    bool generator = false;
    for (const auto& [k, t] : raw) generator = generator || k.find("generator.") != std::string::npos;
    if (generator) {
        TensorMap inner;
        for (auto& [k, t] : raw) {
            const auto pos = k.find("generator.");
            if (pos != std::string::npos) inner.emplace(k.substr(0, pos) + k.substr(pos + 10), t);
        }
        raw = std::move(inner);
    }
    // 3. Fuse weight norm (both encodings); everything else passes through. A fused weight wins
    //    over a stray plain "<base>.weight" of the same module.
    TensorMap out;
    const std::pair<std::string, std::string> encodings[] = {{kParamG, kParamV}, {kLegacyG, kLegacyV}};
    auto fuse_if_weight_norm = [&](const std::string& k, const at::Tensor& t) {
        for (const auto& [g_suffix, v_suffix] : encodings) {
            const bool is_g = ends_with(k, g_suffix);
            if (!is_g && !ends_with(k, v_suffix)) continue;
            const std::string base = k.substr(0, k.size() - (is_g ? g_suffix : v_suffix).size());
            const std::string other = base + (is_g ? v_suffix : g_suffix);
            auto it = raw.find(other);
            if (it == raw.end())
                throw ReefError(ErrorCode::CorruptModel, what + ": weight-norm tensor " + k + " has no partner " + other);
            if (!is_g) return true;
            const std::string key = base + ".weight";
            if (expected) {
                const auto want = expected->find(key);
                if (want == expected->end()) return true;  // not part of this model: never materialised
                const at::Tensor& v = it->second;
                if (v.sizes() != at::IntArrayRef(want->second))
                    throw ReefError(ErrorCode::ShapeMismatch, what + ": weight norm of " + key + ": v " +
                                                                  shape_str(v.sizes()) + " does not match the expected " +
                                                                  shape_str(want->second));
            }
            out[key] = fuse(t, it->second, what, key);
            return true;
        }
        return false;
    };
    for (const auto& [k, t] : raw) {
        if (!fuse_if_weight_norm(k, t) && out.count(k) == 0) out[k] = t;
    }
    return out;
}

std::string find_codec_file(const std::string& model_dir) {
    namespace fs = std::filesystem;
    if (fs::is_regular_file(model_dir)) return model_dir;
    for (const char* name : {"codec.pth", "codec.safetensors"}) {
        const auto p = fs::path(model_dir) / name;
        if (fs::exists(p)) return p.string();
    }
    throw ReefError(ErrorCode::ModelNotFound, "no codec.pth or codec.safetensors in " + model_dir,
                    "the model folder needs the codec weights (codec.pth) beside the LM weights");
}

TensorMap read_codec_file(const std::string& path, const std::function<bool(const std::string&)>& keep) {
    if (!std::filesystem::exists(path)) throw ReefError(ErrorCode::ModelNotFound, "codec weights not found: " + path);
    if (!ends_with(path, ".safetensors")) return load_pth(path, keep);
    // convolution weights: libtorch reads them in its own layout, weight memory gains nothing here;
    // views of the mapping, so a tensor left out is never read
    TensorMap all = load_safetensors(path, TensorHome::Mapping);
    if (keep) std::erase_if(all, [&](const auto& kv) { return !keep(kv.first); });
    return all;
}

std::string codec_group(const std::string& key) {
    // past a wrapper ("state_dict.", "generator."): from the first part naming a codec module
    size_t begin = std::string::npos;
    for (const char* part : {"encoder.", "decoder.", "quantizer."}) {
        const size_t at = starts_with(key, part) ? 0 : key.find(std::string(".") + part);
        if (at != std::string::npos) begin = std::min(begin, at == 0 && starts_with(key, part) ? 0 : at + 1);
    }
    if (begin == std::string::npos) begin = 0;
    const std::string name = key.substr(begin);
    size_t end = 0;
    while (true) {   // up to the first all-digit part (the block's number), else all but the last part
        const size_t dot = name.find('.', end);
        if (dot == std::string::npos) return name.substr(0, end ? end - 1 : name.size());
        const std::string piece = name.substr(end, dot - end);
        if (end > 0 && !piece.empty() && piece.find_first_not_of("0123456789") == std::string::npos)
            return name.substr(0, dot);
        end = dot + 1;
    }
}

bool codec_encode_only(const std::string& key) {
    // a {"state_dict": ...} or "generator." wrapper may prefix the stored names
    for (const char* part : {"encoder.", "quantizer.pre_module.", "quantizer.downsample."})
        if (starts_with(key, part) || key.find(std::string(".") + part) != std::string::npos) return true;
    return false;
}

}  // namespace reef
