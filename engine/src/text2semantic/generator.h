// port of fish-speech text2semantic/inference.py: decode_one_token_ar, decode_n_tokens, generate
// (HEAD rules for S2 folders, S1-era rules of d3df505 for S1 folders).
// N=num_codebooks, T=prompt length, n=generated frames, V=vocab, K=codebook_size.
#pragma once
#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/thread_governor.h"
#include "nn/gemv_team.h"
#include "reef/engine_types.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/kv_cache.h"
#include "text2semantic/prefix_kv_store.h"
#include "text2semantic/sampler.h"

namespace reef {

struct TokenIds {
    int64_t semantic_begin = 0, semantic_end = 0, im_end = -1;
};

// The caches a loaded model keeps between requests; generate() sizes them to each request.
struct Text2SemanticCaches {
    KvCache slow, fast;
    // S2 decoding can only sample the semantic ids and <|im_end|>: the output head's rows for
    // those ids ([R, C]) and the ids themselves ([R] int64, ascending), built once per model.
    at::Tensor head, head_ids;
    TokenIds head_for;  // the ids `head` was built for
    // Allocates on first use, grows the slow cache (copy) when `capacity` rows are needed.
    void prepare(const DualArModel& model, int64_t capacity);
    void prepare_head(const DualArModel& model, const TokenIds& ids);
};

// Runs the static-shape decode step (decode_one_token_static) for one frame: directly, or (the
// purpose of the static step) by replaying a CUDA graph captured once per kv_len. `step` does the
// frame's work when called; a runner may call it to warm up or capture.
class StaticStepRunner {
public:
    virtual ~StaticStepRunner() = default;
    virtual void run(int64_t kv_len, const std::function<void()>& step) = 0;
};

// A compiled decode step (compile mode aot-inductor): the slow and fast forwards of decode frames
// run from compiled code over the same caches; the prefill and all sampling stay eager, so both
// arms draw the same random numbers (compiled/aoti_decode_step.h).
class CompiledDecodeStep {
public:
    virtual ~CompiledDecodeStep() = default;
    // forward_generate for one decode position pos >= 1: inp [1, N+1, 1] int64 -> logits through
    // the head the package holds, hidden, normed
    virtual ForwardResult forward_generate(const at::Tensor& inp, int64_t pos, KvCache& slow) = 0;
    // forward_generate_fast: x [1, 1, Cf] at fast position pos -> [1, 1, K]
    virtual at::Tensor forward_generate_fast(const at::Tensor& x, int64_t pos, KvCache& fast) = 0;
};

struct GenerateOptions {
    SampleKnobs knobs;                 // temperature / top_p / top_k; greedy when t <= 0 or top_k == 1
    double repetition_penalty = 1.1;   // S1 decoding only
    int64_t max_new_tokens = 1024;     // frames; 0 = up to max_seq_len − T (fish-speech)
    KvMode kv_mode = KvMode::ActivePrefix;
    int64_t kv_margin = 64;            // cache rows beyond T + max_new_tokens
    bool suppress_im_end = false;      // bench: run exactly max_new_tokens frames
    int capture_logits_frames = 0;     // keep the raw slow logits of the first K frames (frame 0 = prefill)
    // Decode steps with static shapes through this runner (what a CUDA graph captures); null = the
    // exact-length eager steps. The prefill is eager either way, as in fish-speech.
    StaticStepRunner* static_steps = nullptr;
    // Decode frames (not the prefill, as fish-speech compiles decode_one_token only) through this
    // compiled step; null = eager.
    CompiledDecodeStep* compiled = nullptr;
    // The prompt's first voice_prefix columns are a voice prefix (system message with references,
    // prompt_builder.h): prefilled on their own, their rows kept in / taken from prefix_store
    // (when set) under prefix_context. 0: the prompt is prefilled in one piece.
    int64_t voice_prefix = 0;
    PrefixKvStore* prefix_store = nullptr;
    std::string prefix_context;
    // Eager decode frames (not static or compiled steps, not the prefill) at the thread count this
    // governor picks, up to libtorch's count on this thread (base/thread_governor.h); null = all.
    ThreadGovernor* threads = nullptr;
    std::function<bool()> should_abort;  // checked before every frame
    // frame index (within this generate call), column [main, c0..c_{N-1}], ms of that frame
    std::function<void(int frame, const std::vector<int32_t>& column, double frame_ms)> on_frame;
};

struct GenerateStats {
    int64_t prompt_tokens = 0;
    double prefill_ms = 0;            // prefill forward + the first frame's fast steps
    int64_t prefix_reused = 0;        // voice-prefix rows taken from the prefix store
    std::vector<double> step_ms;      // one per decode frame after the first
    std::vector<int> step_threads;    // the intra-op threads each of those frames ran with
    int frames = 0;                   // columns generated, the im_end column included
    std::string stop_reason;          // "im_end", "max_new_frames", "cancelled"
    std::vector<at::Tensor> captured_logits;  // [V] float32 CPU, raw (unbiased) slow logits
    int64_t kv_capacity = 0;          // slow cache rows after sizing
};

// Everything one decode step needs besides the model and caches.
struct DecodeContext {
    const DualArModel* model = nullptr;
    Text2SemanticCaches* caches = nullptr;
    TokenIds ids;
    SampleKnobs knobs, high_knobs;  // high_knobs: the RAS fallback (temperature 1.0, top_p 0.9)
    double repetition_penalty = 1.0;
    at::Tensor semantic_logit_bias;  // [R] float32 over head_ids (S2 only)
    at::Tensor head, head_ids;       // S2: the row-restricted output head and its vocab ids
    SampleDraw draw;                 // S2: one random number per vocab id, raced at head_ids
    KvMode kv_mode = KvMode::ActivePrefix;
    at::Generator* gen = nullptr;
    CompiledDecodeStep* compiled = nullptr;  // decode frames only
    GemvTeam* team = nullptr;                // eager CPU decode frames run with it (nn/gemv_team.h)
    bool s1 = false;
};

// port of decode_one_token_ar: one slow forward over x ([1, N+1, S] at positions start..) and the
// N fast steps, sampled on the device. ras / rep are null at prefill. captured (if not null)
// receives the raw logits (a host copy: bench only).
// -> the column [main, c0, .., c_{N-1}]: [N+1] int64 on the model's device, not yet read back
at::Tensor decode_one_token(DecodeContext& ctx, const at::Tensor& x, int64_t start, const RasWindow* ras,
                            const RepetitionWindow* rep, at::Tensor* captured);

// The buffers a static decode step reads and updates in place: a CUDA graph replays over exactly
// these addresses, so they are allocated once per generate call.
struct StaticDecodeState {
    at::Tensor cur;        // [1, N+1, 1] int64: the previous column in, this step's column out
    at::Tensor input_pos;  // [1] int64: the position of `cur`, advanced by one per step
    at::Tensor logits;     // [V] float32: this step's raw slow logits (when keep_logits)
    RasWindow ras;
    RepetitionWindow rep;
    bool keep_logits = false;
    StaticDecodeState(const DualArModel& model, const std::vector<int64_t>& first, int64_t input_pos, bool keep_logits);
};

// decode_one_token for one decode step with its position on the device and static shapes: the
// slow stack attends over the first kv_len cache rows under a device-built mask
// (kv_bucket), sampling and both windows stay on the device, and nothing reads back to the
// host, so one CUDA graph per kv_len can replay it.
void decode_one_token_static(DecodeContext& ctx, StaticDecodeState& state, int64_t kv_len);

// port of decode_n_tokens: feeds `first` back at input_pos, then each new column, until
// num_new_tokens frames, im_end (kept in the output) or an abort. Appends to columns / stats.
// One device->host read per frame (the column the stream needs).
void decode_n_tokens(DecodeContext& ctx, const std::vector<int64_t>& first, int64_t input_pos,
                     int64_t num_new_tokens, const GenerateOptions& opts, std::vector<std::vector<int64_t>>& columns,
                     GenerateStats& stats);

// The pieces of generate() that batched decoding (batch_generator.h) shares with it, so a batch
// member is set up, prefilled, sampled and finished exactly as a single sequence is.

// Checks a prompt [N+1, T] (ReefError InvalidArgument) -> the frames it may generate.
int64_t check_prompt(const DualArModel& model, const at::Tensor& prompt, const GenerateOptions& opts);
// The decode context of one request (knobs rounded as fish-speech does, S2's restricted head and bias).
DecodeContext make_decode_context(const DualArModel& model, Text2SemanticCaches& caches, const TokenIds& ids,
                                  const GenerateOptions& opts, at::Generator& gen);
// The prompt at positions 0..T-1 -> the first column (host); sets stats.prefill_ms / frames, calls on_frame(0).
std::vector<int64_t> prefill(DecodeContext& ctx, const at::Tensor& prompt, const GenerateOptions& opts,
                             GenerateStats& stats);
// The main token of a frame, on the device: S2 = biased sample + RAS; S1 = repetition penalty,
// no bias. logits [1, 1, V or R] -> [1] int64
at::Tensor sample_main(DecodeContext& ctx, const at::Tensor& logits, const RasWindow* ras, const RepetitionWindow* rep);
// Codebook k >= 1 of a frame from its fast logits [1, 1, K] (S1: the penalty window of row k+1) -> [1] int64
at::Tensor sample_codebook(DecodeContext& ctx, const at::Tensor& logits, int64_t k, const RepetitionWindow* rep);
// The N fast steps of decode_one_token_ar after the main tokens, for B sequences side by side (B = 1
// in generate, the batch's members in BatchGenerator): fast(x, k) runs fast-transformer step k over
// the B fast caches (x [B, 1, D]; k = 0 takes the slow stack's hidden states and only fills them)
// -> logits [B, 1, K]; sample(i, logits [1, 1, K], k) draws sequence i's code k. mains: B x [1].
// -> B columns [N+1] int64: the main token, then the N codes.
using FastStep = std::function<at::Tensor(const at::Tensor& x, int64_t k)>;
using CodebookSampler = std::function<at::Tensor(size_t i, const at::Tensor& logits, int64_t k)>;
std::vector<at::Tensor> fast_codebooks(const DualArModel& model, const std::vector<at::Tensor>& mains,
                                       const at::Tensor& hidden_states, int64_t semantic_begin, const FastStep& fast,
                                       const CodebookSampler& sample);
// The raw slow logits over the whole vocabulary, also where the head is row-restricted. [1, 1, V]
at::Tensor all_logits(const DecodeContext& ctx, const ForwardResult& res);
// The decode-frame window of this decoding era (S1: repetition penalty, S2: RAS), or null.
const RasWindow* ras_of(const DecodeContext& ctx, const StaticDecodeState& s);
const RepetitionWindow* rep_of(const DecodeContext& ctx, const StaticDecodeState& s);
// A decoded column [N+1] enters the era's window (S1: every row, S2: the main token).
void accept_column(const DecodeContext& ctx, StaticDecodeState& s, const at::Tensor& column);
// A device column [N+1] -> host values (the frame's one device->host read)
std::vector<int64_t> to_host(const at::Tensor& column);
// The columns generated -> codes [N, n] on the CPU, the im_end column left out.
at::Tensor codes_of(const std::vector<std::vector<int64_t>>& columns, const GenerateStats& stats, int64_t n_codebooks);

// port of generate: prompt [N+1, T] int64 -> codes [N, n] int64 on the CPU, without the im_end
// column when generation stopped on it (fish-speech's generate_long drops the last column
// always, even without im_end; we keep real frames). Runs under c10::InferenceMode.
// Throws ReefError(InvalidArgument) when T >= max_seq_len or the prompt is malformed.
at::Tensor generate(const DualArModel& model, Text2SemanticCaches& caches, const at::Tensor& prompt,
                    const TokenIds& ids, const GenerateOptions& opts, at::Generator& gen, GenerateStats& stats);

}  // namespace reef
