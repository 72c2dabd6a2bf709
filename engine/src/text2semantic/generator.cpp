#include "text2semantic/generator.h"

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "check.h"
#include "base/cpu_cores.h"
#include "nn/gemv.h"

namespace reef {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

at::Tensor sample_main(DecodeContext& ctx, const at::Tensor& logits, const RasWindow* ras,
                       const RepetitionWindow* rep) {
    at::Tensor row = logits.reshape({-1}).to(at::kFloat);
    if (ctx.s1) {
        row = row.clone();
        if (rep) apply_repetition_penalty(row, rep->window(0), ctx.repetition_penalty);
        return sample(row, ctx.knobs, *ctx.gen);
    }
    const at::Tensor biased = row + ctx.semantic_logit_bias;  // [R]
    // Indices into head_ids -> vocab ids. fish-speech always draws the high-temperature sample
    // too (it consumes RNG even when unused).
    const at::Tensor normal = ctx.head_ids.index_select(0, sample(biased, ctx.knobs, *ctx.gen, ctx.draw));
    const at::Tensor high = ctx.head_ids.index_select(0, sample(biased, ctx.high_knobs, *ctx.gen, ctx.draw));
    if (!ras) return normal;
    // RAS: a semantic token that is already in the window is swapped for the high-temperature draw
    const at::Tensor semantic = normal.ge(ctx.ids.semantic_begin).logical_and(normal.le(ctx.ids.semantic_end));
    return at::where(semantic.logical_and(ras->contains(normal)), high, normal);
}

at::Tensor sample_codebook(DecodeContext& ctx, const at::Tensor& logits, int64_t k, const RepetitionWindow* rep) {
    at::Tensor row = logits.reshape({-1}).to(at::kFloat);
    if (ctx.s1) {
        row = row.narrow(0, 0, std::min(kS1FastLogits, row.size(0))).clone();
        if (rep) apply_repetition_penalty(row, rep->window(k + 1), ctx.repetition_penalty);
    }
    return sample(row, ctx.knobs, *ctx.gen);
}

std::vector<at::Tensor> fast_codebooks(const DualArModel& model, const std::vector<at::Tensor>& mains,
                                       const at::Tensor& hidden_states, int64_t semantic_begin, const FastStep& fast,
                                       const CodebookSampler& sample) {
    const auto& c = model.config();
    const size_t bsz = mains.size();
    fast(hidden_states, 0);  // output unused: fills the caches
    std::vector<std::vector<at::Tensor>> columns(bsz);
    std::vector<at::Tensor> h(bsz);  // B x [1, 1, D]
    auto take = [&](size_t i, const at::Tensor& code) {  // [1]
        columns[i].push_back(code);
        h[i] = model.embed_fast(code);
    };
    for (size_t i = 0; i < bsz; ++i) {
        columns[i].push_back(mains[i]);
        take(i, at::clamp(mains[i] - semantic_begin, 0, c.codebook_size - 1));
    }
    for (int64_t k = 1; k < c.num_codebooks; ++k) {
        const at::Tensor logits = fast(bsz == 1 ? h[0] : at::cat(h, 0), k);  // [B, 1, K]
        for (size_t i = 0; i < bsz; ++i) take(i, sample(i, logits.narrow(0, int64_t(i), 1), k));
    }
    std::vector<at::Tensor> out;
    for (const auto& column : columns) out.push_back(at::cat(column));
    return out;
}

namespace {

// The rest of decode_one_token_ar after the slow forward: the main token, then the N fast
// steps. -> [N+1] int64 on the device
at::Tensor decode_frame(DecodeContext& ctx, const ForwardResult& res, const RasWindow* ras,
                        const RepetitionWindow* rep, bool compiled) {
    const DualArModel& model = *ctx.model;
    const at::Tensor main = sample_main(ctx, res.logits, ras, rep);  // [1]
    KvCache& fast = ctx.caches->fast;
    if (ctx.s1) fast.reset();  // S1-era code zero-fills the fast cache every frame
    auto fast_forward = [&](const at::Tensor& x, int64_t pos) {
        return compiled ? ctx.compiled->forward_generate_fast(x, pos, fast)
                        : model.forward_generate_fast(x, pos, fast, ctx.kv_mode);
    };
    auto sample = [&](size_t, const at::Tensor& logits, int64_t k) { return sample_codebook(ctx, logits, k, rep); };
    return fast_codebooks(model, {main}, res.hidden_states, ctx.ids.semantic_begin, fast_forward, sample)[0];
}

}  // namespace

at::Tensor all_logits(const DecodeContext& ctx, const ForwardResult& res) {
    return ctx.head.defined() ? ctx.model->vocab_logits(res) : res.logits;
}

const RasWindow* ras_of(const DecodeContext& ctx, const StaticDecodeState& s) { return ctx.s1 ? nullptr : &s.ras; }
const RepetitionWindow* rep_of(const DecodeContext& ctx, const StaticDecodeState& s) {
    return ctx.s1 ? &s.rep : nullptr;
}

void accept_column(const DecodeContext& ctx, StaticDecodeState& s, const at::Tensor& column) {
    if (ctx.s1)
        s.rep.accept(column);
    else
        s.ras.accept(column.narrow(0, 0, 1));
}

std::vector<int64_t> to_host(const at::Tensor& column) {
    const at::Tensor c = column.to(at::kCPU).contiguous();
    return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

void Text2SemanticCaches::prepare_head(const DualArModel& model, const TokenIds& ids) {
    if (head.defined() && head.device() == model.device() && head_for.semantic_begin == ids.semantic_begin &&
        head_for.semantic_end == ids.semantic_end && head_for.im_end == ids.im_end)
        return;
    std::vector<int64_t> rows;
    const int64_t vocab = model.config().vocab_size;
    const bool im_end_apart = ids.im_end >= 0 && ids.im_end < vocab &&
                              (ids.im_end < ids.semantic_begin || ids.im_end > ids.semantic_end);
    if (im_end_apart && ids.im_end < ids.semantic_begin) rows.push_back(ids.im_end);
    for (int64_t id = ids.semantic_begin; id <= ids.semantic_end; ++id) rows.push_back(id);
    if (im_end_apart && ids.im_end > ids.semantic_end) rows.push_back(ids.im_end);
    head_ids = at::tensor(rows, at::TensorOptions().dtype(at::kLong)).to(model.device());
    head = model.head_rows(head_ids);
    head_for = ids;
}

void Text2SemanticCaches::prepare(const DualArModel& model, int64_t capacity) {
    if (slow.empty())
        slow = model.make_slow_cache(capacity);
    else
        slow.ensure_capacity(capacity);
    if (fast.empty()) fast = model.make_fast_cache();
}

at::Tensor decode_one_token(DecodeContext& ctx, const at::Tensor& x, int64_t start, const RasWindow* ras,
                            const RepetitionWindow* rep, at::Tensor* captured) {
    // The prefill (start 0) stays eager in the compiled arm, as fish-speech's prefill_decode does.
    const bool compiled = ctx.compiled && start > 0 && x.size(2) == 1;
    auto step = [&] {
        const ForwardResult res =
            compiled ? ctx.compiled->forward_generate(x, start, ctx.caches->slow)
                     : ctx.model->forward_generate(x, start, ctx.caches->slow, ctx.kv_mode, ctx.head);
        if (captured) *captured = all_logits(ctx, res).reshape({-1}).to(at::kFloat).cpu().clone();
        return decode_frame(ctx, res, ras, rep, compiled);
    };
    // An eager CPU decode frame: its GEMVs served by the team (nn/gemv_team.h); not the prefill,
    // whose GEMMs want libtorch's threads.
    if (ctx.team == nullptr || compiled || start == 0 || x.size(2) != 1 || !ctx.model->device().is_cpu()) return step();
    at::Tensor column;
    ctx.team->run([&] { column = step(); });
    return column;
}

StaticDecodeState::StaticDecodeState(const DualArModel& model, const std::vector<int64_t>& first, int64_t pos,
                                     bool keep)
    : ras(model.device()), rep(int64_t(first.size()), model.device()), keep_logits(keep) {
    const auto long_opts = at::TensorOptions().dtype(at::kLong).device(model.device());
    cur = at::tensor(first, at::TensorOptions().dtype(at::kLong)).view({1, int64_t(first.size()), 1}).to(long_opts);
    input_pos = at::full({1}, pos, long_opts);
    if (keep_logits) logits = at::zeros({model.config().vocab_size}, long_opts.dtype(at::kFloat));
}

void decode_one_token_static(DecodeContext& ctx, StaticDecodeState& s, int64_t kv_len) {
    const ForwardResult res = ctx.model->forward_generate_at(s.cur, s.input_pos, kv_len, ctx.caches->slow, ctx.head);
    if (s.keep_logits) s.logits.copy_(all_logits(ctx, res).reshape({-1}));
    const at::Tensor column = decode_frame(ctx, res, ras_of(ctx, s), rep_of(ctx, s), false);
    accept_column(ctx, s, column);
    s.cur.view({-1}).copy_(column);
    s.input_pos.add_(1);
}

void decode_n_tokens(DecodeContext& ctx, const std::vector<int64_t>& first, int64_t input_pos,
                     int64_t num_new_tokens, const GenerateOptions& opts, std::vector<std::vector<int64_t>>& columns,
                     GenerateStats& stats) {
    const int64_t n_rows = ctx.model->config().num_codebooks + 1;
    // The static step copies its logits into the state; the eager step captures them directly.
    const bool keep_logits = opts.static_steps && int(columns.size()) < opts.capture_logits_frames;
    StaticDecodeState state(*ctx.model, first, input_pos, keep_logits);  // also the eager path's windows
    at::Tensor cur = state.cur;
    // Each eager frame at the governor's count; between frames (the streamed codec's chunks in
    // on_frame) and after them this thread keeps its own. The GEMV rows' bits do not depend on the
    // count (nn/gemv.cpp), nor do the codes (tests/unit/tst_generator.cpp).
    ThreadGovernor* governor = opts.static_steps || opts.compiled ? nullptr : opts.threads;
    if (governor) governor->begin(at::get_num_threads());
    std::optional<TeamRunQueueWait> waits;  // the governor's sign of other programs on the cores
    if (governor) waits.emplace();
    for (int64_t i = 0; i < num_new_tokens; ++i) {
        if (opts.should_abort && opts.should_abort()) {
            stats.stop_reason = "cancelled";
            return;
        }
        const auto t0 = Clock::now();
        if (waits) waits->since_last();  // what waited between frames (the streamed codec) is not this frame's
        const bool capture = int(columns.size()) < opts.capture_logits_frames;
        at::Tensor logits;
        std::vector<int64_t> column;
        int threads = 0;
        if (opts.static_steps) {
            const int64_t kv_len = kv_bucket(ctx.kv_mode, input_pos, ctx.caches->slow.capacity());
            opts.static_steps->run(kv_len, [&] { decode_one_token_static(ctx, state, kv_len); });
            cur = state.cur.view({-1});
            if (capture) logits = state.logits.cpu().clone();
            column = to_host(cur);  // the frame's one device->host read
            threads = at::get_num_threads();
        } else {
            const RegionThreads frame_threads(governor ? governor->threads() : 0);
            cur = decode_one_token(ctx, cur.view({1, n_rows, 1}), input_pos, ras_of(ctx, state), rep_of(ctx, state),
                                   capture ? &logits : nullptr);
            accept_column(ctx, state, cur);
            column = to_host(cur);
            threads = at::get_num_threads();  // what OpenMP gave this frame's regions
        }
        if (capture) stats.captured_logits.push_back(logits);
        ++input_pos;
        columns.push_back(column);
        const double ms = ms_since(t0);
        const double waited = waits ? waits->since_last() : -1.0;
        stats.step_ms.push_back(ms);
        stats.step_threads.push_back(threads);
        ++stats.frames;
        if (opts.on_frame) opts.on_frame(stats.frames - 1, std::vector<int32_t>(column.begin(), column.end()), ms);
        if (governor) governor->after_frame(ms, waited);  // after the callback, which reports this frame's count
        if (column[0] == ctx.ids.im_end && !opts.suppress_im_end) {
            stats.stop_reason = "im_end";
            return;
        }
    }
    stats.stop_reason = "max_new_frames";
}

int64_t check_prompt(const DualArModel& model, const at::Tensor& prompt, const GenerateOptions& opts) {
    const auto& c = model.config();
    const int64_t n_rows = c.num_codebooks + 1;
    if (prompt.dim() != 2 || prompt.size(0) != n_rows || prompt.size(1) < 1)
        throw ReefError(ErrorCode::InvalidArgument, "generate: prompt must be [" + std::to_string(n_rows) +
                                                        ", T] with T >= 1");
    const int64_t T = prompt.size(1);
    if (T >= c.max_seq_len)
        throw ReefError(ErrorCode::InvalidArgument, "Input sequence length " + std::to_string(T) +
                                                        " exceeds max_seq_len " + std::to_string(c.max_seq_len));
    return opts.max_new_tokens > 0 ? std::min(opts.max_new_tokens, c.max_seq_len - T) : c.max_seq_len - T;
}

DecodeContext make_decode_context(const DualArModel& model, Text2SemanticCaches& caches, const TokenIds& ids,
                                  const GenerateOptions& opts, at::Generator& gen) {
    const auto& c = model.config();
    DecodeContext ctx;
    ctx.model = &model;
    ctx.caches = &caches;
    ctx.ids = ids;
    ctx.s1 = c.s1_decoding();
    // HEAD builds temperature / top_p in the model dtype; the S1-era code used fp32 tensors.
    ctx.knobs = round_knobs(opts.knobs, ctx.s1 ? at::kFloat : model.dtype());
    if (ctx.s1 && !ctx.knobs.greedy()) ctx.knobs.top_k = std::max(c.vocab_size, c.codebook_size);  // S1: no top-k
    ctx.knobs.exponential = ctx.s1;
    ctx.high_knobs = round_knobs({kRasHighTemp, kRasHighTopP, opts.knobs.top_k}, model.dtype());
    ctx.high_knobs.temperature = opts.knobs.greedy() ? 0.0 : ctx.high_knobs.temperature;
    ctx.repetition_penalty = opts.repetition_penalty;
    ctx.kv_mode = opts.kv_mode;
    ctx.gen = &gen;
    ctx.compiled = opts.compiled;
    if (!ctx.s1) {
        caches.prepare_head(model, ids);
        ctx.head = caches.head;
        ctx.head_ids = caches.head_ids;
        ctx.draw = {c.vocab_size, caches.head_ids};
        ctx.semantic_logit_bias = semantic_logit_bias(c.vocab_size, ids.semantic_begin, ids.semantic_end, ids.im_end,
                                                      opts.suppress_im_end, model.device())
                                      .index_select(0, caches.head_ids);
    }
    return ctx;
}

std::vector<int64_t> prefill(DecodeContext& ctx, const at::Tensor& prompt, const GenerateOptions& opts,
                             GenerateStats& stats) {
    // prefill: the whole prompt at positions 0..T-1 gives the first frame (no RAS / penalty window)
    const int64_t n_rows = prompt.size(0), T = prompt.size(1);
    const auto t0 = Clock::now();
    const at::Tensor x = prompt.to(at::kLong).view({1, n_rows, T}).to(ctx.model->device());
    // A voice prefix first, on its own (prefix_kv_store.h): from the store, or computed and kept.
    const int64_t p = opts.voice_prefix > 0 && opts.voice_prefix < T ? opts.voice_prefix : 0;
    if (p > 0) {
        const at::Tensor head_tokens = prompt.narrow(1, 0, p);  // [N+1, P]
        if (opts.prefix_store && opts.prefix_store->restore(head_tokens, opts.prefix_context, ctx.caches->slow)) {
            stats.prefix_reused = p;
        } else {
            ctx.model->forward_generate(x.narrow(2, 0, p).contiguous(), 0, ctx.caches->slow, ctx.kv_mode, ctx.head);
            if (opts.prefix_store) opts.prefix_store->put(head_tokens, opts.prefix_context, ctx.caches->slow);
        }
    }
    at::Tensor logits;
    const bool capture = opts.capture_logits_frames > 0;
    std::vector<int64_t> first =
        to_host(decode_one_token(ctx, x.narrow(2, p, T - p).contiguous(), p, nullptr, nullptr, capture ? &logits : nullptr));
    if (capture) stats.captured_logits.push_back(logits);
    stats.prefill_ms = ms_since(t0);
    stats.frames = 1;
    if (opts.on_frame) opts.on_frame(0, std::vector<int32_t>(first.begin(), first.end()), stats.prefill_ms);
    return first;
}

at::Tensor codes_of(const std::vector<std::vector<int64_t>>& columns, const GenerateStats& stats, int64_t n_codebooks) {
    int64_t n = int64_t(columns.size());
    if (stats.stop_reason == "im_end") --n;  // the im_end column is not audio
    at::Tensor codes = at::empty({n_codebooks, n}, at::kLong);
    auto acc = codes.accessor<int64_t, 2>();
    for (int64_t j = 0; j < n; ++j)
        for (int64_t r = 0; r < n_codebooks; ++r) acc[r][j] = columns[size_t(j)][size_t(r + 1)];
    return codes;
}

at::Tensor generate(const DualArModel& model, Text2SemanticCaches& caches, const at::Tensor& prompt,
                    const TokenIds& ids, const GenerateOptions& opts, at::Generator& gen, GenerateStats& stats) {
    c10::InferenceMode guard;
    const auto& c = model.config();
    const int64_t max_new = check_prompt(model, prompt, opts);
    const int64_t T = prompt.size(1);
    stats = GenerateStats{};
    stats.prompt_tokens = T;
    caches.prepare(model, kv_capacity_for(T, max_new, opts.kv_margin, c.max_seq_len));
    stats.kv_capacity = caches.slow.capacity();
    DecodeContext ctx = make_decode_context(model, caches, ids, opts, gen);
    GemvTeam team;  // learns this generation's GEMV order
    if (model.device().is_cpu() && gemv_supported(model.dtype())) ctx.team = &team;

    std::vector<std::vector<int64_t>> columns;
    if (opts.should_abort && opts.should_abort()) {
        stats.stop_reason = "cancelled";
        return at::zeros({c.num_codebooks, 0}, at::kLong);
    }
    columns.push_back(prefill(ctx, prompt, opts, stats));
    const auto& first = columns.back();
    if (first[0] == ids.im_end && !opts.suppress_im_end)
        stats.stop_reason = "im_end";  // fish-speech would decode on; a first-frame im_end is an empty take
    else if (max_new <= 1)
        stats.stop_reason = "max_new_frames";
    else
        decode_n_tokens(ctx, columns.back(), T, max_new - 1, opts, columns, stats);
    return codes_of(columns, stats, c.num_codebooks);
}

}  // namespace reef
