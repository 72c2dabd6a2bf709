#include "codec/codec.h"

#include <c10/core/InferenceMode.h>

#include <filesystem>

#include "check.h"
#include "checkpoint/verify.h"
#include "codec/codec_quantizer.h"
#include "codec/codec_weights.h"
#include "memory_check.h"

namespace reef {
namespace {

WindowTransformerSpec module_spec(const std::string& prefix, const CodecTransformerConfig& m) {
    return {prefix, m.n_layer, m.n_head, m.head_dim, m.window_size, m.rope_base, m.norm_eps};
}

}  // namespace

std::unique_ptr<Codec> Codec::load(const std::string& model_dir, at::Device device, at::ScalarType dtype) {
    const std::string file = find_codec_file(model_dir);
    const auto dir = std::filesystem::path(file).parent_path().string();
    const CodecConfig config = load_codec_config(dir.empty() ? "." : dir);
    c10::InferenceMode guard;
    return from_state_dict(config, read_codec_file(file), device, dtype, file);
}

std::unique_ptr<Codec> Codec::from_state_dict(const CodecConfig& config, TensorMap raw, at::Device device,
                                              at::ScalarType dtype, const std::string& what) {
    c10::InferenceMode guard;
    config.validate(what);
    if (dtype != at::kFloat && dtype != at::kBFloat16 && dtype != at::kHalf)
        throw ReefError(ErrorCode::UnsupportedDevice,
                        what + ": the codec runs in float32, bfloat16 or float16, not " +
                            std::string(c10::toString(dtype)));
    const ExpectedShapes expected = codec_expected_shapes(config);
    require_memory(expected_bytes(expected, dtype), device, what + ": the codec");
    TensorMap fused = prepare_codec_state_dict(std::move(raw), what, &expected);
    verify_state_dict(fused, expected, what);
    TensorMap weights;
    for (const auto& [key, shape] : expected) {
        at::Tensor t = fused.at(key).to(device, dtype).contiguous();
        // On the CPU the convolutions run channels-last (codec_layers.h): their weights are held
        // in that layout once, [C_out, C_in, k] with the input channels adjacent.
        if (device.is_cpu() && t.dim() == 3 && key.ends_with(".conv.weight"))
            t = t.unsqueeze(2).contiguous(at::MemoryFormat::ChannelsLast).squeeze(2);
        weights[key] = t;
        fused.erase(key);  // the source's memory goes as its copy is made, not after the last one
    }
    return std::unique_ptr<Codec>(new Codec(config, std::move(weights), device, dtype));
}

Codec::Codec(CodecConfig config, TensorMap fused, at::Device device, at::ScalarType dtype)
    : m_config(std::move(config)), m_w(std::move(fused)), m_device(device), m_dtype(dtype) {
    m_pre = std::make_unique<WindowTransformer>(m_w, module_spec("quantizer.pre_module", m_config.quantizer_module));
    m_post = std::make_unique<WindowTransformer>(m_w, module_spec("quantizer.post_module", m_config.quantizer_module));
    for (size_t i = 0; i < m_config.encoder_rates.size(); ++i) {
        const int64_t n = m_config.encoder_transformer_layers[i], d = m_config.encoder_block_dim(i);
        if (n == 0) {
            m_encoder_transformers.push_back(nullptr);
            continue;
        }
        // fish-speech: n_head = dim // 64 heads of the general head_dim, window 512.
        m_encoder_transformers.push_back(std::make_unique<WindowTransformer>(
            m_w, WindowTransformerSpec{"encoder.block." + std::to_string(i + 1) + ".block.5", n, d / 64,
                                       m_config.transformer_head_dim, m_config.encoder_window,
                                       m_config.transformer_rope_base, m_config.transformer_norm_eps}));
    }
}

int64_t Codec::n_parameters() const {
    int64_t n = 0;
    for (const auto& [k, t] : m_w.map()) n += t.numel();
    return n;
}

at::Tensor Codec::prepare_codes(const at::Tensor& codes) const {
    if (codes.dim() != 2 || codes.size(0) != m_config.n_total_codebooks() || at::isFloatingType(codes.scalar_type()))
        throw ReefError(ErrorCode::InvalidArgument,
                        "codec: codes must be an integer tensor of shape (" +
                            std::to_string(m_config.n_total_codebooks()) + ", T), got " + std::to_string(codes.dim()) +
                            "-d " + std::string(c10::toString(codes.scalar_type())) +
                            (codes.dim() > 0 ? " with " + std::to_string(codes.size(0)) + " rows" : std::string()));
    return clamp_codes(codes.to(m_device).unsqueeze(0), m_config);
}

at::Tensor Codec::codes_to_latent(const at::Tensor& codes, WindowKvCache* cache) const {
    const auto z = quantizer_from_codes(m_w, m_config, codes);  // [1, D, T]
    return m_post->forward(z, cache);
}

at::Tensor Codec::latent_to_pcm(const at::Tensor& z, ConvStream* stream) const {
    return run_decoder(quantizer_upsample(m_w, m_config, z, stream), stream);
}

at::Tensor Codec::decode(const at::Tensor& codes) const {
    c10::InferenceMode guard;
    const auto c = prepare_codes(codes);
    if (c.size(2) == 0) return at::empty({0}, at::kFloat);
    const auto pcm = latent_to_pcm(codes_to_latent(c));  // [1, 1, T * frame_length]
    return pcm.reshape({-1}).to(at::kCPU, at::kFloat).contiguous();
}

at::Tensor Codec::encode(const at::Tensor& pcm) const {
    c10::InferenceMode guard;
    if (pcm.dim() != 1 || pcm.numel() == 0 || !at::isFloatingType(pcm.scalar_type()))
        throw ReefError(ErrorCode::InvalidArgument,
                        "codec: encode expects non-empty mono float PCM of shape (S) at " +
                            std::to_string(m_config.sample_rate) + " Hz");
    // Right-pad with zeros to a whole number of frames (DAC.encode).
    const int64_t frame = m_config.frame_length(), s = pcm.numel();
    const int64_t padded = (s + frame - 1) / frame * frame;
    auto x = at::constant_pad_nd(pcm.to(m_device, m_dtype), {0, padded - s}, 0.0).view({1, 1, padded});
    auto z = run_encoder(x);                        // [1, D, S / hop]
    z = quantizer_downsample(m_w, m_config, z);     // [1, D, S / frame]
    z = m_pre->forward(z);
    return quantizer_to_codes(m_w, m_config, z)[0].to(at::kCPU).contiguous();  // [N, T]
}

at::Tensor Codec::run_encoder(const at::Tensor& audio) const {
    const std::string p = "encoder.block.";
    auto x = conv_at(m_w, p + "0", audio);
    for (size_t i = 0; i < m_config.encoder_rates.size(); ++i) {
        const std::string b = p + std::to_string(i + 1) + ".block.";
        x = residual_unit(m_w, b + "0", x, 1);
        x = residual_unit(m_w, b + "1", x, 3);
        x = residual_unit(m_w, b + "2", x, 9);
        x = snake_at(m_w, b + "3", x);
        x = conv_at(m_w, b + "4", x, m_config.encoder_rates[i]);
        if (m_encoder_transformers[i]) x = m_encoder_transformers[i]->forward(x);
    }
    const size_t n = m_config.encoder_rates.size();
    x = snake_at(m_w, p + std::to_string(n + 1), x);
    return conv_at(m_w, p + std::to_string(n + 2), x);
}

at::Tensor Codec::run_decoder(const at::Tensor& z, ConvStream* s) const {
    const std::string p = "decoder.model.";
    auto x = conv_at(m_w, p + "0", z, 1, 1, 1, s);
    for (size_t i = 0; i < m_config.decoder_rates.size(); ++i) {
        const std::string b = p + std::to_string(i + 1) + ".block.";
        x = snake_at(m_w, b + "0", x);
        x = conv_transpose_at(m_w, b + "1", x, m_config.decoder_rates[i], s);
        x = residual_unit(m_w, b + "2", x, 1, s);
        x = residual_unit(m_w, b + "3", x, 3, s);
        x = residual_unit(m_w, b + "4", x, 9, s);
    }
    const size_t n = m_config.decoder_rates.size();
    x = snake_at(m_w, p + std::to_string(n + 1), x);
    x = conv_at(m_w, p + std::to_string(n + 2), x, 1, 1, 1, s);
    return at::tanh(x);
}

std::unique_ptr<StreamingDecoder> Codec::streaming_decoder() const { return std::make_unique<StreamingDecoder>(*this); }

}  // namespace reef
