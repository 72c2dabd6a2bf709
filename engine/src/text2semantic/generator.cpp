#include "text2semantic/generator.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>

#include "check.h"

namespace reef {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool is_semantic(const TokenIds& ids, int64_t token) {
    return token >= ids.semantic_begin && token <= ids.semantic_end;
}

// The main token of a frame: S2 = biased sample + RAS; S1 = repetition penalty, no bias.
int64_t sample_main(DecodeContext& ctx, const at::Tensor& logits, RasWindow* ras, RepetitionWindow* rep) {
    at::Tensor row = logits.reshape({-1}).to(at::kFloat);
    if (ctx.s1) {
        row = row.clone();
        if (rep) apply_repetition_penalty(row, rep->window(0), ctx.repetition_penalty);
        return sample(row, ctx.knobs, *ctx.gen).item<int64_t>();
    }
    const at::Tensor biased = row + ctx.semantic_logit_bias;
    const at::Tensor normal = sample(biased, ctx.knobs, *ctx.gen);
    // fish-speech always draws the high-temperature sample (it consumes RNG even when unused).
    const at::Tensor high = sample(biased, ctx.high_knobs, *ctx.gen);
    const int64_t token = normal.item<int64_t>();
    if (ras && is_semantic(ctx.ids, token) && ras->contains(token)) return high.item<int64_t>();
    return token;
}

}  // namespace

void Text2SemanticCaches::prepare(const DualArModel& model, int64_t capacity) {
    if (slow.empty())
        slow = model.make_slow_cache(capacity);
    else
        slow.ensure_capacity(capacity);
    if (fast.empty()) fast = model.make_fast_cache();
}

std::vector<int64_t> decode_one_token(DecodeContext& ctx, const at::Tensor& x, int64_t start, RasWindow* ras,
                                      RepetitionWindow* rep, at::Tensor* captured) {
    const DualArModel& model = *ctx.model;
    const auto& c = model.config();
    const ForwardResult res = model.forward_generate(x, start, ctx.caches->slow, ctx.kv_mode);
    if (captured) *captured = res.logits.reshape({-1}).to(at::kFloat).cpu().clone();
    const int64_t main = sample_main(ctx, res.logits, ras, rep);

    KvCache& fast = ctx.caches->fast;
    if (ctx.s1) fast.reset();  // S1-era code zero-fills the fast cache every frame
    model.forward_generate_fast(res.hidden_states, 0, fast, ctx.kv_mode);  // output unused: fills the cache
    const int64_t c0 = std::clamp<int64_t>(main - ctx.ids.semantic_begin, 0, c.codebook_size - 1);
    const auto long_opts = at::TensorOptions().dtype(at::kLong).device(model.device());
    at::Tensor code = at::full({1}, c0, long_opts);
    std::vector<at::Tensor> codes{code};
    at::Tensor h = model.embed_fast(code);
    SampleKnobs fast_knobs = ctx.knobs;
    for (int64_t k = 1; k < c.num_codebooks; ++k) {
        at::Tensor row = model.forward_generate_fast(h, k, fast, ctx.kv_mode).reshape({-1}).to(at::kFloat);
        if (ctx.s1) {
            row = row.narrow(0, 0, std::min(kS1FastLogits, row.size(0))).clone();
            if (rep) apply_repetition_penalty(row, rep->window(k + 1), ctx.repetition_penalty);
        }
        code = sample(row, fast_knobs, *ctx.gen);
        codes.push_back(code);
        h = model.embed_fast(code);
    }
    const at::Tensor fast_codes = at::cat(codes).cpu();  // the frame's one device->host copy
    std::vector<int64_t> column{main};
    const int64_t* p = fast_codes.data_ptr<int64_t>();
    column.insert(column.end(), p, p + fast_codes.numel());
    return column;
}

