#include "nn/sdpa_policy.h"

#include <c10/util/Exception.h>

#include "check.h"
#include "nn/attention.h"
#include "nn/reef_attention.h"

namespace reef {
namespace {

// Collects TORCH_WARN texts: libtorch explains why a fused kernel was rejected only as warnings.
class CollectWarnings : public c10::WarningHandler {
public:
    void process(const c10::Warning& w) override {
        if (!text.empty()) text += " ";
        text += w.msg();
    }
    std::string text;
};


}  // namespace

SdpaPolicy resolve_policy(SdpaPolicy policy, CompileMode mode) {
    if (policy != SdpaPolicy::FishSpeech) return policy;
    return mode == CompileMode::Eager ? SdpaPolicy::Auto : SdpaPolicy::Math;
}

SdpaPolicyGuard::SdpaPolicyGuard(SdpaPolicy policy, CompileMode mode) {
    auto& ctx = at::globalContext();
    m_flash = ctx.userEnabledFlashSDP();
    m_efficient = ctx.userEnabledMemEfficientSDP();
    m_math = ctx.userEnabledMathSDP();
    m_cudnn = ctx.userEnabledCuDNNSDP();
    m_overrideable = ctx.userEnabledOverrideableSDP();
    const SdpaPolicy p = resolve_policy(policy, mode);
    m_reef = set_reef_decode_attention(p == SdpaPolicy::Reef);
    if (p == SdpaPolicy::Auto || p == SdpaPolicy::Reef) {  // reef: libtorch's choice for the calls it does not take
        ctx.setSDPUseFlash(true);
        ctx.setSDPUseMemEfficient(true);
        ctx.setSDPUseMath(true);
        ctx.setSDPUseCuDNN(true);
        ctx.setSDPUseOverrideable(true);
        return;
    }
    // A forced policy enables exactly one backend, so an ineligible call fails loudly
    // instead of silently falling back to math.
    ctx.setSDPUseFlash(p == SdpaPolicy::Flash);
    ctx.setSDPUseMemEfficient(p == SdpaPolicy::Efficient);
    ctx.setSDPUseMath(p == SdpaPolicy::Math);
    ctx.setSDPUseCuDNN(p == SdpaPolicy::Cudnn);
    ctx.setSDPUseOverrideable(false);
}

SdpaPolicyGuard::~SdpaPolicyGuard() {
    set_reef_decode_attention(m_reef);
    auto& ctx = at::globalContext();
    ctx.setSDPUseFlash(m_flash);
    ctx.setSDPUseMemEfficient(m_efficient);
    ctx.setSDPUseMath(m_math);
    ctx.setSDPUseCuDNN(m_cudnn);
    ctx.setSDPUseOverrideable(m_overrideable);
}

SdpaBackend backend_from_choice(int64_t choice) {
    switch (choice) {
    case 0: return SdpaBackend::Math;
    case 1: return SdpaBackend::Flash;
    case 2: return SdpaBackend::Efficient;
    case 3: return SdpaBackend::Cudnn;
    case 4: return SdpaBackend::Overrideable;
    default: return SdpaBackend::Unknown;
    }
}

std::optional<std::string> sdpa_refusal(const AttentionProbe& p, SdpaBackend* choice) {
    CollectWarnings warnings;
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    try {
        const SdpaInputs in = sdpa_inputs(p.q, p.k, p.v, p.mask);  // the tensors attention() will run
        const int64_t c = at::_fused_sdp_choice(in.q, in.k, in.v, p.mask, 0.0, false, std::nullopt, in.enable_gqa);
        if (choice) *choice = backend_from_choice(c);
        return std::nullopt;
    } catch (const c10::Error& e) {
        return warnings.text.empty() ? std::string(e.what_without_backtrace()) : warnings.text;
    }
}

SdpaBackend probe_backend(const AttentionProbe& p, SdpaPolicy policy_for_message) {
    SdpaBackend choice = SdpaBackend::Unknown;
    if (const auto why = sdpa_refusal(p, &choice))
        throw ReefError(ErrorCode::BackendUnavailable,
                        std::string("SDPA backend '") + to_string(policy_for_message) + "' cannot run the " +
                            to_string(p.site) + " attention (q" + shape_string(p.q) + " k" + shape_string(p.k) + " " +
                            std::string(c10::toString(p.q.scalar_type())) + (p.mask ? ", masked" : "") + " on " +
                            p.q.device().str() + "): " + *why,
                        "choose the 'auto' or 'math' SDPA policy, or another KV mode");
    return choice;
}

}  // namespace reef
