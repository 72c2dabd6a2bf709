#include "nn/llama_ops.h"

namespace reef {

at::Tensor apply_rotary_emb(const at::Tensor& x, const at::Tensor& freqs_cis) {
    // x: [B, S, H, D] -> pairs [B, S, H, D/2, 2]; freqs_cis -> [1, S, 1, D/2, 2]
    const at::Tensor xs = x.to(at::kFloat).reshape({x.size(0), x.size(1), x.size(2), -1, 2});
    const at::Tensor f = freqs_cis.to(at::kFloat).view({1, xs.size(1), 1, xs.size(3), 2});
    const at::Tensor x0 = xs.select(-1, 0), x1 = xs.select(-1, 1);
    const at::Tensor c = f.select(-1, 0), s = f.select(-1, 1);
    const at::Tensor out = at::stack({x0 * c - x1 * s, x1 * c + x0 * s}, -1);
    return out.flatten(3).to(x.scalar_type());
}

at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& weight, double eps) {
    const at::Tensor xf = x.to(at::kFloat);
    const at::Tensor normed = xf * at::rsqrt(xf.mul(xf).mean(-1, /*keepdim=*/true) + eps);
    return normed.to(x.scalar_type()) * weight;
}

}  // namespace reef
