#include <c10/core/InferenceMode.h>

#include "codec/codec.h"

namespace reef {

StreamingDecoder::StreamingDecoder(const Codec& codec) : m_codec(codec) {}

at::Tensor StreamingDecoder::push(const at::Tensor& new_codes) {
    c10::InferenceMode guard;
    const auto codes = m_codec.prepare_codes(new_codes);  // [1, N, t]
    const int64_t t = codes.size(2);
    if (t == 0) return at::empty({0}, at::kFloat);
    // post_module continues from its window cache and every conv from its left context, so each
    // frame goes through the decoder once: z [1, D, t] -> [t * frame] samples.
    const auto z = m_codec.codes_to_latent(codes, &m_cache);
    const auto pcm = m_codec.latent_to_pcm(z, &m_convs).reshape({-1});
    m_frames += t;
    return pcm.to(at::kCPU, at::kFloat).contiguous();
}

at::Tensor StreamingDecoder::finish() {
    m_cache = WindowKvCache{};
    m_convs.clear();
    m_frames = 0;
    return at::empty({0}, at::kFloat);
}

}  // namespace reef
