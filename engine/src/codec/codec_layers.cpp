#include "codec/codec_layers.h"

#include <ATen/Parallel.h>

#include <cmath>

#include "check.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/row_ops.h"
#endif

namespace reef {

const at::Tensor& CodecWeights::operator()(const std::string& key) const {
    auto it = m_tensors.find(key);
    REEF_CHECK(it != m_tensors.end(), "codec weight missing after verification: " + key);
    return it->second;
}

namespace {

#ifdef REEF_HAVE_KERNELS
// x: [B, C, L] fp32 or bf16 on the CPU, alpha: C values -> the activation, one pass per channel row
// (kernels/row_ops.h). The decoder's largest tensors go through it: ATen's five ops made four
// temporaries of the same size, and their allocation (fresh pages) cost more than the arithmetic.
bool snake_rows(const at::Tensor& x, const at::Tensor& alpha, at::Tensor& y) {
    const bool bf16 = x.scalar_type() == at::kBFloat16;
    if (!x.device().is_cpu() || x.dim() != 3 || alpha.numel() != x.size(1) || (!bf16 && x.scalar_type() != at::kFloat))
        return false;
    // Rows may lie apart (a causal conv's output is a narrowed view): only the samples of a row
    // need to be adjacent.
    const at::Tensor xs = x.stride(2) == 1 ? x : x.contiguous();
    const at::Tensor a = alpha.to(at::kCPU, at::kFloat).contiguous().view({-1});  // [C]
    y = at::empty(xs.sizes(), xs.options());
    const int64_t channels = xs.size(1), length = xs.size(2);
    const float* ap = a.const_data_ptr<float>();
    const auto* base = static_cast<const char*>(xs.const_data_ptr());
    auto* out = static_cast<char*>(y.mutable_data_ptr());
    const int64_t elem = int64_t(xs.element_size());
    at::parallel_for(0, xs.size(0) * channels, 1, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const int64_t b = r / channels, c = r % channels;
            const char* in = base + (b * xs.stride(0) + c * xs.stride(1)) * elem;
            char* o = out + r * length * elem;
            const float al = ap[c], inv = 1.0f / (al + 1e-9f);  // dac's +1e-9 and reciprocal
            if (bf16)
                kernels::snake_row(reinterpret_cast<const uint16_t*>(in), length, al, inv, reinterpret_cast<uint16_t*>(o));
            else
                kernels::snake_row(reinterpret_cast<const float*>(in), length, al, inv, reinterpret_cast<float*>(o));
        }
    });
    return true;
}
#endif

}  // namespace

at::Tensor snake(const at::Tensor& x, const at::Tensor& alpha) {
#ifdef REEF_HAVE_KERNELS
    if (at::Tensor y; snake_rows(x, alpha, y)) return y;
#endif
    // Keep dac's +1e-9 and reciprocal form so the numerics match (reference-run §5.3).
    return x + (alpha + 1e-9).reciprocal() * at::sin(alpha * x).pow(2);
}

at::Tensor causal_conv1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride,
                         int64_t dilation, int64_t groups, at::Tensor* state) {
    // x: [B, C_in, L] -> [B, C_out, ceil(L / stride)]
    const int64_t k_eff = (weight.size(2) - 1) * dilation + 1;
    if (state) {
        // [state | x]: the k_eff − 1 inputs before this chunk (zeros at the start, as the pad is)
        REEF_CHECK(stride == 1, "streaming causal conv needs stride 1");
        const int64_t ctx = k_eff - 1;
        if (!state->defined()) *state = at::zeros({x.size(0), x.size(1), ctx}, x.options());
        const at::Tensor joined = ctx > 0 ? at::cat({*state, x}, -1) : x;
        if (ctx > 0) *state = joined.narrow(-1, joined.size(-1) - ctx, ctx).contiguous();
        const std::vector<int64_t> one{1}, zero{0}, dil{dilation};
        return at::conv1d(joined, weight, bias, one, zero, dil, groups);
    }
    const int64_t pad = k_eff - stride;
    const int64_t length = x.size(-1);
    // get_extra_padding_for_conv1d, in the same float arithmetic as fish-speech.
    const double n_frames = double(length - k_eff + pad) / double(stride) + 1.0;
    const int64_t ideal = (int64_t(std::ceil(n_frames)) - 1) * stride + (k_eff - pad);
    const int64_t extra = ideal - length;
    REEF_CHECK(pad >= 0 && extra >= 0, "causal conv padding must be non-negative");
    const std::vector<int64_t> st{stride}, dil{dilation};
    if (extra <= pad) {
        // The convolution's own zero padding, `pad` on both sides, instead of a padded copy of x:
        // output j starts its window at j·stride − pad either way, so the causal outputs are the
        // first ceil(length / stride) of these (the right padding holds the `extra` zeros).
        const std::vector<int64_t> both{pad};
        const at::Tensor y = at::conv1d(x, weight, bias, st, both, dil, groups);
        return y.narrow(-1, 0, (length + pad + extra - k_eff) / stride + 1);
    }
    const auto padded = at::constant_pad_nd(x, {pad, extra}, 0.0);
    const std::vector<int64_t> zero{0};
    return at::conv1d(padded, weight, bias, st, zero, dil, groups);
}

