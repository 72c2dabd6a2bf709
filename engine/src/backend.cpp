// The defaults of TtsBackend's optional parts: each says, as an error value, that this backend
// does not do it, or (synthesize_batch) does it the plain way (Engine overrides them all).
#include "reef/backend.h"

namespace reef {

EngineError TtsBackend::not_available(const std::string& what) {
    return EngineError{ErrorCode::BackendUnavailable, what + " is not available with this backend", {}};
}

std::vector<Result<SynthesisResult>> TtsBackend::synthesize_batch(const std::vector<SynthesisRequest>& requests, int,
                                                                  const Callbacks& callbacks,
                                                                  const std::function<bool(uint64_t)>& cancel_request,
                                                                  const RequestDone& on_done) {
    return synthesize_each(requests, callbacks, cancel_request, on_done,
                           [this](const SynthesisRequest& r, const Callbacks& cb) { return synthesize(r, cb); });
}

std::vector<Result<SynthesisResult>> synthesize_each(
    const std::vector<SynthesisRequest>& requests, const Callbacks& callbacks,
    const std::function<bool(uint64_t)>& cancel_request, const RequestDone& on_done,
    const std::function<Result<SynthesisResult>(const SynthesisRequest&, const Callbacks&)>& run) {
    std::vector<Result<SynthesisResult>> out;
    for (const SynthesisRequest& r : requests) {
        out.push_back(run(r, request_callbacks(callbacks, cancel_request, r.id)));
        if (on_done) on_done(r.id, out.back());
    }
    return out;
}

Callbacks request_callbacks(const Callbacks& callbacks, const std::function<bool(uint64_t)>& cancel_request,
                            uint64_t request_id) {
    Callbacks cb = callbacks;
    if (cancel_request)
        cb.should_abort = [abort = callbacks.should_abort, cancel_request, request_id] {
            return (abort && abort()) || cancel_request(request_id);
        };
    return cb;
}

Result<std::vector<float>> TtsBackend::decode_codes(const Codes&) { return not_available("decoding codes to audio"); }

Result<CompiledPackageInfo> TtsBackend::compile_decode_step(const std::function<void(const std::string&)>&,
                                                            const std::function<bool()>&) {
    return not_available("compiling the decode step (compile mode aot-inductor)");
}

Result<BenchReport> TtsBackend::bench(const BenchRequest&, const std::function<void(int, const std::string&)>&,
                                      const std::function<bool()>&) {
    return not_available("the A/B bench");
}

Result<SdpaBenchReport> TtsBackend::sdpa_bench(const SdpaBenchRequest&, const std::function<void(const std::string&)>&,
                                               const std::function<bool()>&) {
    return not_available("the SDPA kernel bench");
}

}  // namespace reef
