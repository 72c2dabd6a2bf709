#include "codec/codec_config.h"

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

int64_t product(const std::vector<int64_t>& v) {
    int64_t p = 1;
    for (int64_t x : v) p *= x;
    return p;
}

[[noreturn]] void bad_config(const std::string& what, const std::string& why) {
    throw ReefError(ErrorCode::CorruptModel, what + ": invalid codec config: " + why);
}

std::string list(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

nlohmann::json module_to_json(const CodecTransformerConfig& m) {
    return {{"n_layer", m.n_layer},     {"n_head", m.n_head},
            {"dim", m.dim},             {"intermediate_size", m.intermediate_size},
            {"head_dim", m.head_dim},   {"rope_base", m.rope_base},
            {"norm_eps", m.norm_eps},   {"window_size", m.window_size}};
}

// Typed readers: nlohmann's get<int64_t>() on 1e300 or on a float is an unchecked cast, so
// integers must be JSON integers and numbers must be finite.
void read(const nlohmann::json& j, const char* key, int64_t& out) {
    if (!j.contains(key)) return;
    const auto& v = j.at(key);
    if (!v.is_number_integer())
        throw nlohmann::json::type_error::create(302, std::string(key) + " must be an integer, got " + v.dump(), &v);
    out = v.get<int64_t>();
}
void read(const nlohmann::json& j, const char* key, double& out) {
    if (!j.contains(key)) return;
    const auto& v = j.at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw nlohmann::json::type_error::create(302, std::string(key) + " must be a finite number, got " + v.dump(), &v);
    out = v.get<double>();
}
void read(const nlohmann::json& j, const char* key, std::string& out) {
    if (j.contains(key)) out = j.at(key).get<std::string>();
}
void read(const nlohmann::json& j, const char* key, std::vector<int64_t>& out) {
    if (!j.contains(key)) return;
    const auto& v = j.at(key);
    if (!v.is_array() || v.size() > size_t(limits::kMaxCodecBlocks))
        throw nlohmann::json::type_error::create(302, std::string(key) + " must be a list of at most " +
                                                          std::to_string(limits::kMaxCodecBlocks) + " integers", &v);
    out.clear();
    for (const auto& x : v) {
        if (!x.is_number_integer())
            throw nlohmann::json::type_error::create(302, std::string(key) + " must hold integers, got " + x.dump(), &v);
        out.push_back(x.get<int64_t>());
    }
}

// One bounds rule: `value` of `field` must lie in [lo, hi].
void in_range(const std::string& what, const std::string& field, int64_t value, int64_t lo, int64_t hi) {
    if (value < lo || value > hi)
        bad_config(what, field + " is " + std::to_string(value) + "; it must be between " + std::to_string(lo) +
                             " and " + std::to_string(hi));
}

void list_in_range(const std::string& what, const std::string& field, const std::vector<int64_t>& v, int64_t lo,
                   int64_t hi) {
    if (v.size() > size_t(limits::kMaxCodecBlocks))
        bad_config(what, field + " has " + std::to_string(v.size()) + " entries, more than " +
                             std::to_string(limits::kMaxCodecBlocks));
    for (size_t i = 0; i < v.size(); ++i) in_range(what, field + "[" + std::to_string(i) + "]", v[i], lo, hi);
}

// The numbers every product, shift and division below relies on: checked first, so a rate of 0
// (a division by zero: SIGFPE, which nothing can catch) or 2^40 never reaches them.
void validate_bounds(const CodecConfig& c, const std::string& what) {
    using namespace limits;
    in_range(what, "sample_rate", c.sample_rate, kMinSampleRate, kMaxSampleRate);
    in_range(what, "encoder_dim", c.encoder_dim, 1, kMaxDim);
    in_range(what, "decoder_dim", c.decoder_dim, 1, kMaxDim);
    if (c.encoder_rates.empty() || c.decoder_rates.empty()) bad_config(what, "encoder_rates and decoder_rates must not be empty");
    list_in_range(what, "encoder_rates", c.encoder_rates, 1, kMaxCodecRate);
    list_in_range(what, "decoder_rates", c.decoder_rates, 1, kMaxCodecRate);
    list_in_range(what, "encoder_transformer_layers", c.encoder_transformer_layers, 0, kMaxLayers);
    list_in_range(what, "quantizer.downsample_factor", c.downsample_factor, 1, 4);
    int64_t hop = 1;
    for (int64_t r : c.encoder_rates) {
        hop *= r;  // <= 64^16 cannot overflow before the check trips: checked each step
        if (hop > kMaxCodecHop)
            bad_config(what, "prod(encoder_rates) " + list(c.encoder_rates) + " exceeds " + std::to_string(kMaxCodecHop));
    }
    if ((c.encoder_dim << c.encoder_rates.size()) > kMaxDim)
        bad_config(what, "the latent dim encoder_dim * 2^len(encoder_rates) exceeds " + std::to_string(kMaxDim));
    in_range(what, "transformer_general_config.head_dim", c.transformer_head_dim, 2, kMaxHeadDim);
    in_range(what, "encoder_window", c.encoder_window, 1, kMaxCodecWindow);
    const auto& m = c.quantizer_module;
    in_range(what, "quantizer.module.n_layer", m.n_layer, 0, kMaxLayers);
    in_range(what, "quantizer.module.n_head", m.n_head, 1, kMaxHeads);
    in_range(what, "quantizer.module.dim", m.dim, 1, kMaxDim);
    in_range(what, "quantizer.module.intermediate_size", m.intermediate_size, 1, kMaxIntermediate);
    in_range(what, "quantizer.module.head_dim", m.head_dim, 2, kMaxHeadDim);
    in_range(what, "quantizer.module.window_size", m.window_size, 1, kMaxCodecWindow);
    in_range(what, "quantizer.n_codebooks", c.n_codebooks, 1, kMaxCodebooks);
    in_range(what, "quantizer.codebook_size", c.codebook_size, 1, kMaxCodebookSize);
    in_range(what, "quantizer.codebook_dim", c.codebook_dim, 1, kMaxDim);
    in_range(what, "quantizer.semantic_codebook_size", c.semantic_codebook_size, 1, kMaxCodebookSize);
    for (const auto& [field, x] : {std::pair<const char*, double>{"rope_base", m.rope_base},
                                   {"transformer_general_config.rope_base", c.transformer_rope_base}})
        if (!(x > 1.0 && x <= kMaxRopeBase)) bad_config(what, std::string(field) + " must be in (1, 1e12]");
    for (const auto& [field, x] : {std::pair<const char*, double>{"norm_eps", m.norm_eps},
                                   {"transformer_general_config.norm_eps", c.transformer_norm_eps}})
        if (!(x > 0.0 && x < 1.0)) bad_config(what, std::string(field) + " must be in (0, 1)");
}

CodecTransformerConfig module_from_json(const nlohmann::json& j) {
    CodecTransformerConfig m;
    read(j, "n_layer", m.n_layer);
    read(j, "n_head", m.n_head);
    read(j, "dim", m.dim);
    read(j, "intermediate_size", m.intermediate_size);
    read(j, "head_dim", m.head_dim);
    read(j, "rope_base", m.rope_base);
    read(j, "norm_eps", m.norm_eps);
    read(j, "window_size", m.window_size);
    return m;
}

}  // namespace

