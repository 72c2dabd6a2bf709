#include <c10/core/InferenceMode.h>

#include "codec/codec.h"

namespace reef {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

int64_t decoder_context_frames(const CodecConfig& c) {
    // Walk from an output sample back to the input, tracking how far to the left anything can
    // still reach it (in samples of the current rate). Causal convs reach (k-1)*d back; a causal
    // transposed conv (k = 2s or k = s) maps that to ceil((r + k - 1) / s) input samples.
    constexpr int64_t kConv7 = 6;
    constexpr int64_t kResidualUnits = 6 * (1 + 3 + 9);  // k7 at dilations 1, 3, 9 (+ 1x1 convs)
    int64_t r = kConv7;                                   // decoder's last conv
    for (auto it = c.decoder_rates.rbegin(); it != c.decoder_rates.rend(); ++it) {
        r += kResidualUnits;
        r = ceil_div(r + 2 * *it - 1, *it);
    }
    r += kConv7;  // decoder.model.0
    // upsample.i uses downsample_factor[n-1-i]; walking back meets upsample.(n-1) first.
    for (int64_t f : c.downsample_factor) {
        r += kConv7;  // ConvNeXt depthwise conv
        r = ceil_div(r + f - 1, f);
    }
    return r + 1;  // one frame of margin
}

StreamingDecoder::StreamingDecoder(const Codec& codec)
    : m_codec(codec), m_context_frames(decoder_context_frames(codec.config())) {}

at::Tensor StreamingDecoder::push(const at::Tensor& new_codes) {
    c10::InferenceMode guard;
    const auto codes = m_codec.prepare_codes(new_codes);  // [1, N, t]
    const int64_t t = codes.size(2);
    if (t == 0) return at::empty({0}, at::kFloat);
    // post_module continues exactly from its cache: z [1, D, t] at absolute positions.
    const auto z = m_codec.codes_to_latent(codes, &m_cache);
    const auto full = m_context.defined() ? at::cat({m_context, z}, 2) : z;  // [1, D, ctx + t]
    const int64_t frame = m_codec.config().frame_length();
    const auto pcm = m_codec.latent_to_pcm(full).reshape({-1});               // [(ctx + t) * frame]
    const auto out = pcm.narrow(0, (full.size(2) - t) * frame, t * frame);
    const int64_t keep = std::min(m_context_frames, full.size(2));
    m_context = full.narrow(2, full.size(2) - keep, keep).contiguous();
    m_frames += t;
    return out.to(at::kCPU, at::kFloat).contiguous();
}

at::Tensor StreamingDecoder::finish() {
    m_cache = WindowKvCache{};
    m_context = at::Tensor();
    m_frames = 0;
    return at::empty({0}, at::kFloat);
}

}  // namespace reef
