#include "runtime/synthesis.h"

#include "nn/gemv.h"
#include "nn/gemv_team.h"
#include "text2semantic/decode_block.h"
#include "runtime/cpu_target_scope.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <numeric>

#include <ATen/Parallel.h>

#include "check.h"
#include "codec/codec_folder.h"
#include "compiled/aoti_decode_step.h"
#include "nn/attention.h"
#include "runtime/codec_worker.h"
#include "runtime/device.h"
#include "base/kernel_switch.h"
#include "base/perf.h"
#include "runtime/synthesis_stream.h"
#include "nn/sdpa_policy.h"
#include "reef/cpu_kernels.h"
#include "reef/sampling_settings.h"
#include "text2semantic/kv_cache.h"
#include "text2semantic/prompt_builder.h"
#include "text2semantic/sampler.h"

namespace reef {

std::vector<PromptReference> prompt_references(const Pipeline& p, const SynthesisRequest& r) {
    std::vector<PromptReference> refs;
    for (size_t i = 0; i < r.references.size(); ++i) {
        const ReferenceVoice& v = r.references[i];
        if (v.codes.n_frames == 0)
            throw ReefError(ErrorCode::InvalidArgument,
                            "reference " + std::to_string(i + 1) + " (" + v.audio_path + ") has not been encoded",
                            "encode the clip first (Engine::encode_reference / reef-cli encode)");
        if (v.text.empty())
            throw ReefError(ErrorCode::InvalidArgument, "reference " + std::to_string(i + 1) + " has no transcript",
                            "voice cloning needs the text spoken in the reference clip");
        at::Tensor codes = codes_to_tensor(v.codes, p.model->config().num_codebooks, "reference " + std::to_string(i + 1));
        refs.push_back({v.text, codes});
    }
    return refs;
}

std::vector<std::string> text_batches(const Pipeline& p, const SynthesisRequest& r) {
    if (p.model->config().s1_decoding()) return {r.text};  // S1 era: one generate call per sample
    std::vector<std::string> b = split_text_batches(r.text, r.sampling.chunk_length);
    if (b.empty()) throw ReefError(ErrorCode::InvalidArgument, "the text holds nothing to speak after its speaker tags");
    return b;
}

void check_compile_mode(CompileMode mode, DeviceKind device) {
    if (mode != CompileMode::CudaGraph) return;  // eager, and aot-inductor on CPU and CUDA (prepare_compiled)
    const ConfigConflict c = config_conflict(mode, SdpaPolicy::Auto, device);
    throw ReefError(ErrorCode::BackendUnavailable, c.reason, c.hint);
}

void check_sdpa_policy(SdpaPolicy policy, CompileMode mode, DeviceKind device) {
    if (policy != SdpaPolicy::Reef) return;
    if (const ConfigConflict c = config_conflict(mode, policy, device))
        throw ReefError(ErrorCode::BackendUnavailable, c.reason, c.hint);
    if (!cpu_kernel_info().built)
        throw ReefError(ErrorCode::BackendUnavailable, "SDPA policy 'reef': this build has no CPU kernels (Highway)",
                        "use the 'auto' SDPA policy");
}

void preflight(const Pipeline& p, SdpaPolicy policy, KvMode kv_mode, int64_t prompt_len, int64_t max_new) {
    const DualArConfig& c = p.model->config();
    const auto opts = at::TensorOptions().dtype(p.model->dtype()).device(p.model->device());
    const int64_t capacity = kv_capacity_for(prompt_len, max_new, p.config.kv_margin, c.max_seq_len);
    auto probe = [&](CallSite site, int64_t h, int64_t hkv, int64_t d, int64_t start, int64_t s, int64_t cap) {
        const AttentionSpan span = attention_span(kv_mode, start, s, cap, p.model->device());
        probe_backend({site, at::empty({1, h, s, d}, opts), at::empty({1, hkv, span.kv_len, d}, opts),
                       at::empty({1, hkv, span.kv_len, d}, opts), span.mask},
                      policy);
    };
    probe(CallSite::SlowPrefill, c.n_head, c.n_local_heads, c.head_dim, 0, prompt_len, capacity);
    probe(CallSite::SlowDecode, c.n_head, c.n_local_heads, c.head_dim, prompt_len, 1, capacity);
    // Fast position 0 attends to one key: the case cuDNN refuses (PyTorch sdp_utils.cpp: check_cudnn_tensor_shapes).
    probe(CallSite::FastDecode, c.fast_n_head, c.fast_n_local_heads, c.fast_head_dim, 0, 1, c.num_codebooks);
    probe(CallSite::FastDecode, c.fast_n_head, c.fast_n_local_heads, c.fast_head_dim, c.num_codebooks - 1, 1,
          c.num_codebooks);
    if (p.codec) {
        const CodecTransformerConfig& t = p.codec->config().quantizer_module;
        const int64_t len = std::min<int64_t>(std::max<int64_t>(max_new, 1), t.window_size);
        const auto copts = at::TensorOptions().dtype(p.codec->dtype()).device(p.codec->device());
        const at::Tensor mask = at::ones({len, len}, at::TensorOptions().dtype(at::kBool).device(p.codec->device())).tril();
        probe_backend({CallSite::CodecWindow, at::empty({1, t.n_head, len, t.head_dim}, copts),
                       at::empty({1, t.n_head, len, t.head_dim}, copts), at::empty({1, t.n_head, len, t.head_dim}, copts),
                       mask},
                      policy);
    }
}

void validate_request(const SynthesisRequest& r, size_t max_text_bytes) {
    auto bad = [](const std::string& m) { throw ReefError(ErrorCode::InvalidArgument, m); };
    if (r.text.find_first_not_of(" \t\r\n") == std::string::npos) bad("the text is empty");
    if (r.text.size() > max_text_bytes)
        bad("the text is " + std::to_string(r.text.size()) + " bytes; one request takes at most " +
            std::to_string(max_text_bytes) + " (split it into several)");
    // the one description of the sampling settings (reef/sampling_settings.h) the UI offers too
    if (const auto problem = sampling_problem(r.sampling)) bad(*problem);
    if (r.stream_chunk_frames < 0) bad("stream_chunk_frames must be >= 0");
}

bool governs_threads(const Pipeline& p, const RunOptions& o) {
    // Only where a frame's bits do not depend on its thread count, so a busy machine changes the
    // speed and never the take: Reef's GEMV rows (each row summed alone, nn/gemv.cpp) and Reef's
    // decode attention (each head alone); libtorch's flash attention splits a decode query's keys
    // between threads, and its linear's sums depend on the blocking.
    const bool exact = p.model->device().is_cpu() && gemv_supported(p.model->dtype()) && !o.libtorch_linear &&
                       o.policy == SdpaPolicy::Reef && o.compile_mode == CompileMode::Eager;
    return o.adaptive_threads && exact;
}

ThreadGovernor* thread_governor_for(Pipeline& p, const RunOptions& o) {
    return governs_threads(p, o) ? &p.thread_governor : nullptr;
}

GenerateOptions generate_options(const Pipeline& p, const SynthesisRequest& r, const RunOptions& o) {
    GenerateOptions g;
    g.knobs = {r.sampling.temperature, r.sampling.top_p,
               r.sampling.top_k > 0 ? r.sampling.top_k : p.model->config().vocab_size};
    g.repetition_penalty = r.sampling.repetition_penalty;
    g.max_new_tokens = r.sampling.max_new_frames;
    g.kv_mode = o.kv_mode;
    g.kv_margin = o.kv_margin;
    g.suppress_im_end = o.suppress_im_end;
    return g;
}

void set_voice_prefix(Pipeline& p, const std::vector<PromptReference>& refs, const S2Conversation* conversation,
                      const RunOptions& o, GenerateOptions& g) {
    const DualArConfig& c = p.model->config();
    g.voice_prefix = c.s1_decoding() ? s1_voice_prefix_tokens(*p.tokenizer, int(c.num_codebooks), refs)
                                     : (conversation ? conversation->voice_prefix_tokens() : 0);
    static const bool cache_on = kernel_switched_on("REEF_PREFIX_CACHE");
    g.prefix_store = cache_on ? &p.prefix_store : nullptr;
    // What the prefix's rows depend on besides its tokens and the model: the attention backends,
    // the KV mode, the projections' path and kernels, and the thread count (GEMM blocking).
    g.prefix_context = std::string(to_string(o.policy)) + "/" + to_string(o.kv_mode) + "/" +
                       (o.libtorch_linear ? "linear" : "gemv") + "/" + cpu_kernel_info().target + "/" +
                       std::to_string(at::get_num_threads());
}

namespace {

// port of inference.py: generate_long — each text batch is appended to the S2 conversation (or
// becomes one S1 interleave prompt), generated, and its codes join the history for the next batch.
// g carries the frame callback and the abort check. -> codes (N, n) of all batches.
at::Tensor generate_long(Pipeline& p, const SynthesisRequest& r, const RunOptions& o, GenerateOptions g,
                         at::Generator& gen, RunMetrics& m, RunCapture* capture) {
    const DualArConfig& c = p.model->config();
    const std::vector<PromptReference> refs = prompt_references(p, r);
    const std::vector<std::string> batches = text_batches(p, r);
    S2Conversation conversation(*p.tokenizer, int(c.num_codebooks), refs);
    set_voice_prefix(p, refs, &conversation, o, g);
    std::vector<at::Tensor> all_codes;
    for (size_t b = 0; b < batches.size(); ++b) {
        const at::Tensor prompt = text_batch_prompt(p, refs, &conversation, batches[b]);  // (N+1, T)
        const int64_t t = prompt.size(1);
        require_prompt_fits(p, t, b);
        const int64_t max_new = max_new_frames(p, r, t);
        if (b == 0) preflight(p, o.policy, o.kv_mode, t, max_new);
        m.prompt_tokens += int(t);
        g.capture_logits_frames = (capture && b == 0) ? o.capture_logits_frames : 0;
        GenerateStats stats;
        at::Tensor codes = generate(*p.model, p.caches, prompt, p.ids, g, gen, stats);  // (N, n)
        if (stats.stop_reason == "cancelled") throw ReefError(ErrorCode::Cancelled, "generation was cancelled");
        m.prefill_ms += stats.prefill_ms;
        m.prefix_tokens_reused += int(stats.prefix_reused);
        m.step_ms.insert(m.step_ms.end(), stats.step_ms.begin(), stats.step_ms.end());
        m.step_threads.insert(m.step_threads.end(), stats.step_threads.begin(), stats.step_threads.end());
        m.stop_reason = stats.stop_reason;
        if (capture && b == 0) capture->logits = stats.captured_logits;
        all_codes.push_back(codes);
        if (!c.s1_decoding()) conversation.add_assistant_codes(codes);
    }
    return all_codes.size() == 1 ? all_codes[0] : at::cat(all_codes, 1);
}

}  // namespace

at::Tensor first_prompt(const Pipeline& p, const SynthesisRequest& r) {
    const std::vector<PromptReference> refs = prompt_references(p, r);
    S2Conversation conversation(*p.tokenizer, int(p.model->config().num_codebooks), refs);
    return text_batch_prompt(p, refs, &conversation, text_batches(p, r)[0]);  // (N+1, T)
}

at::Tensor text_batch_prompt(const Pipeline& p, const std::vector<PromptReference>& refs, S2Conversation* conversation,
                             const std::string& text) {
    const DualArConfig& c = p.model->config();
    if (c.s1_decoding()) return build_s1_prompt(*p.tokenizer, int(c.num_codebooks), refs, text);
    conversation->add_user(text);
    return conversation->encode_for_inference();
}

void require_prompt_fits(const Pipeline& p, int64_t prompt_len, size_t batch_index) {
    const int64_t max_seq_len = p.model->config().max_seq_len;
    if (prompt_len >= max_seq_len)
        throw ReefError(ErrorCode::InvalidArgument,
                        "the prompt of batch " + std::to_string(batch_index + 1) + " is " + std::to_string(prompt_len) +
                            " tokens; this model's max_seq_len is " + std::to_string(max_seq_len),
                        "use shorter text, shorter references or a smaller chunk length");
}

int64_t max_new_frames(const Pipeline& p, const SynthesisRequest& r, int64_t prompt_len) {
    const int64_t room = p.model->config().max_seq_len - prompt_len;
    return r.sampling.max_new_frames > 0 ? std::min<int64_t>(r.sampling.max_new_frames, room) : room;
}

void check_runnable(const Pipeline& p, const SynthesisRequest& r, const RunOptions& o) {
    validate_request(r, o.max_text_bytes);
    if (r.decode_audio && !p.codec)
        throw_no_codec(p.config.model_dir, "to make audio with", "or generate codes only");
}

int64_t first_prompt_length(const Pipeline& p, const SynthesisRequest& r) { return first_prompt(p, r).size(1); }

void prepare_compiled(Pipeline& p, const RunOptions& o, const Callbacks& cb, RunMetrics& m) {
    AotiCompileOptions co;
    co.policy = resolve_policy(o.policy, o.compile_mode);
    co.kv_mode = o.kv_mode;
    co.threads = p.config.cpu_threads;
    co.progress = cb.on_status;
    co.should_abort = cb.should_abort;
    // A step already loaded for these options needs no second look at the cache: the pipeline's
    // weights cannot change, and hashing them again would cost every request about a second.
    const std::string options_key = std::string(to_string(co.policy)) + "/" + to_string(co.kv_mode) +
                                    (aoti_kernel_profile() ? "/kernel-profile" : "");
    auto use = [&](AotiPackage pkg, CompiledDecodeStep* step) {
        m.compile_s = pkg.compile_s;
        m.compile_cached = pkg.from_cache;
        m.compiled_package = pkg.dir;
        p.compiled = step;
        pkg.from_cache = true;  // for the next request
        p.compiled_package = pkg;
        p.package_for_options[options_key] = pkg;
    };
    auto loaded = [&](const std::string& dir) -> CompiledDecodeStep* {
        auto it = p.loaded_steps.find(dir);
        return it == p.loaded_steps.end() ? nullptr : it->second.get();
    };
    if (auto it = p.package_for_options.find(options_key); it != p.package_for_options.end())
        if (CompiledDecodeStep* step = loaded(it->second.dir)) return use(it->second, step);
    if (!p.model->config().s1_decoding()) p.caches.prepare_head(*p.model, p.ids);
    const at::Tensor head = p.model->config().s1_decoding() ? at::Tensor() : p.caches.head;
    for (int attempt = 0;; ++attempt) {
        AotiPackage pkg = ensure_aoti_package(*p.model, head, co);
        if (CompiledDecodeStep* step = loaded(pkg.dir); step && pkg.from_cache) return use(pkg, step);
        Stopwatch w;
        std::unique_ptr<CompiledDecodeStep> step;
        try {
            step = load_aoti_decode_step(pkg, p.model->device());
        } catch (const ReefError&) {
            if (attempt > 0 || !pkg.from_cache) throw;
            discard_aoti_package(pkg);  // a cached package libtorch refuses is rebuilt, once
            continue;
        }
        m.package_load_ms = w.ms();
        auto& slot = p.loaded_steps[pkg.dir];  // replaces a step whose package was rebuilt
        slot = std::move(step);
        return use(pkg, slot.get());
    }
}

SynthesisResult run_synthesis(Pipeline& p, const SynthesisRequest& r, const Callbacks& cb, const RunOptions& o,
                              RunCapture* capture) {
    const GemvPause linear(o.libtorch_linear);
    const GemvTeamOn team(o.gemv_team);
    const DecodeBlockOps ops(o.decode_ops);
    const CpuTargetScope target(o.cpu_target);
    check_runnable(p, r, o);
    check_compile_mode(o.compile_mode, p.config.device);
    check_sdpa_policy(o.policy, o.compile_mode, p.config.device);
    c10::InferenceMode inference;
    SynthesisResult result;
    result.request_id = r.id;
    RunMetrics& m = result.metrics;
    // The compile is its own cold cost (compile_s), before the request's clock starts.
    if (o.compile_mode == CompileMode::AotInductor) prepare_compiled(p, o, cb, m);
    SdpaPolicyGuard sdpa(o.policy, o.compile_mode);
    BackendRecorder::current().reset();
    reset_peak_memory(p.config.device);

    Stopwatch clock;
    AudioStreamer audio(p, r, cb, clock);
    FrameObserver observer(p, r, cb, o, clock, audio, capture, m);
    GenerateOptions g = generate_options(p, r, o);
    g.should_abort = cb.should_abort;
    g.compiled = o.compile_mode == CompileMode::AotInductor ? p.compiled : nullptr;
    g.threads = thread_governor_for(p, o);
    g.on_frame = [&](int, const std::vector<int32_t>& column, double frame_ms) { observer(column, frame_ms); };
    at::Generator gen = make_request_generator(p.model->device(), r.sampling.seed);
    const at::Tensor codes = generate_long(p, r, o, g, gen, m, capture);
    m.generation_ms = clock.ms();
    finish_synthesis(p, r, codes, audio, observer, clock, result);
    return result;
}

void finish_synthesis(const Pipeline& p, const SynthesisRequest& r, const at::Tensor& codes, AudioStreamer& audio,
                      const FrameObserver& observer, const Stopwatch& clock, SynthesisResult& result) {
    RunMetrics& m = result.metrics;
    Stopwatch wait;
    audio.finish(codes);
    m.codec_wait_ms = wait.ms();
    result.codes = tensor_to_codes(codes);
    result.audio = std::move(audio.audio());
    m.frames = observer.frames();
    m.codec_ms = audio.codec_ms();
    m.time_to_first_audio_ms = audio.first_audio_ms();
    m.total_ms = clock.ms();
    m.decode_ms = std::accumulate(m.step_ms.begin(), m.step_ms.end(), 0.0);
    m.warm_frames_per_s = warm_frames_per_s(m.step_ms, r.warmup_frames);
    m.audio_seconds = double(result.audio.empty() ? int64_t(m.frames) * kSamplesPerFrame : int64_t(result.audio.size())) /
                      kSampleRate;
    m.real_time_factor = m.audio_seconds > 0 ? (m.total_ms / 1000.0) / m.audio_seconds : 0;
    m.memory = query_memory(p.config.device);
    m.backends = BackendRecorder::current().uses();
}

}  // namespace reef