int64_t CodecConfig::latent_dim() const { return encoder_dim << encoder_rates.size(); }
int64_t CodecConfig::hop_length() const { return product(encoder_rates); }
int64_t CodecConfig::frame_length() const { return hop_length() * product(downsample_factor); }
int64_t CodecConfig::n_total_codebooks() const { return 1 + n_codebooks; }
int64_t CodecConfig::encoder_block_dim(size_t i) const { return encoder_dim << (i + 1); }
int64_t CodecConfig::decoder_block_in(size_t i) const { return decoder_dim >> i; }
int64_t CodecConfig::decoder_block_out(size_t i) const { return decoder_dim >> (i + 1); }

void CodecConfig::validate(const std::string& what) const {
    validate_bounds(*this, what);
    if (encoder_dim <= 0 || decoder_dim <= 0 || encoder_rates.empty() || decoder_rates.empty())
        bad_config(what, "encoder_dim, decoder_dim and the rate lists must be positive/non-empty");
    if (encoder_transformer_layers.size() != encoder_rates.size())
        bad_config(what, "encoder_transformer_layers " + list(encoder_transformer_layers) +
                             " must have one entry per encoder rate " + list(encoder_rates));
    if (hop_length() != product(decoder_rates))
        bad_config(what, "prod(decoder_rates) " + list(decoder_rates) + " != prod(encoder_rates) " +
                             list(encoder_rates) + "; the PCM length would not be frame_length * T");
    // fish-speech hard-codes frame_length = hop * 4 (reference-run §3.10).
    if (product(downsample_factor) != 4)
        bad_config(what, "prod(downsample_factor) " + list(downsample_factor) + " must be 4");
    if ((decoder_dim >> decoder_rates.size()) <= 0 || (decoder_dim % (int64_t(1) << decoder_rates.size())) != 0)
        bad_config(what, "decoder_dim " + std::to_string(decoder_dim) + " must be divisible by 2^" +
                             std::to_string(decoder_rates.size()));
    for (size_t i = 0; i < encoder_transformer_layers.size(); ++i) {
        const int64_t d = encoder_block_dim(i);
        if (encoder_transformer_layers[i] > 0 && (d % 64 != 0 || (d / 64) * transformer_head_dim != d))
            bad_config(what, "encoder block " + std::to_string(i) + " has a transformer at dim " +
                                 std::to_string(d) + ", which needs n_head = dim/64 heads of head_dim " +
                                 std::to_string(transformer_head_dim) + " to cover dim");
    }
    const auto& m = quantizer_module;
    if (m.dim != latent_dim())
        bad_config(what, "quantizer module dim " + std::to_string(m.dim) + " must equal the latent dim " +
                             std::to_string(latent_dim()) + " (input_proj/output_proj are Identity)");
    if (m.n_head <= 0 || m.n_head * m.head_dim != m.dim)
        bad_config(what, "quantizer module n_head * head_dim must equal dim " + std::to_string(m.dim));
    if (m.head_dim % 2 != 0 || transformer_head_dim % 2 != 0) bad_config(what, "head_dim must be even (RoPE pairs)");
    if (m.window_size <= 0 || encoder_window <= 0) bad_config(what, "window sizes must be positive");
    if (n_codebooks <= 0 || codebook_size <= 0 || codebook_dim <= 0 || semantic_codebook_size <= 0)
        bad_config(what, "codebook sizes must be positive");
}

