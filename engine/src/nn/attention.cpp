#include "nn/attention.h"

#include <ATen/Context.h>
#include <ATen/record_function.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "check.h"
#include "nn/gemv_team.h"
#include "nn/reef_attention.h"

namespace reef {
namespace {

std::string describe(const at::Tensor& q, const at::Tensor& k) { return describe_call(q.sizes(), k.sizes(), q.scalar_type()); }

// The attention call in flight on this thread: the dispatcher's RecordFunction names the SDPA
// kernel that SDPA itself chose, and on_op_start records it against this call's site.
struct PendingCall {
    CallSite site;
    const at::Tensor* q;
    const at::Tensor* k;
    bool seen = false;
};
thread_local PendingCall* t_pending = nullptr;

std::unique_ptr<at::ObserverContext> on_op_start(const at::RecordFunction& fn) {
    PendingCall* call = t_pending;
    if (call == nullptr || call->seen) return nullptr;  // the first SDPA kernel under the call is the one chosen
    const SdpaBackend backend = backend_from_op_name(fn.name());
    if (backend != SdpaBackend::Unknown) {
        call->seen = true;
        BackendRecorder::current().record(call->site, backend, *call->q, *call->k);
    }
    return nullptr;
}

// Observes the ops of one SDPA call (thread-local, FUNCTION scope only), so ops outside attention
// never pay for the callback.
class ScopedObserver {
public:
    explicit ScopedObserver(PendingCall& call)
        : m_handle(at::addThreadLocalCallback(
              at::RecordFunctionCallback(&on_op_start).scopes({at::RecordScope::FUNCTION}))) {
        t_pending = &call;
    }
    ~ScopedObserver() {
        t_pending = nullptr;
        at::removeCallback(m_handle);
    }
    ScopedObserver(const ScopedObserver&) = delete;
    ScopedObserver& operator=(const ScopedObserver&) = delete;

private:
    at::CallbackHandle m_handle;
};

}  // namespace

SdpaBackend backend_from_op_name(const char* name) {
    static constexpr std::pair<const char*, SdpaBackend> kOps[] = {
        {"aten::_scaled_dot_product_flash_attention_for_cpu", SdpaBackend::Flash},
        {"aten::_scaled_dot_product_flash_attention", SdpaBackend::Flash},
        {"aten::_scaled_dot_product_efficient_attention", SdpaBackend::Efficient},
        {"aten::_scaled_dot_product_cudnn_attention", SdpaBackend::Cudnn},
        {"aten::_scaled_dot_product_fused_attention_overrideable", SdpaBackend::Overrideable},
        {"aten::_scaled_dot_product_attention_math", SdpaBackend::Math},  // also ..._math_for_mps
    };
    if (name == nullptr) return SdpaBackend::Unknown;
    const std::string_view n(name);
    for (const auto& [op, backend] : kOps)
        if (n.rfind(op, 0) == 0) return backend;
    return SdpaBackend::Unknown;
}

// Appends in place: `literal + std::string&&` here draws GCC 12's false -Wstringop-overflow.
std::string shape_string(at::IntArrayRef sizes) {
    std::string s = "[";
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(sizes[i]);
    }
    s += ']';
    return s;
}

std::string shape_string(const at::Tensor& t) { return shape_string(t.sizes()); }

std::string describe_call(at::IntArrayRef q, at::IntArrayRef k, at::ScalarType dtype) {
    std::string s = "q";
    s += shape_string(q);
    s += " k";
    s += shape_string(k);
    s += ' ';
    s += c10::toString(dtype);
    return s;
}

at::Tensor fold_gqa_decode(const at::Tensor& q, const at::Tensor& k) {
    const int64_t hq = q.size(1), hkv = k.size(1);
    if (q.size(2) != 1 || hq == hkv) return q;
    REEF_CHECK(hq % hkv == 0, "attention: query heads must be a multiple of the KV heads");
    // SDPA's GQA pairs query head h with KV head h / G, so consecutive query heads share a KV head
    return q.reshape({q.size(0), hkv, hq / hkv, q.size(3)});  // [B, Hkv, G, D]
}

