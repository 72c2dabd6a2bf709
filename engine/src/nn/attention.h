// The one attention entry point of the engine: every call site (slow prefill, slow decode, fast
// decode, codec window) goes through here so the backend that ran is recorded per site — observed
// from the dispatcher (the SDPA kernel op that actually runs), not predicted by the selector.
#pragma once
#include <ATen/ATen.h>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reef/engine_types.h"

namespace reef {

// q: [B, Hq, Lq, D]; k, v: [B, Hkv, Lk, D] with Hq % Hkv == 0 (GQA decode is folded, other GQA
// goes through sdpa_inputs below); mask: bool, broadcastable to
// [B, Hq, Lq, Lk], true = attend. Scale is 1/sqrt(D). Returns [B, Hq, Lq, D].
at::Tensor attention(CallSite site, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     const std::optional<at::Tensor>& mask = std::nullopt);

// One decode query with GQA (Lq = 1, Hq = G·Hkv): q [B, Hq, 1, D] -> [B, Hkv, G, D], the G query
// heads of each KV head laid along the query length, so SDPA attends without repeating K/V heads
// (the math path would otherwise copy K and V G-fold on every call). The same dot products;
// attention() runs it and the preflight probes it. Other shapes come back unchanged.
at::Tensor fold_gqa_decode(const at::Tensor& q, const at::Tensor& k);

// The tensors one SDPA call receives for attention(q, k, v, mask) under the current SDPA flags:
// decode folded (fold_gqa_decode); other GQA through SDPA's enable_gqa where libtorch's selector
// finds a fused kernel for it, otherwise with K/V repeated per query head, as fish-speech's own
// Attention does, when that lets a fused kernel run (libtorch 2.8's CPU flash kernel has no native
// GQA). The preflight probes exactly these tensors.
struct SdpaInputs {
    at::Tensor q, k, v;   // q [B, H, Lq, D]; k, v [B, H or Hkv, Lk, D]
    bool enable_gqa = false;
};
SdpaInputs sdpa_inputs(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                       const std::optional<at::Tensor>& mask);

// The backend an SDPA kernel op belongs to, from its dispatcher name (what RecordFunction sees,
// e.g. "aten::_scaled_dot_product_flash_attention_for_cpu" -> Flash); Unknown for other ops.
SdpaBackend backend_from_op_name(const char* name);

// "[1,32,1,128]": a tensor's sizes, for backend reports and error messages.
std::string shape_string(const at::Tensor& t);
std::string shape_string(at::IntArrayRef sizes);
// "q[1,32,1,128] k[1,8,300,128] BFloat16": an attention call as the backend report names it
std::string describe_call(at::IntArrayRef q, at::IntArrayRef k, at::ScalarType dtype);

// Records which backend each call site used. One recorder per engine thread (generation, codec worker).
class BackendRecorder {
public:
    void record(CallSite site, SdpaBackend backend, const at::Tensor& q, const at::Tensor& k);
    // The same for a call whose q and k were never made as tensors (the fused decode step): shape()
    // gives describe(q, k)'s string, called only when the entry keeps a new one.
    void record(CallSite site, SdpaBackend backend, int64_t kv_len, const std::function<std::string()>& shape);
    // `calls` attention calls inside one call of compiled code (one per layer), whose backend was
    // read from its package: shape as in record(), kv_len = key rows attended.
    void record_compiled(CallSite site, SdpaBackend backend, const std::string& shape, int64_t kv_len, int64_t calls);
    void reset();
    // Adds uses recorded by another thread's recorder (the codec worker's), as if recorded here.
    void absorb(const std::vector<BackendUse>& uses);
    std::vector<BackendUse> uses() const;     // one entry per (site, backend) seen
    SdpaBackend last(CallSite site) const;
    static BackendRecorder& current();        // thread-local

private:
    struct Entry {
        SdpaBackend backend = SdpaBackend::Unknown;
        int64_t calls = 0;
        std::string shape;
        int64_t kv_len_min = 0, kv_len_max = 0;
        bool compiled = false;
    };
    Entry* find(CallSite site, SdpaBackend backend, bool compiled, int64_t kv_len, int64_t calls);
    std::array<std::vector<Entry>, kNumCallSites> m_sites;
    std::array<SdpaBackend, kNumCallSites> m_last{};
};

}  // namespace reef
