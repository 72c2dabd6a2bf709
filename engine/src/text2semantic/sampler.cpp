#include "text2semantic/sampler.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <limits>
#include <mutex>

#include "check.h"

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
    const auto [sorted_logits, sorted_indices] = at::sort(logits, /*dim=*/-1, /*descending=*/true);
    const at::Tensor cum_probs = at::cumsum(at::softmax(sorted_logits, -1), -1);
    const at::Tensor ranks = at::arange(sorted_logits.size(-1), logits.options().dtype(at::kLong));
    at::Tensor remove = cum_probs.gt(top_p).logical_or(ranks.ge(top_k));
    remove.index_put_({0}, false);  // always keep the most likely token
    const at::Tensor to_remove = remove.scatter(-1, sorted_indices, remove);
    const at::Tensor kept = logits.masked_fill(to_remove, -std::numeric_limits<float>::infinity());
    return at::softmax(kept / std::max(temperature, 1e-5), -1);
}

at::Tensor multinomial_sample_one_no_sync(const at::Tensor& probs, at::Generator& gen, bool exponential) {
    // at::rand / exponential_ take the generator's own lock.
    const at::Tensor q = exponential ? at::empty_like(probs).exponential_(1.0, gen)
                                     : -at::log(at::rand(probs.sizes(), gen, probs.options()));
    return at::argmax(probs / q, -1, /*keepdim=*/true).to(at::kLong);
}

at::Tensor sample(const at::Tensor& logits, const SampleKnobs& knobs, at::Generator& gen) {
    const at::Tensor row = logits.reshape({-1});
    if (knobs.greedy()) return at::argmax(row, -1, /*keepdim=*/true).to(at::kLong);
    return multinomial_sample_one_no_sync(logits_to_probs(row, knobs.temperature, knobs.top_p, knobs.top_k), gen,
                                          knobs.exponential);
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

void apply_repetition_penalty(at::Tensor& logits, const std::vector<int64_t>& window, double repetition_penalty) {
    if (window.empty()) return;
    const at::Tensor index =
        at::tensor(window, at::TensorOptions().dtype(at::kLong)).to(logits.device());
    const at::Tensor score = logits.gather(-1, index);
    const at::Tensor penalised =
        at::where(score.lt(0), score * repetition_penalty, score / repetition_penalty);
    logits.scatter_(-1, index, penalised);
}

bool RasWindow::contains(int64_t id) const { return std::find(m_ids.begin(), m_ids.end(), id) != m_ids.end(); }

void RasWindow::accept(int64_t id) {
    m_ids.pop_front();
    m_ids.push_back(id);
}

std::vector<int64_t> RepetitionWindow::window(int64_t row) const {
    const auto& h = m_history.at(size_t(row));
    std::vector<int64_t> w(kS1PenaltyWindow, 0);
    if (h.size() < size_t(kS1PenaltyWindow)) {
        std::copy(h.begin(), h.end(), w.begin());
    } else {
        std::copy(h.end() - kS1PenaltyWindow, h.end(), w.begin());
    }
    return w;
}

void RepetitionWindow::accept(const std::vector<int64_t>& column) {
    REEF_CHECK(column.size() == m_history.size(), "RepetitionWindow::accept: wrong column size");
    for (size_t r = 0; r < column.size(); ++r) m_history[r].push_back(column[r]);
}

at::Generator make_request_generator(at::Device device, uint64_t seed) {
    at::Generator gen = device.is_cpu() ? at::make_generator<at::CPUGeneratorImpl>(seed)
                                        : at::globalContext().defaultGenerator(device).clone();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_current_seed(seed);
    return gen;
}

}  // namespace reef