void decode_n_tokens(DecodeContext& ctx, const std::vector<int64_t>& first, int64_t input_pos,
                     int64_t num_new_tokens, const GenerateOptions& opts, std::vector<std::vector<int64_t>>& columns,
                     GenerateStats& stats) {
    const int64_t n_rows = ctx.model->config().num_codebooks + 1;
    RasWindow ras;
    RepetitionWindow rep(n_rows);
    std::vector<int64_t> cur = first;
    const auto long_opts = at::TensorOptions().dtype(at::kLong);
    for (int64_t i = 0; i < num_new_tokens; ++i) {
        if (opts.should_abort && opts.should_abort()) {
            stats.stop_reason = "cancelled";
            return;
        }
        const auto t0 = Clock::now();
        const at::Tensor x = at::tensor(cur, long_opts).view({1, n_rows, 1}).to(ctx.model->device());
        at::Tensor logits;
        const bool capture = int(columns.size()) < opts.capture_logits_frames;
        cur = decode_one_token(ctx, x, input_pos, ctx.s1 ? nullptr : &ras, ctx.s1 ? &rep : nullptr,
                               capture ? &logits : nullptr);
        if (capture) stats.captured_logits.push_back(logits);
        ++input_pos;
        ras.accept(cur[0]);
        rep.accept(cur);
        columns.push_back(cur);
        const double ms = ms_since(t0);
        stats.step_ms.push_back(ms);
        ++stats.frames;
        if (opts.on_frame) opts.on_frame(stats.frames - 1, std::vector<int32_t>(cur.begin(), cur.end()), ms);
        if (cur[0] == ctx.ids.im_end && !opts.suppress_im_end) {
            stats.stop_reason = "im_end";
            return;
        }
    }
    stats.stop_reason = "max_new_frames";
}

at::Tensor generate(const DualArModel& model, Text2SemanticCaches& caches, const at::Tensor& prompt_in,
                    const TokenIds& ids, const GenerateOptions& opts, at::Generator& gen, GenerateStats& stats) {
    c10::InferenceMode guard;
    const auto& c = model.config();
    const int64_t n_rows = c.num_codebooks + 1;
    if (prompt_in.dim() != 2 || prompt_in.size(0) != n_rows || prompt_in.size(1) < 1)
        throw ReefError(ErrorCode::InvalidArgument, "generate: prompt must be [" + std::to_string(n_rows) +
                                                        ", T] with T >= 1");
    const int64_t T = prompt_in.size(1);
    if (T >= c.max_seq_len)
        throw ReefError(ErrorCode::InvalidArgument, "Input sequence length " + std::to_string(T) +
                                                        " exceeds max_seq_len " + std::to_string(c.max_seq_len));
    const int64_t max_new = opts.max_new_tokens > 0 ? std::min(opts.max_new_tokens, c.max_seq_len - T)
                                                    : c.max_seq_len - T;
    stats = GenerateStats{};
    stats.prompt_tokens = T;
    caches.prepare(model, kv_capacity_for(T, max_new, opts.kv_margin, c.max_seq_len));
    stats.kv_capacity = caches.slow.capacity();

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
    if (!ctx.s1)
        ctx.semantic_logit_bias = semantic_logit_bias(c.vocab_size, ids.semantic_begin, ids.semantic_end, ids.im_end,
                                                      opts.suppress_im_end, model.device());

    std::vector<std::vector<int64_t>> columns;
    if (opts.should_abort && opts.should_abort()) {
        stats.stop_reason = "cancelled";
        return at::zeros({c.num_codebooks, 0}, at::kLong);
    }
    // prefill: the whole prompt at positions 0..T-1 gives the first frame (no RAS / penalty window)
    const auto t0 = Clock::now();
    const at::Tensor x = prompt_in.to(at::kLong).view({1, n_rows, T}).to(model.device());
    at::Tensor logits;
    const bool capture = opts.capture_logits_frames > 0;
    columns.push_back(decode_one_token(ctx, x, 0, nullptr, nullptr, capture ? &logits : nullptr));
    if (capture) stats.captured_logits.push_back(logits);
    stats.prefill_ms = ms_since(t0);
    stats.frames = 1;
    const auto& first = columns.back();
    if (opts.on_frame) opts.on_frame(0, std::vector<int32_t>(first.begin(), first.end()), stats.prefill_ms);
    if (first[0] == ids.im_end && !opts.suppress_im_end)
        stats.stop_reason = "im_end";  // fish-speech would decode on; a first-frame im_end is an empty take
    else if (max_new <= 1)
        stats.stop_reason = "max_new_frames";
    else
        decode_n_tokens(ctx, columns.back(), T, max_new - 1, opts, columns, stats);

    int64_t n = int64_t(columns.size());
    if (stats.stop_reason == "im_end") --n;  // the im_end column is not audio
    at::Tensor codes = at::empty({c.num_codebooks, n}, at::kLong);
    auto acc = codes.accessor<int64_t, 2>();
    for (int64_t j = 0; j < n; ++j)
        for (int64_t r = 0; r < c.num_codebooks; ++r) acc[r][j] = columns[size_t(j)][size_t(r + 1)];
    return codes;
}

}  // namespace reef
