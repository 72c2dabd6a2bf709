// One synthesis request end to end: validation, compile-mode check, SDPA preflight, generate_long
// (text batches through the iterative conversation), streaming codec decode, and the run metrics.
#pragma once
#include <ATen/ATen.h>

#include <vector>

#include "reef/engine_types.h"
#include "runtime/pipeline.h"
#include "text2semantic/prompt_builder.h"

namespace reef {

constexpr size_t kMaxTextBytes = 100000;   // about a chapter; longer texts go in several requests

struct RunOptions {
    SdpaPolicy policy = SdpaPolicy::Auto;
    CompileMode compile_mode = CompileMode::Eager;
    KvMode kv_mode = KvMode::ActivePrefix;
    bool libtorch_linear = false;   // bench ":linear" arms: projections through libtorch (nn/gemv.h GemvPause)
    bool gemv_team = false;         // bench ":team" arms: decode with the GEMV team (nn/gemv_team.h GemvTeamOn)
    bool adaptive_threads = false;  // EngineConfig::adaptive_threads: the pipeline's thread governor picks each frame's count
    bool decode_ops = false;        // bench ":ops" arms: every decode block through ATen's ops (text2semantic/decode_block.h)
    std::string cpu_target;         // bench "@avx2" arms: the SIMD kernels forced to it for the run ("" = as is)
    int kv_margin = 64;
    bool suppress_im_end = false;   // bench: exactly max_new_frames frames
    int capture_logits_frames = 0;  // bench: raw slow logits of the first K frames
    size_t max_text_bytes = kMaxTextBytes;  // the bench's context sweep builds longer prompts on purpose
};

struct RunCapture {
    std::vector<at::Tensor> logits;       // [V] float32, frame 0 = prefill
    std::vector<int32_t> main_tokens;     // row 0 of every generated column
};

// Throws ReefError(BackendUnavailable) with the reason when the mode cannot run on this device.
void check_compile_mode(CompileMode mode, DeviceKind device);
// The "reef" SDPA policy runs Reef's CPU decode kernel in eager decoding: refused elsewhere, saying why.
void check_sdpa_policy(SdpaPolicy policy, CompileMode mode, DeviceKind device);

// Asks libtorch which backend each call site would use with the request's real shapes and dtype
// under the current SDPA flags (call inside an SdpaPolicyGuard). Throws ReefError(BackendUnavailable)
// naming the site and libtorch's reason when a forced backend cannot run.
void preflight(const Pipeline& p, SdpaPolicy policy, KvMode kv_mode, int64_t prompt_len, int64_t max_new);

// Throws ReefError(InvalidArgument) for empty or huge text and out-of-range sampling values.
void validate_request(const SynthesisRequest& request, size_t max_text_bytes = kMaxTextBytes);

// Tokens in the prompt of the request's first text batch, built exactly as generation builds it
// (references included): the prefix length a run starts decoding from.
int64_t first_prompt_length(const Pipeline& p, const SynthesisRequest& request);
// That prompt itself: (N+1, T) int64 on the CPU.
at::Tensor first_prompt(const Pipeline& p, const SynthesisRequest& request);
// Whether these options let the pipeline's thread governor pick each decode frame's thread count
// (RunOptions::adaptive_threads, and only where the frames' bits do not depend on it), and the
// governor then (else null). A frame's callback still sees the governor at that frame's count.
bool governs_threads(const Pipeline& p, const RunOptions& options);
ThreadGovernor* thread_governor_for(Pipeline& p, const RunOptions& options);
// The generate() options of a request run with these options (sampling, frame limit, KV mode).
GenerateOptions generate_options(const Pipeline& p, const SynthesisRequest& request, const RunOptions& options);
// The request's voice prefix (its references' part of every prompt, or 0 without references) and
// the pipeline's prefix store with the run settings the stored rows hold for, into g.
// REEF_PREFIX_CACHE=0: the prefix is still prefilled on its own, but never kept or reused.
void set_voice_prefix(Pipeline& p, const std::vector<PromptReference>& references, const S2Conversation* conversation,
                      const RunOptions& options, GenerateOptions& g);

// Compile mode aot-inductor: builds (or finds in the cache) the package for the run options and
// loads it into p.compiled; compile_s / package_load_ms / compiled_package go into m.
// Throws ReefError(BackendUnavailable / Cancelled).
void prepare_compiled(Pipeline& p, const RunOptions& options, const Callbacks& callbacks, RunMetrics& m);

// generate_long (inference.py's, ported in synthesis.cpp) plus streaming audio and metrics. Throws ReefError
// (Cancelled when should_abort fired). The caches are left reusable for the next request.
SynthesisResult run_synthesis(Pipeline& p, const SynthesisRequest& request, const Callbacks& callbacks,
                              const RunOptions& options, RunCapture* capture = nullptr);

}  // namespace reef
