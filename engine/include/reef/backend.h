// The interface the UI and reef-cli talk to: everything a speech engine does, whether it runs in
// this process (Engine) or elsewhere. Engine implements all of it; UI tests inject a fake, and a
// backend that cannot do one part (a remote server cannot compile Reef's decode step) keeps the
// default, which says so as an error value.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "reef/bench.h"
#include "reef/engine_types.h"
#include "reef/result.h"
#include "reef/sdpa_bench.h"

namespace reef {

// The callbacks of one request of a batch: `callbacks`, with should_abort also true once
// cancel_request(request_id) is (a batch's per-request cancel on a one-request path).
Callbacks request_callbacks(const Callbacks& callbacks, const std::function<bool(uint64_t)>& cancel_request,
                            uint64_t request_id);
// Told as each request of a batch ends (in the order they end, on the engine thread): its result
// or error, the same value synthesize_batch returns for it at the end.
using RequestDone = std::function<void(uint64_t request_id, const Result<SynthesisResult>& result)>;
// A batch's plain path: the requests one after another through run(request, its callbacks)
// (request_callbacks), each told to on_done as it ends; results in the requests' order.
std::vector<Result<SynthesisResult>> synthesize_each(
    const std::vector<SynthesisRequest>& requests, const Callbacks& callbacks,
    const std::function<bool(uint64_t)>& cancel_request, const RequestDone& on_done,
    const std::function<Result<SynthesisResult>(const SynthesisRequest&, const Callbacks&)>& run);

class TtsBackend {
public:
    virtual ~TtsBackend() = default;
    // All calls come from one thread (the engine thread). Each returns an error value, never throws.
    virtual Result<ModelInfo> load(const EngineConfig& config) = 0;
    virtual bool is_loaded() const = 0;
    virtual Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) = 0;
    // Reference clip (any libsndfile format) -> codes (10, T). Needs a loaded codec.
    virtual Result<Codes> encode_reference(const std::vector<float>& mono_44k) = 0;
    virtual DeviceCaps device_caps() const = 0;

    // Several requests, up to max_batch of them decoding together (issue #27: a project's segments
    // in one batch, each with the codes and audio it gets alone); max_batch 0 = auto (as many as
    // the free memory holds, at most kAutoMaxBatch). Results in the requests' order, each its own
    // result or error; on_done hears each as it ends. callbacks serve every request (request ids
    // tell them apart); callbacks.should_abort cancels them all, cancel_request(id) one of them
    // (checked before each of its frames; the others go on). The default runs them one by one
    // through synthesize().
    static constexpr int kAutoMaxBatch = 8;
    virtual std::vector<Result<SynthesisResult>> synthesize_batch(
        const std::vector<SynthesisRequest>& requests, int max_batch, const Callbacks& callbacks,
        const std::function<bool(uint64_t request_id)>& cancel_request = {}, const RequestDone& on_done = {});
    // Codes (10, T) -> 44.1 kHz mono audio through the loaded codec.
    virtual Result<std::vector<float>> decode_codes(const Codes& codes);
    // Compile mode aot-inductor ahead of time: the loaded model's decode-step package for its
    // configured SDPA policy and KV mode, compiled or found in the cache, and loaded. progress gets
    // "compiling the decode step: ... (41 s)" lines; should_abort stops it, leaving nothing.
    virtual Result<CompiledPackageInfo> compile_decode_step(const std::function<void(const std::string&)>& progress = {},
                                                            const std::function<bool()>& should_abort = {});
    // Runs the A/B matrix; progress(arm_index, message) may be empty.
    virtual Result<BenchReport> bench(const BenchRequest& request,
                                      const std::function<void(int, const std::string&)>& progress,
                                      const std::function<bool()>& should_abort);
    // Times one decode SDPA call per backend at a model's attention dims (no weights needed).
    virtual Result<SdpaBenchReport> sdpa_bench(const SdpaBenchRequest& request,
                                               const std::function<void(const std::string&)>& progress = {},
                                               const std::function<bool()>& should_abort = {});

protected:
    // The error the defaults return: "<what> is not available with this backend".
    static EngineError not_available(const std::string& what);
};

}  // namespace reef
