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

}  // namespace reef::t2s