CodecConfig codec_preset(const std::string& name) {
    CodecConfig c;
    if (name == "default" || name == "s1-mini" || name == "s2-pro") {
        c.preset = name;  // S1-mini and S2-Pro ship the same codec architecture (spec §5.6)
        return c;
    }
    if (name == "tiny") {
        // Keeps the framing (44.1 kHz, 512 hop, 2048 samples per frame) and the codebook sizes the
        // LM emits, shrinks every width. Latent 64 = one encoder-transformer head of 64.
        c.preset = "tiny";
        c.encoder_dim = 4;
        c.decoder_dim = 64;
        c.encoder_transformer_layers = {0, 0, 0, 1};
        c.quantizer_module = CodecTransformerConfig{2, 2, 64, 192, 32, 10000.0, 1e-5, 128};
        return c;
    }
    throw ReefError(ErrorCode::InvalidArgument,
                    "unknown codec preset '" + name + "' (expected tiny, s1-mini, s2-pro or default)");
}

CodecConfig codec_config_from_json(const std::string& text, const std::string& what) {
    CodecConfig c;
    int64_t input_dim = -1;  // optional; checked against the latent dim once the rates are known sane
    try {
        const auto j = nlohmann::json::parse(text);
        read(j, "preset", c.preset);
        read(j, "sample_rate", c.sample_rate);
        read(j, "encoder_dim", c.encoder_dim);
        read(j, "encoder_rates", c.encoder_rates);
        read(j, "decoder_dim", c.decoder_dim);
        read(j, "decoder_rates", c.decoder_rates);
        read(j, "encoder_transformer_layers", c.encoder_transformer_layers);
        read(j, "encoder_window", c.encoder_window);
        if (j.contains("transformer_general_config")) {
            const auto& g = j.at("transformer_general_config");
            read(g, "head_dim", c.transformer_head_dim);
            read(g, "rope_base", c.transformer_rope_base);
            read(g, "norm_eps", c.transformer_norm_eps);
        }
        if (j.contains("quantizer")) {
            const auto& q = j.at("quantizer");
            read(q, "n_codebooks", c.n_codebooks);
            read(q, "codebook_size", c.codebook_size);
            read(q, "codebook_dim", c.codebook_dim);
            read(q, "semantic_codebook_size", c.semantic_codebook_size);
            read(q, "downsample_factor", c.downsample_factor);
            if (q.contains("module")) c.quantizer_module = module_from_json(q.at("module"));
            read(q, "input_dim", input_dim);
        }
    } catch (const nlohmann::json::exception& e) {
        throw ReefError(ErrorCode::CorruptModel, what + ": cannot read codec config: " + e.what());
    }
    c.validate(what);
    if (input_dim >= 0 && input_dim != c.latent_dim())
        bad_config(what, "quantizer.input_dim " + std::to_string(input_dim) +
                             " must equal encoder_dim * 2^len(encoder_rates) = " + std::to_string(c.latent_dim()));
    return c;
}

