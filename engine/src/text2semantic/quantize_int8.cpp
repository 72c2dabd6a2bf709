#include "text2semantic/quantize_int8.h"

#include <limits>

#include "check.h"

namespace reef {

Int8Weight quantize_per_channel_int8(const at::Tensor& w_in, at::ScalarType scale_dtype) {
    REEF_CHECK(w_in.dim() == 2 && at::isFloatingType(w_in.scalar_type()), "quantize_per_channel_int8: needs a float [N, K]");
    // quantize.py quantizes mod.weight.float() of a model loaded in bf16
    const at::Tensor w = w_in.to(at::kBFloat16).to(at::kFloat);
    const auto [min_val, max_val] = at::aminmax(w, 1);                          // [N], [N]
    const at::Tensor max_pos = at::maximum(-at::clamp_max(min_val, 0), at::clamp_min(max_val, 0));
    // (quant_max - quant_min) / 2 = 255 / 2; the eps floor keeps an all-zero row finite
    const at::Tensor scales = at::clamp_min(max_pos / 127.5, std::numeric_limits<float>::epsilon());  // [N] fp32
    const at::Tensor q = at::clamp(at::round(w / scales.unsqueeze(-1)), -128, 127).to(at::kChar);      // [N, K]
    return {q.contiguous(), scales.to(scale_dtype)};
}

}  // namespace reef
