#include "runtime/synthesis_batch.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "check.h"
#include "memory_check.h"
#include "base/cpu_cores.h"
#include "base/facade_guard.h"
#include "nn/gemv.h"
#include "nn/gemv_team.h"
#include "text2semantic/decode_block.h"
#include "runtime/cpu_target_scope.h"
#include "nn/sdpa_policy.h"
#include "reef/backend.h"
#include "runtime/synthesis_stream.h"
#include "text2semantic/batch_generator.h"

namespace reef {
namespace {

// One request while its text batches go through the batch: what run_synthesis keeps on its stack.
struct RequestRun {
    const SynthesisRequest* request = nullptr;
    SynthesisResult result;
    Stopwatch clock;
    std::unique_ptr<AudioStreamer> audio;
    std::unique_ptr<FrameObserver> observer;
    std::vector<std::string> batches;
    size_t next_batch = 0;                      // the text batch to queue after the running one
    std::unique_ptr<S2Conversation> conversation;  // S2: the history later batches are prompted with
    std::vector<PromptReference> references;
    std::vector<at::Tensor> codes;              // (N, n) per finished text batch
    std::optional<at::Generator> gen;
    std::optional<EngineError> error;
    bool reported = false;                      // on_done has heard of it
};

// The prompt of the request's next text batch (generate_long's rules) -> (N+1, T)
at::Tensor next_prompt(const Pipeline& p, RequestRun& run) {
    at::Tensor prompt = text_batch_prompt(p, run.references, run.conversation.get(), run.batches[run.next_batch]);
    require_prompt_fits(p, prompt.size(1), run.next_batch);
    ++run.next_batch;
    return prompt;
}

BatchItem item_for(Pipeline& p, RequestRun& run, size_t index, const at::Tensor& prompt, const Callbacks& cb,
                   const RunOptions& o, const std::function<bool(uint64_t)>& cancel_request) {
    BatchItem it;
    it.id = int64_t(index);
    it.prompt = prompt;
    it.opts = generate_options(p, *run.request, o);
    set_voice_prefix(p, run.references, run.conversation.get(), o, it.opts);
    it.opts.should_abort = request_callbacks(cb, cancel_request, run.request->id).should_abort;
    FrameObserver* observer = run.observer.get();
    it.opts.on_frame = [observer](int, const std::vector<int32_t>& column, double ms) { (*observer)(column, ms); };
    it.generator = run.gen;
    return it;
}

// The request's outcome as synthesize_batch returns it.
Result<SynthesisResult> outcome(const RequestRun& run) {
    if (run.error) return *run.error;
    return run.result;
}

// Tells on_done of a request that has ended, once.
void report(RequestRun& run, const RequestDone& on_done) {
    if (run.reported) return;
    run.reported = true;
    if (on_done) on_done(run.request->id, outcome(run));
}

// What each core does while the batch runs, for the status line: the decode's threads, and where
// the audio goes (a codec worker beside them, between frames on them, or whole after each item).
std::string core_plan(const Pipeline& p, const std::vector<SynthesisRequest>& requests, int max_batch) {
    const std::string seqs = "up to " + std::to_string(max_batch) + " sequences decode together";
    if (p.config.device != DeviceKind::Cpu) return seqs + " on the " + to_string(p.config.device);
    const int cores = usable_cpu_count();
    const int decode = p.config.cpu_threads > 0 ? p.config.cpu_threads : at::get_num_threads();
    bool audio = false, streamed = false, unheard = false;  // any audio; chunks asked for, heard live or not
    for (const SynthesisRequest& r : requests) {
        audio = audio || r.decode_audio;
        if (!r.decode_audio || r.stream_chunk_frames <= 0) continue;
        (r.listened_live ? streamed : unheard) = true;
    }
    std::string line = seqs + " on " + std::to_string(decode) + " thread" + (decode == 1 ? "" : "s") + " (" +
                       std::to_string(cores) + " core" + (cores == 1 ? "" : "s") + ")";
    if (!audio) return line + "; codes only, no audio";
    line += "; audio: ";
    if (codec_worker_enabled(p.config) && (streamed || unheard))
        return line + "streamed by a codec worker on " + std::to_string(codec_worker_options(p.config).threads) +
               " thread(s) beside them, at idle priority";
    if (streamed) return line + "streamed between frames on the same threads (no core left for a codec worker)";
    return line + "decoded whole after each one's last frame on the same threads" +
           (cores <= decode ? " (no core left for a codec worker)" : "");
}

}  // namespace

std::vector<Result<SynthesisResult>> run_synthesis_batch(Pipeline& p, const std::vector<SynthesisRequest>& requests,
                                                         int max_batch, const Callbacks& cb, const RunOptions& o,
                                                         const std::function<bool(uint64_t)>& cancel_request,
                                                         const RequestDone& on_done) {
    if (o.compile_mode != CompileMode::Eager || max_batch == 1) {
        if (o.compile_mode != CompileMode::Eager && max_batch != 1 && cb.on_status)
            cb.on_status(std::string("compile mode ") + to_string(o.compile_mode) +
                         " decodes one sequence at a time: the requests run one by one (batch size 1)");
        return synthesize_each(requests, cb, cancel_request, on_done, [&](const SynthesisRequest& r, const Callbacks& rcb) {
            return guarded("synthesize", [&]() -> Result<SynthesisResult> { return run_synthesis(p, r, rcb, o); });
        });
    }
    const GemvPause linear(o.libtorch_linear);
    const GemvTeamOn team(o.gemv_team);
    const DecodeBlockOps ops(o.decode_ops);
    const CpuTargetScope target(o.cpu_target);
    check_sdpa_policy(o.policy, o.compile_mode, p.config.device);
    c10::InferenceMode inference;
    SdpaPolicyGuard sdpa(o.policy, o.compile_mode);
    BackendRecorder::current().reset();
    reset_peak_memory(p.config.device);

    std::vector<RequestRun> runs(requests.size());
    std::vector<BatchItem> first;
    for (size_t i = 0; i < requests.size(); ++i) {
        RequestRun& run = runs[i];
        const SynthesisRequest& r = requests[i];
        run.request = &r;
        run.result.request_id = r.id;
        try {
            check_runnable(p, r, o);
            run.references = prompt_references(p, r);
            run.batches = text_batches(p, r);
            const DualArConfig& c = p.model->config();
            if (!c.s1_decoding())
                run.conversation = std::make_unique<S2Conversation>(*p.tokenizer, int(c.num_codebooks), run.references);
            run.audio = std::make_unique<AudioStreamer>(p, r, cb, run.clock);
            run.observer = std::make_unique<FrameObserver>(p, r, cb, o, run.clock, *run.audio, nullptr, run.result.metrics);
            run.gen = make_request_generator(p.model->device(), r.sampling.seed);
            const at::Tensor prompt = next_prompt(p, run);
            const int64_t t = prompt.size(1);
            if (first.empty()) preflight(p, o.policy, o.kv_mode, t, max_new_frames(p, r, t));
            first.push_back(item_for(p, run, i, prompt, cb, o, cancel_request));
        } catch (const ReefError& e) {
            run.error = e.error();
            report(run, on_done);
        }
    }
    std::vector<Result<SynthesisResult>> out;
    try {
        if (max_batch <= 0) {
            max_batch = auto_batch_size(*p.model, first, TtsBackend::kAutoMaxBatch);
            if (cb.on_status)
                cb.on_status("batch size auto: " + std::to_string(max_batch) + " sequences decode together (" +
                             format_gb(batch_kv_bytes(*p.model, first, max_batch)) + " of KV cache)");
        }
        require_batch_memory(*p.model, first, max_batch);
        if (cb.on_status && !first.empty()) cb.on_status(core_plan(p, requests, std::min(max_batch, int(first.size()))));
        BatchGenerator batch(*p.model, p.ids, max_batch, o.kv_mode);
        batch.set_thread_governor(thread_governor_for(p, o));
        for (BatchItem& it : first) batch.add(std::move(it));
        // A finished text batch: its codes join the request; the next one is queued, or the request ends.
        auto take = [&]() {
            bool queued = false;
            for (BatchItemResult& res : batch.take_finished()) {
                RequestRun& run = runs[size_t(res.id)];
                try {
                    if (res.stats.stop_reason == "cancelled") throw ReefError(ErrorCode::Cancelled, "generation was cancelled");
                    RunMetrics& m = run.result.metrics;
                    m.prompt_tokens += int(res.stats.prompt_tokens);
                    m.prefill_ms += res.stats.prefill_ms;
                    m.prefix_tokens_reused += int(res.stats.prefix_reused);
                    m.step_ms.insert(m.step_ms.end(), res.stats.step_ms.begin(), res.stats.step_ms.end());
                    m.step_threads.insert(m.step_threads.end(), res.stats.step_threads.begin(),
                                          res.stats.step_threads.end());
                    m.stop_reason = res.stats.stop_reason;
                    m.batch = std::max(m.batch, res.max_batch_seen);
                    run.codes.push_back(res.codes);
                    if (run.conversation) run.conversation->add_assistant_codes(res.codes);
                    if (run.next_batch < run.batches.size()) {
                        batch.add(item_for(p, run, size_t(res.id), next_prompt(p, run), cb, o, cancel_request));
                        queued = true;
                        continue;
                    }
                    m.generation_ms = run.clock.ms();
                    const at::Tensor codes = run.codes.size() == 1 ? run.codes[0] : at::cat(run.codes, 1);
                    finish_synthesis(p, *run.request, codes, *run.audio, *run.observer, run.clock, run.result);
                } catch (const ReefError& e) {
                    run.error = e.error();
                }
                run.audio.reset();  // joins its codec worker: nothing of this request runs after this
                report(run, on_done);  // ended: finished or failed (a queued next text batch `continue`d above)
            }
            return queued;
        };
        for (;;) {
            const bool more = batch.step();
            const bool queued = take();
            if (!more && !queued) break;
        }
    } catch (const ReefError& e) {
        for (RequestRun& run : runs)
            if (!run.error && run.result.codes.n_frames == 0) run.error = e.error();
    }
    for (RequestRun& run : runs) {
        run.observer.reset();
        run.audio.reset();
        report(run, on_done);
        if (run.error)
            out.push_back(*run.error);
        else
            out.push_back(std::move(run.result));
    }
    return out;
}

}  // namespace reef
