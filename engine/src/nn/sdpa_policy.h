// SDPA policy (docs/architecture.md): an RAII guard over libtorch's process-wide SDPA flags, and the
// preflight that asks libtorch which backend each attention call site would use.
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <string>
#include <vector>

#include "reef/engine_types.h"

namespace reef {

// The policy as it resolves for a compile mode (fish-speech = MATH when compiled, auto when eager).
SdpaPolicy resolve_policy(SdpaPolicy policy, CompileMode mode);

// Sets the global flags for a policy and restores the previous ones on destruction ("reef": the
// decode call sites to Reef's kernel, nn/reef_attention.h, libtorch's flags as for auto).
// The flags are process-wide (not thread-local): construct it only on the engine thread.
class SdpaPolicyGuard {
public:
    SdpaPolicyGuard(SdpaPolicy policy, CompileMode mode);
    ~SdpaPolicyGuard();
    SdpaPolicyGuard(const SdpaPolicyGuard&) = delete;
    SdpaPolicyGuard& operator=(const SdpaPolicyGuard&) = delete;

private:
    bool m_flash, m_efficient, m_math, m_cudnn, m_overrideable, m_reef;
};

// Maps at::_fused_sdp_choice's integer to our enum (-1 error, 0 math, 1 flash, 2 efficient,
// 3 cudnn, 4 overrideable: the values of Python's SDPBackend).
SdpaBackend backend_from_choice(int64_t choice);

// One attention call with the real shapes and dtype (tensors may be empty placeholders of that shape).
struct AttentionProbe {
    CallSite site;
    at::Tensor q, k, v;               // [B, Hq, Lq, D], [B, Hkv, Lk, D]
    std::optional<at::Tensor> mask;   // bool, true = attend
};

// libtorch's own reason why no enabled backend can run this call under the current flags (its
// TORCH_WARN explanations, else its error text); nullopt when one can, with its choice in *choice.
std::optional<std::string> sdpa_refusal(const AttentionProbe& probe, SdpaBackend* choice = nullptr);

// Which backend libtorch would choose under the current flags; throws ReefError(BackendUnavailable)
// naming the call site, the requested policy and libtorch's reasons when none is viable.
SdpaBackend probe_backend(const AttentionProbe& probe, SdpaPolicy policy_for_message);

}  // namespace reef