SdpaInputs sdpa_inputs(const at::Tensor& q_in, const at::Tensor& k, const at::Tensor& v,
                       const std::optional<at::Tensor>& mask) {
    // A decode mask is [.., 1, Lk]: it broadcasts over the folded query rows unchanged.
    SdpaInputs in{fold_gqa_decode(q_in, k), k, v, false};
    if (in.q.size(1) == k.size(1)) return in;
    in.enable_gqa = true;
    // libtorch's selector: 0 = math; an exception = nothing viable under the current flags
    auto choice = [&](const at::Tensor& kk, const at::Tensor& vv, bool gqa) -> int64_t {
        try {
            return at::_fused_sdp_choice(in.q, kk, vv, mask, 0.0, false, std::nullopt, gqa);
        } catch (const c10::Error&) {
            return -1;
        }
    };
    if (choice(k, v, true) > 0) return in;  // a fused kernel takes GQA natively
    const auto& ctx = at::globalContext();
    if (!ctx.userEnabledFlashSDP() && !ctx.userEnabledMemEfficientSDP() && !ctx.userEnabledCuDNNSDP())
        return in;  // MATH only (forced): no copies to try
    const int64_t g = in.q.size(1) / k.size(1);
    at::Tensor k_rep = k.repeat_interleave(g, 1), v_rep = v.repeat_interleave(g, 1);  // [B, Hq, Lk, D]
    if (choice(k_rep, v_rep, false) > 0) return {in.q, std::move(k_rep), std::move(v_rep), false};
    return in;  // math either way: native GQA, no copies
}

namespace {

// Inside a decode step's GemvTeam (nn/gemv_team.h) libtorch's ops run on the step's thread alone,
// so one SDPA over a long cache would leave the other cores idle. A folded decode query
// ([B, Hkv, G, D] against [B, Hkv, Lk, D]) attends per KV head, independently: the team's threads
// each run the same SDPA (same flags, same selected kernel) on their share of the KV heads. The
// team's step thread observes its share's kernel, as attention() does for the whole call.
// The team to split this call across, or null where it runs whole.
GemvTeam::State* split_team(const SdpaInputs& in, const std::optional<at::Tensor>& mask) {
    GemvTeam::State* team = gemv_team::active();
    if (team == nullptr || gemv_team::threads(*team) < 2 || in.enable_gqa || !in.q.device().is_cpu()) return nullptr;
    if (in.q.dim() != 4 || in.q.size(1) != in.k.size(1) || in.q.size(1) < 2) return nullptr;
    const bool shared_mask = !mask || mask->dim() < 3 || mask->size(-3) == 1;  // a mask with a head dim of its own: whole
    return shared_mask ? team : nullptr;
}

at::Tensor sdpa(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const std::optional<at::Tensor>& mask,
                bool enable_gqa) {
    return at::scaled_dot_product_attention(q, k, v, mask, 0.0, false, std::nullopt, enable_gqa);
}

}  // namespace

