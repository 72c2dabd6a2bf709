#include "study/sdpa_case.h"

#include <torch/cuda.h>

#include <algorithm>
#include <chrono>

#include "check.h"
#include "nn/attention.h"
#include "nn/reef_attention.h"
#include "nn/sdpa_policy.h"

namespace reef {

DecodeAttentionCase make_decode_case(const AttentionDims& dims, int64_t width, int64_t rows, at::ScalarType dtype,
                                     at::Device device, uint64_t seed) {
    REEF_CHECK(width >= 1 && rows >= width, "make_decode_case: the cache must hold the width");
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    const auto f32 = at::TensorOptions().dtype(at::kFloat);
    auto draw = [&](at::IntArrayRef sizes) { return at::randn(sizes, gen, f32).to(device, dtype); };
    DecodeAttentionCase c;
    c.width = width;
    c.q = draw({1, dims.n_head, 1, dims.head_dim});                                       // [1, Hq, 1, D]
    c.cache = KvCache(1, dims.n_kv_heads, dims.head_dim, rows, at::TensorOptions().dtype(dtype).device(device));
    const at::Tensor k = draw({1, dims.n_kv_heads, rows, dims.head_dim});                 // [1, Hkv, rows, D]
    const at::Tensor v = draw({1, dims.n_kv_heads, rows, dims.head_dim});
    c.cache.update(0, 0, k, v);
    return c;
}

DecodeAttentionCall decode_call(const DecodeAttentionCase& c, SdpaBenchMask mask) {
    // The query sits at position W-1, so the decode span covers keys 0..W-1 either way.
    const KvMode mode = mask == SdpaBenchMask::Full ? KvMode::Full : KvMode::ActivePrefix;
    const AttentionSpan span = attention_span(mode, c.width - 1, 1, c.cache.capacity(), c.q.device());
    return {c.q, c.cache.keys(0, span.kv_len), c.cache.values(0, span.kv_len), span.mask};
}

SdpaPolicy policy_for(SdpaBackend backend) {
    switch (backend) {
    case SdpaBackend::Math: return SdpaPolicy::Math;
    case SdpaBackend::Flash: return SdpaPolicy::Flash;
    case SdpaBackend::Efficient: return SdpaPolicy::Efficient;
    case SdpaBackend::Cudnn: return SdpaPolicy::Cudnn;
    case SdpaBackend::Reef: return SdpaPolicy::Reef;
    default: break;
    }
    throw ReefError(ErrorCode::InvalidArgument, std::string("sdpa-bench: cannot force backend '") + to_string(backend) + "'",
                    "use math, flash, efficient, cudnn or reef");
}

TimedAttention time_attention(CallSite site, const DecodeAttentionCall& call, SdpaBackend backend, int warmup,
                              int iters) {
    TimedAttention t;
    const bool cuda = call.q.is_cuda();
    // Forced: exactly one backend enabled, so an ineligible call is refused instead of falling back.
    SdpaPolicyGuard guard(policy_for(backend), CompileMode::Eager);
    // Reef's own kernel answers for itself; every other backend: the engine's preflight, libtorch's
    // selector with these exact tensors and flags.
    if (backend == SdpaBackend::Reef) {
        if (const std::string why = reef_attention_refusal(fold_gqa_decode(call.q, call.k), call.k, call.v, call.mask);
            !why.empty()) {
            t.reason = "reef: " + why;
            return t;
        }
    } else if (const auto why = sdpa_refusal(AttentionProbe{site, call.q, call.k, call.v, call.mask})) {
        t.reason = "libtorch: " + *why;
        return t;
    }
    auto& recorder = BackendRecorder::current();
    try {
        for (int i = 0; i < warmup + iters; ++i) {
            // Kernels are asynchronous on CUDA: drain the queue before and after, time the call alone.
            if (cuda) torch::cuda::synchronize();
            const auto t0 = std::chrono::steady_clock::now();
            t.out = attention(site, call.q, call.k, call.v, call.mask);  // [1, Hq, 1, D]
            if (cuda) torch::cuda::synchronize();
            const auto t1 = std::chrono::steady_clock::now();
            const SdpaBackend seen = recorder.last(site);
            if (i == 0) t.observed = seen;
            if (seen != t.observed) {
                t.reason = std::string("the observed kernel changed between calls (") + to_string(t.observed) + " then " +
                           to_string(seen) + ")";
                return t;
            }
            if (i >= warmup) t.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
    } catch (const c10::Error& e) {  // the probe said yes but the kernel refused: report libtorch's words
        t.reason = std::string("libtorch: ") + e.what_without_backtrace();
        t.ms.clear();
        return t;
    }
    t.ran = true;
    return t;
}

}  // namespace reef
