#include "text2semantic/quantize_int4.h"

#include <string>

#include "check.h"
#include "nn/linear.h"

namespace reef {

Int4Weight quantize_group_int4(const at::Tensor& w_in, int64_t group) {
    REEF_CHECK(w_in.dim() == 2 && at::isFloatingType(w_in.scalar_type()), "quantize_group_int4: needs a float [N, K]");
    const int64_t n = w_in.size(0), k = w_in.size(1);
    if (!int4_group_supported(group) || k % group != 0)
        throw ReefError(ErrorCode::InvalidArgument,
                        "int4 group size " + std::to_string(group) + " does not divide a projection's " + std::to_string(k) +
                            " inputs (32, 64, 128 or 256 that divides every projection's inputs)");
    // quantize.py quantizes the bf16 model's weight in bf16 (weight.to(torch.bfloat16))
    const at::Tensor to_quant = w_in.to(at::kBFloat16).reshape({-1, group});  // [N·K/g, g]
    if (!at::isfinite(to_quant).all().item<bool>())
        throw ReefError(ErrorCode::CorruptModel, "a weight to quantize holds a value that is not finite");
    // get_group_qparams, in bf16 as it runs there
    const at::Tensor max_val = std::get<0>(at::max(to_quant, 1, true)), min_val = std::get<0>(at::min(to_quant, 1, true));
    const at::Tensor scales = at::clamp_min(max_val - min_val, 1e-6) / 15;  // [N·K/g, 1] bf16
    const at::Tensor zeros = min_val + scales * 8;
    // group_quantize_tensor_from_qparams
    const at::Tensor min_q = zeros - scales * 8;
    const at::Tensor q = at::clamp(at::round((to_quant - min_q) / scales), 0, 15).to(at::kByte).reshape({n, k});
    // two a byte: even columns in the low nibble, odd ones in the high
    using at::indexing::Slice;
    const at::Tensor packed = at::bitwise_or(q.index({Slice(), Slice(0, at::indexing::None, 2)}),
                                             at::bitwise_left_shift(q.index({Slice(), Slice(1, at::indexing::None, 2)}), 4));
    return {packed.contiguous(), scales.reshape({n, k / group}).contiguous(), zeros.reshape({n, k / group}).contiguous()};
}

}  // namespace reef
