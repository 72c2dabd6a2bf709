#include "codec/codec_quantizer.h"

#include "check.h"

namespace reef {
namespace {

// F.normalize(x, p=2, dim=1): x / max(||x||, 1e-12), rows of [M, C].
at::Tensor l2_normalize(const at::Tensor& x) {
    return x / at::linalg_vector_norm(x, 2, {1}, /*keepdim=*/true).clamp_min(1e-12).expand_as(x);
}

// dac VectorQuantize.decode_code + out_proj: codes [B, T] -> [B, D, T]
at::Tensor vq_decode(const CodecWeights& w, const std::string& p, const at::Tensor& codes) {
    const auto z_p = at::embedding(w(p + ".codebook.weight"), codes).transpose(1, 2);  // [B, cd, T]
    return at::conv1d(z_p, w(p + ".out_proj.weight"), w(p + ".out_proj.bias"));
}

// dac VectorQuantize.forward in eval: nearest codebook row by cosine similarity.
// residual: [B, D, T] -> (z_q [B, D, T], indices [B, T])
std::pair<at::Tensor, at::Tensor> vq_encode(const CodecWeights& w, const std::string& p, const at::Tensor& residual) {
    const auto z_e = at::conv1d(residual, w(p + ".in_proj.weight"), w(p + ".in_proj.bias"));  // [B, cd, T]
    const int64_t b = z_e.size(0), cd = z_e.size(1), t = z_e.size(2);
    const auto& codebook = w(p + ".codebook.weight");  // [K, cd]
    const auto enc = l2_normalize(z_e.transpose(1, 2).reshape({b * t, cd}));
    const auto cb = l2_normalize(codebook);
    // -(|e|^2 - 2 e.c + |c|^2): the same expression as dac (argmax of cosine similarity).
    const auto dist = enc.pow(2).sum(1, true) - 2 * at::matmul(enc, cb.t()) + cb.pow(2).sum(1, true).t();
    const auto indices = std::get<1>(at::max(-dist, 1)).view({b, t});
    auto z_q = at::embedding(codebook, indices).transpose(1, 2);  // un-normalised row, [B, cd, T]
    z_q = z_e + (z_q - z_e);                                      // dac's straight-through form, kept for parity
    return {at::conv1d(z_q, w(p + ".out_proj.weight"), w(p + ".out_proj.bias")), indices};
}

}  // namespace

at::Tensor clamp_codes(const at::Tensor& codes, const CodecConfig& config) {
    REEF_CHECK(codes.dim() == 3, "codes must be [B, N, T]");
    if (codes.numel() > 0 && codes.min().item<int64_t>() < 0)
        throw ReefError(ErrorCode::InvalidArgument, "codec: negative code in codes of shape [" +
                                                        std::to_string(codes.size(1)) + ", " +
                                                        std::to_string(codes.size(2)) + "]");
    auto out = codes.to(at::kLong).clone();
    out.select(1, 0).clamp_max_(config.semantic_codebook_size - 1);
    out.narrow(1, 1, out.size(1) - 1).clamp_max_(config.codebook_size - 1);
    return out;
}

at::Tensor quantizer_from_codes(const CodecWeights& w, const CodecConfig& config, const at::Tensor& codes) {
    auto z = vq_decode(w, "quantizer.semantic_quantizer.quantizers.0", codes.select(1, 0));
    at::Tensor residual;
    for (int64_t i = 0; i < config.n_codebooks; ++i) {
        const auto z_i = vq_decode(w, "quantizer.quantizer.quantizers." + std::to_string(i), codes.select(1, i + 1));
        residual = residual.defined() ? residual + z_i : z_i;
    }
    return z + residual;  // z_q_semantic + z_q_residual, summed as fish-speech does
}

at::Tensor quantizer_to_codes(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z) {
    std::vector<at::Tensor> codes;
    auto [z_sem, sem_idx] = vq_encode(w, "quantizer.semantic_quantizer.quantizers.0", z);
    codes.push_back(sem_idx);
    auto residual = z - z_sem;
    for (int64_t i = 0; i < config.n_codebooks; ++i) {
        auto [z_i, idx] = vq_encode(w, "quantizer.quantizer.quantizers." + std::to_string(i), residual);
        residual = residual - z_i;
        codes.push_back(idx);
    }
    return at::stack(codes, 1);  // [B, N, T]
}

at::Tensor quantizer_downsample(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z) {
    auto x = z;
    for (size_t i = 0; i < config.downsample_factor.size(); ++i) {
        const std::string p = "quantizer.downsample." + std::to_string(i);
        x = conv_at(w, p + ".0", x, config.downsample_factor[i]);
        x = convnext_block(w, p + ".1", x);
    }
    return x;
}

at::Tensor quantizer_upsample(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z,
                              ConvStream* stream) {
    auto x = z;
    const size_t n = config.downsample_factor.size();
    for (size_t i = 0; i < n; ++i) {
        const std::string p = "quantizer.upsample." + std::to_string(i);
        const int64_t f = config.downsample_factor[n - 1 - i];
        x = conv_transpose_at(w, p + ".0", x, f, stream);
        x = convnext_block(w, p + ".1", x, stream);
    }
    return x;
}

}  // namespace reef
