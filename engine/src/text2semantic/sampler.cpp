#include "text2semantic/sampler.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include "check.h"
#include "text2semantic/top_p_cut.h"
#include "text2semantic/uniform_draw.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/row_ops.h"
#endif

namespace reef {

SampleKnobs round_knobs(const SampleKnobs& knobs, at::ScalarType dtype) {
    SampleKnobs r = knobs;
    r.temperature = at::scalar_tensor(knobs.temperature, at::TensorOptions().dtype(dtype)).item<double>();
    r.top_p = at::scalar_tensor(knobs.top_p, at::TensorOptions().dtype(dtype)).item<double>();
    return r;
}

at::Tensor logits_to_probs(const at::Tensor& logits_in, double temperature, double top_p, int64_t top_k) {
    // logits: [V] -> probs [V]
    const at::Tensor logits = logits_in.reshape({-1}).to(at::kFloat);
    at::Tensor to_remove;
    if (const std::optional<TopPCut> cut = top_p_cut_cpu(logits, top_p, top_k)) {
        to_remove = logits.le(cut->threshold);  // the same tokens as below (top_p_cut.h), a tenth of the time on a CPU
        bool* removed = to_remove.mutable_data_ptr<bool>();
        for (const int64_t id : cut->tied_kept) removed[id] = false;
    } else {
        const auto [sorted_logits, sorted_indices] = at::sort(logits, /*dim=*/-1, /*descending=*/true);
        const at::Tensor cum_probs = at::cumsum(at::softmax(sorted_logits, -1), -1);
        const at::Tensor ranks = at::arange(sorted_logits.size(-1), logits.options().dtype(at::kLong));
        // rank 0 (the most likely token) is always kept; an elementwise rule rather than an indexed
        // write, so a captured decode step needs no host scalar
        const at::Tensor remove = cum_probs.gt(top_p).logical_or(ranks.ge(top_k)).logical_and(ranks.ne(0));
        to_remove = remove.scatter(-1, sorted_indices, remove);
    }
    const at::Tensor kept = logits.masked_fill(to_remove, -std::numeric_limits<float>::infinity());
    return at::softmax(kept / std::max(temperature, 1e-5), -1);
}

at::Tensor uniform_draw(const std::vector<int64_t>& sizes, at::Generator& gen, const at::TensorOptions& options) {
    if (!(options.device().is_cpu() && options.dtype() == at::kFloat && gen.device().is_cpu()))
        return at::rand(sizes, gen, options);
    at::Tensor u = at::empty(sizes, options);
    auto* cpu = at::check_generator<at::CPUGeneratorImpl>(gen);
    std::lock_guard<std::mutex> lock(gen.mutex());
    uniform_into(cpu, u.numel(), u.mutable_data_ptr<float>());
    return u;
}

namespace {

// at::argmax(x [/ q], -1, keepdim=True) of one fp32 CPU row, as ATen answers it: the first index of
// the largest value, a NaN counting as the largest (the first NaN wins); with q, of x[i] / q[i]
// (IEEE division, as ATen's div rounds it). ATen's reduction took ~11 µs a 4096 row (and the
// division a tensor op more), 11 rows a frame; a scalar loop 8 µs (5 with the division: its compare
// chain and NaN exit do not vectorize), the row kernels' two vector passes 0.5 (1.7) µs
// (kernels/row_ops.h; AMX Xeon, a 4096 row timed alone).
at::Tensor argmax_of(const at::Tensor& x, const at::Tensor* q) {
    const float* a = x.const_data_ptr<float>();
    const float* b = q ? q->const_data_ptr<float>() : nullptr;
#ifdef REEF_HAVE_KERNELS
    const int64_t best = kernels::argmax_row(a, b, x.numel());
#else
    auto value = [&](int64_t i) { return b ? a[i] / b[i] : a[i]; };
    int64_t best = 0;
    float top = value(0);
    for (int64_t i = 1, n = x.numel(); i < n && !std::isnan(top); ++i)
        if (const float v = value(i); v > top || std::isnan(v)) top = v, best = i;
#endif
    return at::full({1}, best, at::TensorOptions().dtype(at::kLong));
}

// The race on the CPU for an fp32 row without ATen's passes over the whole draw: U drawn into a
// buffer, then −log U only where probs > 0 (after a top-k/top-p cut, ≤ top_k of a row's 4,096 or
// 155,776 draws; log is elementwise, so these are the values −log over the whole draw gives them),
// each p / q as ATen's division rounds it, the first largest. Every other id has p = 0, so
// p / q = 0 there (q > 0); where the largest kept value is not above 0 (q = inf on a kept id), or a
// p or a p / q is NaN, the whole row's argmax decides, as before. -> [1] int64 index into probs, or
// an undefined tensor: not taken (nothing drawn).
at::Tensor race_cpu(const at::Tensor& probs, at::Generator& gen, int64_t size, const at::Tensor& index) {
    const int64_t n = probs.numel();
    const bool indexed = index.defined();
    if (probs.dim() != 1 || !cpu_float_row(probs) || !gen.device().is_cpu() ||
        (indexed && !(index.device().is_cpu() && index.scalar_type() == at::kLong && index.is_contiguous() &&
                      index.numel() == n)) ||
        (!indexed && size != n))
        return {};
    const int64_t* ids = indexed ? index.const_data_ptr<int64_t>() : nullptr;
    if (ids && !std::all_of(ids, ids + n, [&](int64_t id) { return id >= 0 && id < size; })) return {};
    thread_local std::vector<float> u;  // the engine thread's draw, kept between calls
    u.resize(size_t(size));
    {
        auto* cpu = at::check_generator<at::CPUGeneratorImpl>(gen);
        std::lock_guard<std::mutex> lock(gen.mutex());
        uniform_into(cpu, size, u.data());
    }
    const float* p = probs.const_data_ptr<float>();
    thread_local std::vector<int64_t> kept;
    thread_local std::vector<float> kept_u;
    kept.clear(), kept_u.clear();
    bool nan = false;
    for (int64_t j = 0; j < n; ++j) {
        nan = nan || std::isnan(p[j]);
        if (p[j] > 0) kept.push_back(j), kept_u.push_back(u[size_t(ids ? ids[j] : j)]);
    }
    if (!nan && !kept.empty()) {
        const at::Tensor q = -at::log(at::from_blob(kept_u.data(), {int64_t(kept_u.size())}, probs.options()));
        const float* qd = q.const_data_ptr<float>();
        float top = 0;
        int64_t best = -1;
        for (size_t k = 0; k < kept.size() && !nan; ++k) {
            const float v = p[kept[k]] / qd[k];
            nan = std::isnan(v);  // inf / inf: ATen's argmax takes the first NaN, so the whole row decides
            if (v > top) top = v, best = kept[k];
        }
        if (best >= 0 && !nan) return at::full({1}, best, at::TensorOptions().dtype(at::kLong));
    }
    // the whole row from the same draw, as multinomial_sample_one_no_sync races it
    at::Tensor q = -at::log(at::from_blob(u.data(), {size}, probs.options()));
    if (indexed) q = q.index_select(0, index);
    return argmax_of(probs, &q);
}

}  // namespace

at::Tensor multinomial_sample_one_no_sync(const at::Tensor& probs, at::Generator& gen, bool exponential,
                                          const SampleDraw& draw) {
    const int64_t size = draw.size > 0 ? draw.size : probs.numel();
    if (!exponential)
        if (at::Tensor pick = race_cpu(probs, gen, size, draw.index); pick.defined()) return pick;
    // at::rand / exponential_ (and uniform_draw) take the generator's own lock.
    const std::vector<int64_t> sizes{size};
    at::Tensor q = exponential ? at::empty(sizes, probs.options()).exponential_(1.0, gen)
                               : -at::log(uniform_draw(sizes, gen, probs.options()));
    if (draw.index.defined()) q = q.index_select(0, draw.index);
    if (probs.dim() == 1 && cpu_float_row(probs) && cpu_float_row(q) && q.numel() == probs.numel())
        return argmax_of(probs, &q);
    return at::argmax(probs / q.view(probs.sizes()), -1, /*keepdim=*/true).to(at::kLong);
}

at::Tensor sample(const at::Tensor& logits, const SampleKnobs& knobs, at::Generator& gen, const SampleDraw& draw) {
    const at::Tensor row = logits.reshape({-1});
    if (knobs.greedy()) return cpu_float_row(row) ? argmax_of(row, nullptr) : at::argmax(row, -1, /*keepdim=*/true).to(at::kLong);
    return multinomial_sample_one_no_sync(logits_to_probs(row, knobs.temperature, knobs.top_p, knobs.top_k), gen,
                                          knobs.exponential, draw);
}

at::Tensor semantic_logit_bias(int64_t vocab_size, int64_t semantic_begin, int64_t semantic_end, int64_t im_end,
                               bool suppress_im_end, at::Device device) {
    REEF_CHECK(semantic_begin >= 0 && semantic_begin <= semantic_end && semantic_end < vocab_size,
               "semantic_logit_bias: semantic range outside the vocab");
    at::Tensor bias = at::full({vocab_size}, -std::numeric_limits<float>::infinity(),
                               at::TensorOptions().dtype(at::kFloat).device(device));
    bias.narrow(0, semantic_begin, semantic_end - semantic_begin + 1).zero_();
    if (!suppress_im_end && im_end >= 0 && im_end < vocab_size) bias.index_put_({im_end}, 0.0);
    return bias;
}

void apply_repetition_penalty(at::Tensor& logits, const at::Tensor& window, double repetition_penalty) {
    if (window.numel() == 0) return;
    const at::Tensor score = logits.gather(-1, window);
    const at::Tensor penalised = at::where(score.lt(0), score * repetition_penalty, score / repetition_penalty);
    logits.scatter_(-1, window, penalised);  // duplicates write the same value: penalised once
}

void apply_repetition_penalty(at::Tensor& logits, const std::vector<int64_t>& window, double repetition_penalty) {
    if (window.empty()) return;
    apply_repetition_penalty(logits, at::tensor(window, at::TensorOptions().dtype(at::kLong)).to(logits.device()),
                             repetition_penalty);
}

RasWindow::RasWindow(at::Device device)
    : m_ids(at::zeros({kRasWinSize}, at::TensorOptions().dtype(at::kLong).device(device))) {}

at::Tensor RasWindow::contains(const at::Tensor& token) const {
    return m_ids.eq(token.reshape({1})).any().view({1});
}

bool RasWindow::contains(int64_t id) const { return m_ids.eq(id).any().item<bool>(); }

void RasWindow::accept(const at::Tensor& token) {
    // [w1..w9, token]: cat builds a new tensor first, then the shift lands in the same buffer
    m_ids.copy_(at::cat({m_ids.narrow(0, 1, kRasWinSize - 1), token.reshape({1}).to(at::kLong)}));
}

void RasWindow::accept(int64_t id) { accept(at::full({1}, id, m_ids.options())); }

RepetitionWindow::RepetitionWindow(int64_t rows, at::Device device)
    : m_ids(at::zeros({rows, kS1PenaltyWindow}, at::TensorOptions().dtype(at::kLong).device(device))),
      m_count(at::zeros({1}, m_ids.options())) {}

std::vector<int64_t> RepetitionWindow::window_ids(int64_t row) const {
    const at::Tensor w = window(row).cpu().contiguous();
    return {w.data_ptr<int64_t>(), w.data_ptr<int64_t>() + w.numel()};
}

void RepetitionWindow::accept(const at::Tensor& column) {
    // column [rows] -> slot count mod W of every row
    REEF_CHECK(column.numel() == m_ids.size(0), "RepetitionWindow::accept: wrong column size");
    const at::Tensor slot = at::remainder(m_count, kS1PenaltyWindow);  // [1]
    m_ids.index_copy_(1, slot, column.reshape({m_ids.size(0), 1}).to(at::kLong));
    m_count.add_(1);
}

void RepetitionWindow::accept(const std::vector<int64_t>& column) {
    REEF_CHECK(int64_t(column.size()) == m_ids.size(0), "RepetitionWindow::accept: wrong column size");
    accept(at::tensor(column, at::TensorOptions().dtype(at::kLong)).to(m_ids.device()));
}

at::Generator make_request_generator(at::Device device, uint64_t seed) {
    at::Generator gen = device.is_cpu() ? at::make_generator<at::CPUGeneratorImpl>(seed)
                                        : at::globalContext().defaultGenerator(device).clone();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_current_seed(seed);
    return gen;
}

}  // namespace reef
