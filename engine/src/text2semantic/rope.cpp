#include "text2semantic/rope.h"

#include "check.h"

namespace reef::t2s {

at::Tensor precompute_freqs_cis(int64_t seq_len, int64_t n_elem, double base) {
    REEF_CHECK(n_elem % 2 == 0 && seq_len > 0, "precompute_freqs_cis: bad sizes");
    // inv_freq[j] = 1 / base^(2j/n_elem), in fp32 like torch's `base ** tensor.float()`
    const at::Tensor exponents = at::arange(0, n_elem, 2, at::kLong).slice(0, 0, n_elem / 2).to(at::kFloat) /
                                 double(n_elem);
    const at::Tensor inv_freq = 1.0 / at::pow(base, exponents);
    const at::Tensor t = at::arange(seq_len, at::kLong).to(at::kFloat);
    const at::Tensor angles = at::outer(t, inv_freq);  // [S, D/2]
    // torch.polar(1, θ) = (cos θ, sin θ); fish-speech keeps the table in bf16.
    return at::stack({at::cos(angles), at::sin(angles)}, -1).to(at::kBFloat16).to(at::kFloat);
}

at::Tensor apply_rotary_emb(const at::Tensor& x, const at::Tensor& freqs_cis) {
    // x: [B, S, H, D] -> pairs [B, S, H, D/2, 2]
    const at::Tensor xs = x.to(at::kFloat).reshape({x.size(0), x.size(1), x.size(2), -1, 2});
    const at::Tensor f = freqs_cis.to(at::kFloat).view({1, xs.size(1), 1, xs.size(3), 2});
    const at::Tensor x0 = xs.select(-1, 0), x1 = xs.select(-1, 1);
    const at::Tensor c = f.select(-1, 0), s = f.select(-1, 1);
    const at::Tensor out = at::stack({x0 * c - x1 * s, x1 * c + x0 * s}, -1);
    return out.flatten(3).to(x.scalar_type());
}

}  // namespace reef::t2s
