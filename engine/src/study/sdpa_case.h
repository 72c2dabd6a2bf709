// One decode attention configuration of the SDPA bench, built from the engine's own decode pieces:
// a KvCache filled with random rows, attention_span() for the mask variant, and nn/attention() (GQA
// folding + the RecordFunction observer) for the call, so the bench times what decode runs.
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <string>
#include <vector>

#include "reef/sdpa_bench.h"
#include "text2semantic/kv_cache.h"

namespace reef {

// A single decode query at position W-1 over a cache of at least W rows.
struct DecodeAttentionCase {
    at::Tensor q;   // [1, Hq, 1, D]
    KvCache cache;  // one layer, [1, Hkv, C, D] (C rounded up to 8, as the engine's caches are)
    int64_t width = 0;
};

// q and `rows` cache rows ~ N(0, 1), drawn in fp32 on the CPU from `seed` (the same values on every
// device), then cast to dtype and moved. Unfilled rounding rows stay zero, as in the engine.
DecodeAttentionCase make_decode_case(const AttentionDims& dims, int64_t width, int64_t rows, at::ScalarType dtype,
                                     at::Device device, uint64_t seed);

// The tensors SDPA is handed for a mask variant (the engine's KvMode for it):
//   active: k, v = cache rows [0, W) (a view), no mask;
//   full:   k, v = all C rows, mask [1, 1, 1, C] bool admitting rows [0, W).
struct DecodeAttentionCall {
    at::Tensor q, k, v;              // [1, Hq, 1, D], [1, Hkv, L, D]
    std::optional<at::Tensor> mask;  // [1, 1, 1, L] bool, true = attend
};
DecodeAttentionCall decode_call(const DecodeAttentionCase& c, SdpaBenchMask mask);

// warmup + iters calls of attention() with only `backend` enabled. ran = false with libtorch's
// reason when the preflight probe (or the call itself) refuses; observed = the kernel op seen.
struct TimedAttention {
    bool ran = false;
    std::string reason;
    SdpaBackend observed = SdpaBackend::Unknown;
    std::vector<double> ms;  // one per timed call
    at::Tensor out;          // [1, Hq, 1, D], the last call's output
};
TimedAttention time_attention(CallSite site, const DecodeAttentionCall& call, SdpaBackend backend, int warmup,
                              int iters);

// The SDPA policy that forces exactly this backend.
SdpaPolicy policy_for(SdpaBackend backend);

}  // namespace reef
