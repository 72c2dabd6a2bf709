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
// Channels-last x ([B, C, L] with the C values of a sample adjacent, as the CPU convolutions
// leave it): rows of C samples, the output in the same layout.
at::Tensor snake_channels_last(const at::Tensor& x, const at::Tensor& alpha, bool bf16) {
    const int64_t batch = x.size(0), channels = x.size(1), length = x.size(2);
    const at::Tensor a = alpha.to(at::kCPU, at::kFloat).contiguous().view({-1});  // [C]
    const at::Tensor inv = (a + 1e-9f).reciprocal();                                // dac's +1e-9 and reciprocal
    at::Tensor y = at::empty({batch, length, channels}, x.options());               // [B, L, C]
    const float *ap = a.const_data_ptr<float>(), *ip = inv.const_data_ptr<float>();
    const auto* base = static_cast<const char*>(x.const_data_ptr());
    auto* out = static_cast<char*>(y.mutable_data_ptr());
    const int64_t elem = int64_t(x.element_size());
    for (int64_t b = 0; b < batch; ++b) {
        at::parallel_for(0, length, 256, [&](int64_t l0, int64_t l1) {
            const char* in = base + (b * x.stride(0) + l0 * x.stride(2)) * elem;
            char* o = out + (b * length + l0) * channels * elem;
            if (bf16)
                kernels::snake_rows_channels_last(reinterpret_cast<const uint16_t*>(in), l1 - l0, channels, x.stride(2), ap,
                                                  ip, reinterpret_cast<uint16_t*>(o));
            else
                kernels::snake_rows_channels_last(reinterpret_cast<const float*>(in), l1 - l0, channels, x.stride(2), ap,
                                                  ip, reinterpret_cast<float*>(o));
        });
    }
    return y.permute({0, 2, 1});  // [B, C, L], channels-last
}

bool snake_rows(const at::Tensor& x, const at::Tensor& alpha, at::Tensor& y) {
    const bool bf16 = x.scalar_type() == at::kBFloat16;
    if (!x.device().is_cpu() || x.dim() != 3 || alpha.numel() != x.size(1) || (!bf16 && x.scalar_type() != at::kFloat))
        return false;
    if (x.size(1) > 1 && x.stride(1) == 1 && x.stride(2) >= x.size(1)) {
        y = snake_channels_last(x, alpha, bf16);
        return true;
    }
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

namespace {

// A 1-D convolution as the 2-D one over [B, C, 1, L] views: ATen's conv1d takes another route
// for channels-last tensors (measured 2-4x slower than this on the AMX Xeon), while conv2d hands
// channels-last input and weights to oneDNN as they are. The weights are channels-last on the CPU
// (codec.cpp), so the outputs are too, and the decoder's activations stay in that layout.
at::Tensor conv_2d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride, int64_t pad,
                   int64_t dilation, int64_t groups) {
    const std::vector<int64_t> st{1, stride}, pd{0, pad}, dil{1, dilation};
    return at::conv2d(x.unsqueeze(2), weight.unsqueeze(2), bias, st, pd, dil, groups).squeeze(2);
}

at::Tensor conv_transpose_2d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride) {
    const std::vector<int64_t> st{1, stride}, zero{0, 0}, one{1, 1};
    return at::conv_transpose2d(x.unsqueeze(2), weight.unsqueeze(2), bias, st, zero, zero, 1, one).squeeze(2);
}

}  // namespace

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
        return conv_2d(joined, weight, bias, 1, 0, dilation, groups);
    }
    const int64_t pad = k_eff - stride;
    const int64_t length = x.size(-1);
    // get_extra_padding_for_conv1d, in the same float arithmetic as fish-speech.
    const double n_frames = double(length - k_eff + pad) / double(stride) + 1.0;
    const int64_t ideal = (int64_t(std::ceil(n_frames)) - 1) * stride + (k_eff - pad);
    const int64_t extra = ideal - length;
    REEF_CHECK(pad >= 0 && extra >= 0, "causal conv padding must be non-negative");
    if (extra <= pad) {
        // The convolution's own zero padding, `pad` on both sides, instead of a padded copy of x:
        // output j starts its window at j·stride − pad either way, so the causal outputs are the
        // first ceil(length / stride) of these (the right padding holds the `extra` zeros).
        const at::Tensor y = conv_2d(x, weight, bias, stride, pad, dilation, groups);
        return y.narrow(-1, 0, (length + pad + extra - k_eff) / stride + 1);
    }
    const auto padded = at::constant_pad_nd(x, {pad, extra}, 0.0);
    return conv_2d(padded, weight, bias, stride, 0, dilation, groups);
}

at::Tensor causal_conv_transpose1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                   int64_t stride, at::Tensor* state) {
    // x: [B, C_in, L] -> full [B, C_out, (L-1)*s + k] -> trim (k - s) on the right -> [B, C_out, L*s]
    const int64_t k = weight.size(2);
    if (state) {
        // Without bias, so the overlap of two chunks holds the bias once; the trimmed tail of the
        // previous chunk belongs to this chunk's first k − s samples.
        REEF_CHECK(k >= stride, "streaming transposed conv needs kernel >= stride");
        at::Tensor y = conv_transpose_2d(x, weight, {}, stride);  // [B, C_out, (L-1)s + k]
        const int64_t out = x.size(-1) * stride, overlap = k - stride;
        if (overlap > 0 && state->defined()) y.narrow(-1, 0, overlap).add_(*state);
        if (overlap > 0) *state = y.narrow(-1, out, overlap).clone();
        y = y.narrow(-1, 0, out);
        return bias.defined() ? y + bias.view({1, -1, 1}) : y.contiguous();
    }
    const auto y = conv_transpose_2d(x, weight, bias, stride);
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
