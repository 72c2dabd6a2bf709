#include "runtime/attention.h"

#include <c10/util/Exception.h>

#include "check.h"
#include "runtime/sdpa_policy.h"

namespace reef {
namespace {

std::string describe(const at::Tensor& q, const at::Tensor& k) {
    return "q" + shape_string(q) + " k" + shape_string(k) + " " + std::string(c10::toString(q.scalar_type()));
}

}  // namespace

std::string shape_string(const at::Tensor& t) {
    std::string s = "[";
    for (int64_t i = 0; i < t.dim(); ++i) s += (i ? "," : "") + std::to_string(t.size(i));
    return s + "]";
}

at::Tensor attention(CallSite site, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     const std::optional<at::Tensor>& mask) {
    const bool gqa = q.size(1) != k.size(1);
    // _fused_sdp_choice runs exactly the selection that SDPA runs with these tensors and flags,
    // so what we record is what ran (libtorch-notes §1.3).
    int64_t choice = -1;
    try {
        choice = at::_fused_sdp_choice(q, k, v, mask, 0.0, false, std::nullopt, gqa);
    } catch (const c10::Error&) {
        // Let SDPA itself raise the full error below; preflight normally catches this earlier.
    }
    BackendRecorder::current().record(site, backend_from_choice(choice), q, k);
    return at::scaled_dot_product_attention(q, k, v, mask, 0.0, false, std::nullopt, gqa);
}

void BackendRecorder::record(CallSite site, SdpaBackend backend, const at::Tensor& q, const at::Tensor& k) {
    auto& entries = m_sites[size_t(site)];
    m_last[size_t(site)] = backend;
    for (auto& e : entries)
        if (e.backend == backend) {
            ++e.calls;
            if (e.calls % 64 == 1) e.shape = describe(q, k);  // keep the string cost off most steps
            return;
        }
    entries.push_back({backend, 1, describe(q, k)});
}

void BackendRecorder::reset() {
    for (auto& e : m_sites) e.clear();
    m_last.fill(SdpaBackend::Unknown);
}

std::vector<BackendUse> BackendRecorder::uses() const {
    std::vector<BackendUse> out;
    for (int s = 0; s < kNumCallSites; ++s)
        for (const auto& e : m_sites[size_t(s)]) out.push_back({CallSite(s), e.backend, e.calls, e.shape});
    return out;
}

SdpaBackend BackendRecorder::last(CallSite site) const { return m_last[size_t(site)]; }

BackendRecorder& BackendRecorder::current() {
    thread_local BackendRecorder recorder;
    return recorder;
}

}  // namespace reef
