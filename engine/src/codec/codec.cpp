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

void check_codec_dtype(at::ScalarType dtype, const std::string& what) {
    if (dtype != at::kFloat && dtype != at::kBFloat16 && dtype != at::kHalf)
        throw ReefError(ErrorCode::UnsupportedDevice,
                        what + ": the codec runs in float32, bfloat16 or float16, not " + std::string(c10::toString(dtype)));
}

// The codec's weights on one side: the encoding one (codec_encode_only) or the decoding one.
ExpectedShapes side_shapes(const CodecConfig& config, bool encoding) {
    ExpectedShapes shapes = codec_expected_shapes(config);
    std::erase_if(shapes, [&](const auto& kv) { return codec_encode_only(kv.first) != encoding; });
    return shapes;
}

}  // namespace

std::unique_ptr<Codec> Codec::load(const std::string& model_dir, at::Device device, at::ScalarType dtype,
                                   bool encoder_later) {
    const std::string file = find_codec_file(model_dir);
    const auto dir = std::filesystem::path(file).parent_path().string();
    const CodecConfig config = load_codec_config(dir.empty() ? "." : dir);
    c10::InferenceMode guard;
    if (!encoder_later) return from_state_dict(config, read_codec_file(file), device, dtype, file);
    config.validate(file);
    check_codec_dtype(dtype, file);
    const ExpectedShapes expected = side_shapes(config, /*encoding=*/false);
    require_memory(expected_bytes(expected, dtype), device, file + ": the codec");
    std::unique_ptr<Codec> codec(new Codec(config, read_converted(file, expected, device, dtype), device, dtype));
    codec->m_file = file;
    return codec;
}

std::unique_ptr<Codec> Codec::from_state_dict(const CodecConfig& config, TensorMap raw, at::Device device,
                                              at::ScalarType dtype, const std::string& what) {
    c10::InferenceMode guard;
    config.validate(what);
    check_codec_dtype(dtype, what);
    const ExpectedShapes expected = codec_expected_shapes(config);
    require_memory(expected_bytes(expected, dtype), device, what + ": the codec");
    return std::unique_ptr<Codec>(new Codec(config, convert(std::move(raw), expected, device, dtype, what), device, dtype));
}

TensorMap Codec::convert(TensorMap raw, const ExpectedShapes& expected, at::Device device, at::ScalarType dtype,
                         const std::string& what) {
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
    return weights;
}

TensorMap Codec::read_converted(const std::string& file, const ExpectedShapes& expected, at::Device device,
                                at::ScalarType dtype) {
    std::map<std::string, ExpectedShapes> groups;
    for (const auto& [key, shape] : expected) groups[codec_group(key)].emplace(key, shape);
    TensorMap weights;
    for (const auto& [group, shapes] : groups) {
        TensorMap raw = read_codec_file(file, [&](const std::string& key) { return codec_group(key) == group; });
        weights.merge(convert(std::move(raw), shapes, device, dtype, file));
    }
    return weights;
}

Codec::Encoder::Encoder(const CodecConfig& config, TensorMap weights) : w(std::move(weights)) {
    pre = std::make_unique<WindowTransformer>(w, module_spec("quantizer.pre_module", config.quantizer_module));
    for (size_t i = 0; i < config.encoder_rates.size(); ++i) {
        const int64_t n = config.encoder_transformer_layers[i], d = config.encoder_block_dim(i);
        if (n == 0) {
            transformers.push_back(nullptr);
            continue;
        }
        // fish-speech: n_head = dim // 64 heads of the general head_dim, window 512.
        transformers.push_back(std::make_unique<WindowTransformer>(
            w, WindowTransformerSpec{"encoder.block." + std::to_string(i + 1) + ".block.5", n, d / 64,
                                     config.transformer_head_dim, config.encoder_window, config.transformer_rope_base,
                                     config.transformer_norm_eps}));
    }
}

Codec::Codec(CodecConfig config, TensorMap fused, at::Device device, at::ScalarType dtype)
    : m_config(std::move(config)), m_device(device), m_dtype(dtype) {
    // the encoding side apart: the decoder never reads it, and it may come later (encoder())
    TensorMap encoding;
    for (auto it = fused.begin(); it != fused.end();)
        if (codec_encode_only(it->first)) {
            encoding.insert(fused.extract(it++));
        } else {
            ++it;
        }
    m_w = CodecWeights(std::move(fused));
    m_post = std::make_unique<WindowTransformer>(m_w, module_spec("quantizer.post_module", m_config.quantizer_module));
    if (!encoding.empty()) m_encoder = std::make_unique<Encoder>(m_config, std::move(encoding));
}

const Codec::Encoder& Codec::encoder() const {
    std::lock_guard lock(m_encoder_mutex);
    if (!m_encoder) {
        // Read, verified and converted as load() does the rest; a failure leaves it to try again.
        const ExpectedShapes expected = side_shapes(m_config, /*encoding=*/true);
        require_memory(expected_bytes(expected, m_dtype), m_device, m_file + ": the codec's encoder");
        m_encoder = std::make_unique<Encoder>(m_config, read_converted(m_file, expected, m_device, m_dtype));
    }
    return *m_encoder;
}

bool Codec::encoder_loaded() const {
    std::lock_guard lock(m_encoder_mutex);
    return m_encoder != nullptr;
}

int64_t Codec::n_parameters() const {
    int64_t n = 0;
    for (const auto& [k, shape] : codec_expected_shapes(m_config)) n += c10::multiply_integers(shape);
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
    const Encoder& e = encoder();
    auto z = run_encoder(e, x);                     // [1, D, S / hop]
    z = quantizer_downsample(e.w, m_config, z);     // [1, D, S / frame]
    z = e.pre->forward(z);
    return quantizer_to_codes(m_w, m_config, z)[0].to(at::kCPU).contiguous();  // [N, T]
}

at::Tensor Codec::run_encoder(const Encoder& e, const at::Tensor& audio) const {
    const std::string p = "encoder.block.";
    auto x = conv_at(e.w, p + "0", audio);
    for (size_t i = 0; i < m_config.encoder_rates.size(); ++i) {
        const std::string b = p + std::to_string(i + 1) + ".block.";
        x = residual_unit(e.w, b + "0", x, 1);
        x = residual_unit(e.w, b + "1", x, 3);
        x = residual_unit(e.w, b + "2", x, 9);
        x = snake_at(e.w, b + "3", x);
        x = conv_at(e.w, b + "4", x, m_config.encoder_rates[i]);
        if (e.transformers[i]) x = e.transformers[i]->forward(x);
    }
    const size_t n = m_config.encoder_rates.size();
    x = snake_at(e.w, p + std::to_string(n + 1), x);
    return conv_at(e.w, p + std::to_string(n + 2), x);
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