at::Tensor attention(CallSite site, const at::Tensor& q_in, const at::Tensor& k, const at::Tensor& v,
                     const std::optional<at::Tensor>& mask) {
    const bool decode = (site == CallSite::SlowDecode || site == CallSite::FastDecode) && q_in.dim() == 4 && q_in.size(2) == 1;
    if (decode && reef_decode_attention_on()) {  // the "reef" policy (nn/reef_attention.h)
        const at::Tensor q = fold_gqa_decode(q_in, k);  // [B, Hkv, G, D]
        if (reef_attention_refusal(q, k, v, mask).empty()) {
            const at::Tensor y = reef_decode_attention(q, k, v, mask);
            BackendRecorder::current().record(site, SdpaBackend::Reef, q_in, k);
            return y.reshape({q_in.size(0), q_in.size(1), 1, v.size(3)});  // [B, Hq, 1, Dv]
        }
    }
    const SdpaInputs in = sdpa_inputs(q_in, k, v, mask);
    const at::Tensor& q = in.q;
    PendingCall call{site, &q_in, &k};  // reported in the model's shapes
    at::Tensor y;
    if (GemvTeam::State* team = split_team(in, mask)) {
        const int64_t heads = q.size(1), parts = std::min<int64_t>(gemv_team::threads(*team), heads);
        y = at::empty({q.size(0), heads, q.size(2), in.v.size(3)}, q.options());  // [B, Hkv, G, Dv]
        gemv_team::run_each(*team, [&](int t) {
            if (t >= parts) return;
            const int64_t h0 = heads * t / parts, h = heads * (t + 1) / parts - h0;
            std::optional<ScopedObserver> observe;  // on the step's thread: its recorder, its callback
            if (t == 0) observe.emplace(call);
            y.narrow(1, h0, h).copy_(sdpa(q.narrow(1, h0, h), in.k.narrow(1, h0, h), in.v.narrow(1, h0, h), mask, false));
        });
    } else {
        ScopedObserver observe(call);
        y = sdpa(q, in.k, in.v, mask, in.enable_gqa);
    }
    if (!call.seen) BackendRecorder::current().record(site, SdpaBackend::Unknown, q_in, k);  // no SDPA kernel op seen
    return q.sizes() == q_in.sizes() ? y : y.reshape({q_in.size(0), q_in.size(1), 1, v.size(3)});  // [B, Hq, 1, Dv]
}

BackendRecorder::Entry* BackendRecorder::find(CallSite site, SdpaBackend backend, bool compiled, int64_t kv_len,
                                               int64_t calls) {
    m_last[size_t(site)] = backend;
    for (auto& e : m_sites[size_t(site)])
        if (e.backend == backend && e.compiled == compiled) {
            e.calls += calls;
            e.kv_len_min = std::min(e.kv_len_min, kv_len);
            e.kv_len_max = std::max(e.kv_len_max, kv_len);
            return &e;
        }
    return nullptr;
}

void BackendRecorder::record(CallSite site, SdpaBackend backend, const at::Tensor& q, const at::Tensor& k) {
    record(site, backend, k.size(2), [&] { return describe(q, k); });  // k: [B, Hkv, Lk, D]
}

void BackendRecorder::record(CallSite site, SdpaBackend backend, int64_t kv_len,
                             const std::function<std::string()>& shape) {
    if (Entry* e = find(site, backend, false, kv_len, 1)) {
        if (e->calls % 64 == 1) e->shape = shape();  // keep the string cost off most steps
        return;
    }
    m_sites[size_t(site)].push_back({backend, 1, shape(), kv_len, kv_len, false});
}

void BackendRecorder::record_compiled(CallSite site, SdpaBackend backend, const std::string& shape, int64_t kv_len,
                                      int64_t calls) {
    if (Entry* e = find(site, backend, true, kv_len, calls)) {
        e->shape = shape;
        return;
    }
    m_sites[size_t(site)].push_back({backend, calls, shape, kv_len, kv_len, true});
}

void BackendRecorder::reset() {
    for (auto& e : m_sites) e.clear();
    m_last.fill(SdpaBackend::Unknown);
}

std::vector<BackendUse> BackendRecorder::uses() const {
    std::vector<BackendUse> out;
    for (int s = 0; s < kNumCallSites; ++s)
        for (const auto& e : m_sites[size_t(s)])
            out.push_back({CallSite(s), e.backend, e.calls, e.shape, e.kv_len_min, e.kv_len_max, e.compiled});
    return out;
}

SdpaBackend BackendRecorder::last(CallSite site) const { return m_last[size_t(site)]; }

void BackendRecorder::absorb(const std::vector<BackendUse>& uses) {
    for (const BackendUse& u : uses) {
        if (Entry* e = find(u.site, u.backend, u.compiled, u.kv_len_min, u.calls)) {
            e->kv_len_max = std::max(e->kv_len_max, u.kv_len_max);
            continue;
        }
        m_sites[size_t(u.site)].push_back({u.backend, u.calls, u.shape, u.kv_len_min, u.kv_len_max, u.compiled});
    }
}

BackendRecorder& BackendRecorder::current() {
    thread_local BackendRecorder recorder;
    return recorder;
}

}  // namespace reef