std::string codec_config_to_json(const CodecConfig& c) {
    nlohmann::json j = {
        {"preset", c.preset},
        {"sample_rate", c.sample_rate},
        {"encoder_dim", c.encoder_dim},
        {"encoder_rates", c.encoder_rates},
        {"decoder_dim", c.decoder_dim},
        {"decoder_rates", c.decoder_rates},
        {"encoder_transformer_layers", c.encoder_transformer_layers},
        {"encoder_window", c.encoder_window},
        {"transformer_general_config",
         {{"head_dim", c.transformer_head_dim}, {"rope_base", c.transformer_rope_base},
          {"norm_eps", c.transformer_norm_eps}}},
        {"quantizer",
         {{"input_dim", c.latent_dim()},
          {"n_codebooks", c.n_codebooks},
          {"codebook_size", c.codebook_size},
          {"codebook_dim", c.codebook_dim},
          {"semantic_codebook_size", c.semantic_codebook_size},
          {"downsample_factor", c.downsample_factor},
          {"module", module_to_json(c.quantizer_module)}}},
    };
    return j.dump(2) + "\n";
}

std::string codec_config_to_yaml(const CodecConfig& c) {
    const auto& m = c.quantizer_module;
    std::ostringstream y;
    y << "# Written by Reef for the '" << c.preset << "' demo codec; layout of fish_speech/configs/modded_dac_vq.yaml.\n"
      << "_target_: fish_speech.models.dac.modded_dac.DAC\n"
      << "sample_rate: " << c.sample_rate << "\n"
      << "encoder_dim: " << c.encoder_dim << "\n"
      << "encoder_rates: " << list(c.encoder_rates) << "\n"
      << "decoder_dim: " << c.decoder_dim << "\n"
      << "decoder_rates: " << list(c.decoder_rates) << "\n"
      << "encoder_transformer_layers: " << list(c.encoder_transformer_layers) << "\n"
      << "decoder_transformer_layers: " << list(std::vector<int64_t>(c.decoder_rates.size(), 0)) << "\n"
      << "transformer_general_config:\n"
      << "  _target_: fish_speech.models.dac.modded_dac.ModelArgs\n"
      << "  _partial_: true\n"
      << "  block_size: 8192\n  n_local_heads: -1\n"
      << "  head_dim: " << c.transformer_head_dim << "\n"
      << "  rope_base: " << c.transformer_rope_base << "\n"
      << "  norm_eps: " << c.transformer_norm_eps << "\n"
      << "  dropout_rate: 0.1\n  attn_dropout_rate: 0.1\n  channels_first: true\n"
      << "quantizer:\n"
      << "  _target_: fish_speech.models.dac.rvq.DownsampleResidualVectorQuantize\n"
      << "  input_dim: " << c.latent_dim() << "\n"
      << "  n_codebooks: " << c.n_codebooks << "\n"
      << "  codebook_size: " << c.codebook_size << "\n"
      << "  codebook_dim: " << c.codebook_dim << "\n"
      << "  quantizer_dropout: 0.5\n"
      << "  downsample_factor: " << list(c.downsample_factor) << "\n"
      << "  post_module: &transformer_module\n"
      << "    _target_: fish_speech.models.dac.modded_dac.WindowLimitedTransformer\n"
      << "    causal: true\n"
      << "    window_size: " << m.window_size << "\n"
      << "    input_dim: " << c.latent_dim() << "\n"
      << "    config:\n"
      << "      _target_: fish_speech.models.dac.modded_dac.ModelArgs\n"
      << "      block_size: 2048\n"
      << "      n_layer: " << m.n_layer << "\n"
      << "      n_head: " << m.n_head << "\n"
      << "      dim: " << m.dim << "\n"
      << "      intermediate_size: " << m.intermediate_size << "\n"
      << "      n_local_heads: -1\n"
      << "      head_dim: " << m.head_dim << "\n"
      << "      rope_base: " << m.rope_base << "\n"
      << "      norm_eps: " << m.norm_eps << "\n"
      << "      dropout_rate: 0.1\n      attn_dropout_rate: 0.1\n      channels_first: true\n"
      << "  pre_module: *transformer_module\n"
      << "  semantic_codebook_size: " << c.semantic_codebook_size << "\n";
    return y.str();
}

CodecConfig load_codec_config(const std::string& model_dir) {
    const auto path = std::filesystem::path(model_dir) / kCodecConfigFile;
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return codec_preset("default");
    return codec_config_from_json(read_model_text(path, limits::kMaxConfigFileBytes, "codec config"), path.string());
}

}  // namespace reef
