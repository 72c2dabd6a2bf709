#include "nn/llama_ops.h"

#include "nn/row_kernels.h"

namespace reef {

at::Tensor apply_rotary_emb(const at::Tensor& x, const at::Tensor& freqs_cis) {
    if (rotary_rows_apply(x, freqs_cis)) return rotary_rows(x, freqs_cis);  // decode: one loop
    // The pair (x[2j], x[2j+1]) times (cos, sin) is one complex product: a single kernel instead
    // of selecting, multiplying and stacking the halves. x: [B, S, H, D] -> pairs [B, S, H, D/2]
    // complex; freqs_cis [S, D/2, 2] -> [1, S, 1, D/2] complex
    const at::Tensor xs = at::view_as_complex(x.to(at::kFloat).reshape({x.size(0), x.size(1), x.size(2), -1, 2}));
    const at::Tensor f =
        at::view_as_complex(freqs_cis.to(at::kFloat).contiguous()).view({1, xs.size(1), 1, xs.size(3)});
    return at::view_as_real(xs * f).flatten(3).to(x.scalar_type());
}

at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& weight, double eps) {
    if (row_kernels_apply(x) && weight.scalar_type() == x.scalar_type())
        return rms_norm_rows(x, weight, eps, /*round_before_weight=*/true);  // decode: one loop
    // ATen's fused norm in fp32, rounded to x's dtype before the weight as fish-speech does
    const at::Tensor normed = at::rms_norm(x.to(at::kFloat), {x.size(-1)}, std::nullopt, eps);
    return normed.to(x.scalar_type()) * weight;
}

at::Tensor rms_norm_weighted(const at::Tensor& x, const at::Tensor& weight, double eps) {
    if (row_kernels_apply(x) && weight.scalar_type() == x.scalar_type())
        return rms_norm_rows(x, weight, eps, /*round_before_weight=*/false);
    return at::rms_norm(x, {x.size(-1)}, weight, eps);
}

at::Tensor silu_mul(const at::Tensor& h) {
    if (row_kernels_apply(h)) return silu_mul_rows(h);
    const auto parts = h.chunk(2, -1);  // [..., I] each
    return at::silu(parts[0]) * parts[1];
}

}  // namespace reef
