// Configuration of fish-speech's modded DAC codec (fish-speech: fish_speech/models/dac/modded_dac.py): the real
// modded_dac_vq.yaml numbers by default, smaller demo presets for tests, read from
// codec_config.json beside codec.pth when a model folder ships one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace reef {

// One WindowLimitedTransformer (fish-speech ModelArgs + window_size). n_local_heads is always
// n_head in the codec (no GQA, reference-run §3.10).
struct CodecTransformerConfig {
    int64_t n_layer = 8;
    int64_t n_head = 16;
    int64_t dim = 1024;
    int64_t intermediate_size = 3072;
    int64_t head_dim = 64;
    double rope_base = 10000.0;
    double norm_eps = 1e-5;
    int64_t window_size = 128;
};

struct CodecConfig {
    std::string preset = "default";  // "default" (real numbers), "s1-mini", "s2-pro", "tiny", "custom"
    int64_t sample_rate = 44100;
    int64_t encoder_dim = 64;
    std::vector<int64_t> encoder_rates{2, 4, 8, 8};
    int64_t decoder_dim = 1536;
    std::vector<int64_t> decoder_rates{8, 8, 4, 2};
    // Layers of the window transformer closing each encoder block (0 = none). fish-speech builds it
    // with n_head = dim / 64, intermediate = 3 * dim and the general head_dim/rope/eps below.
    std::vector<int64_t> encoder_transformer_layers{0, 0, 0, 4};
    int64_t transformer_head_dim = 64;
    double transformer_rope_base = 10000.0;
    double transformer_norm_eps = 1e-5;
    // fish-speech's EncoderBlock falls back to 512 (getattr on a functools.partial, spec §5.4).
    int64_t encoder_window = 512;

    // DownsampleResidualVectorQuantize
    int64_t n_codebooks = 9;  // residual codebooks; one semantic codebook comes on top
    int64_t codebook_size = 1024;
    int64_t codebook_dim = 8;
    int64_t semantic_codebook_size = 4096;
    std::vector<int64_t> downsample_factor{2, 2};
    CodecTransformerConfig quantizer_module;  // pre_module and post_module (two instances)

    int64_t latent_dim() const;         // encoder_dim * 2^len(encoder_rates)
    int64_t hop_length() const;         // prod(encoder_rates) = 512
    int64_t frame_length() const;       // hop * prod(downsample_factor) = 2048 samples per code frame
    int64_t n_total_codebooks() const;  // 1 + n_codebooks = 10
    // Dims of encoder block i (0-based): its transformer runs at this width.
    int64_t encoder_block_dim(size_t i) const;
    int64_t decoder_block_in(size_t i) const;
    int64_t decoder_block_out(size_t i) const;
    // Throws ReefError(CorruptModel) naming `what` and the violated rule (reference-run §3.10).
    void validate(const std::string& what) const;
};

// "default", "s1-mini", "s2-pro" (the real dims; identical architecture) or "tiny" (small and
// fast, still 44.1 kHz, 2048 samples per frame and the real codebook sizes). Throws on others.
CodecConfig codec_preset(const std::string& name);

// Reads <model_dir>/codec_config.json when present, else returns the real numbers.
CodecConfig load_codec_config(const std::string& model_dir);
CodecConfig codec_config_from_json(const std::string& text, const std::string& what);
std::string codec_config_to_json(const CodecConfig& config);
// The same config as a hydra yaml in modded_dac_vq.yaml's layout, so fish-speech's own code can
// build the module tree for a demo codec (reference-run §3.9-§3.10).
std::string codec_config_to_yaml(const CodecConfig& config);

inline constexpr const char* kCodecConfigFile = "codec_config.json";
inline constexpr const char* kCodecYamlFile = "codec_config.yaml";

}  // namespace reef