at::Tensor causal_conv_transpose1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                   int64_t stride, at::Tensor* state) {
    // x: [B, C_in, L] -> full [B, C_out, (L-1)*s + k] -> trim (k - s) on the right -> [B, C_out, L*s]
    const int64_t k = weight.size(2);
    const std::vector<int64_t> st{stride}, zero{0}, one{1};
    if (state) {
        // Without bias, so the overlap of two chunks holds the bias once; the trimmed tail of the
        // previous chunk belongs to this chunk's first k − s samples.
        REEF_CHECK(k >= stride, "streaming transposed conv needs kernel >= stride");
        at::Tensor y = at::conv_transpose1d(x, weight, {}, st, zero, zero, 1, one);  // [B, C_out, (L-1)s + k]
        const int64_t out = x.size(-1) * stride, overlap = k - stride;
        if (overlap > 0 && state->defined()) y.narrow(-1, 0, overlap).add_(*state);
        if (overlap > 0) *state = y.narrow(-1, out, overlap).clone();
        y = y.narrow(-1, 0, out);
        return bias.defined() ? y + bias.view({1, -1, 1}) : y.contiguous();
    }
    const auto y = at::conv_transpose1d(x, weight, bias, st, zero, zero, 1, one);
    return y.narrow(-1, 0, y.size(-1) - (k - stride));  // a view: what follows reads rows in place
}

at::Tensor conv_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t stride,
                   int64_t dilation, int64_t groups, ConvStream* stream) {
    return causal_conv1d(x, w(prefix + ".conv.weight"), w(prefix + ".conv.bias"), stride, dilation, groups,
                         stream ? &(*stream)[prefix] : nullptr);
}

at::Tensor conv_transpose_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t stride,
                             ConvStream* stream) {
    return causal_conv_transpose1d(x, w(prefix + ".conv.weight"), w(prefix + ".conv.bias"), stride,
                                   stream ? &(*stream)[prefix] : nullptr);
}

at::Tensor snake_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x) {
    return snake(x, w(prefix + ".alpha"));
}

at::Tensor residual_unit(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t dilation,
                         ConvStream* stream) {
    const std::string b = prefix + ".block.";
    auto y = snake_at(w, b + "0", x);
    y = conv_at(w, b + "1", y, 1, dilation, 1, stream);
    y = snake_at(w, b + "2", y);
    y = conv_at(w, b + "3", y, 1, 1, 1, stream);
    return x + y;  // causal padding keeps the lengths equal: no crop
}

at::Tensor convnext_block(const CodecWeights& w, const std::string& prefix, const at::Tensor& x,
                          ConvStream* stream) {
    const int64_t dim = x.size(1);
    auto y = conv_at(w, prefix + ".dwconv", x, 1, 1, dim, stream);  // depthwise
    y = y.permute({0, 2, 1});                                // [B, C, L] -> [B, L, C]
    y = at::layer_norm(y, {dim}, w(prefix + ".norm.weight"), w(prefix + ".norm.bias"), 1e-6);
    y = at::linear(y, w(prefix + ".pwconv1.weight"), w(prefix + ".pwconv1.bias"));
    y = at::gelu(y);  // exact erf form (nn.GELU default)
    y = at::linear(y, w(prefix + ".pwconv2.weight"), w(prefix + ".pwconv2.bias"));
    y = w(prefix + ".gamma") * y;
    return x + y.permute({0, 2, 1});  // [B, L, C] -> [B, C, L]
}

}  // namespace reef
