// Sampling (fish-speech text2semantic/inference.py): pure functions over one logits row plus the two
// stateful windows (RAS for S2, the S1 repetition-penalty window). Probabilities are computed in
// fp32 (fish-speech uses the model dtype; the distribution is the same). V=vocab or codebook width.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <deque>
#include <vector>

namespace reef {

inline constexpr int kRasWinSize = 10;      // RAS_WIN_SIZE
inline constexpr double kRasHighTemp = 1.0;  // RAS_HIGH_TEMP
inline constexpr double kRasHighTopP = 0.9;  // RAS_HIGH_TOP_P
inline constexpr int kS1PenaltyWindow = 16;  // S1-era decode_n_tokens win_size
inline constexpr int64_t kS1FastLogits = 1024;  // S1-era short_logits width

struct SampleKnobs {
    double temperature = 0.8;
    double top_p = 0.8;
    int64_t top_k = 30;  // >= V disables top-k (S1 has none)
    bool exponential = false;  // S1-era draw: q = empty_like(probs).exponential_(1) instead of −log(U)
    bool greedy() const { return temperature <= 0.0 || top_k == 1; }
};

// Rounds temperature / top_p through the model dtype, as fish-speech builds them as tensors of it
// (0.8 in bf16 = 0.80078125).
SampleKnobs round_knobs(const SampleKnobs& knobs, at::ScalarType dtype);

// port of inference.py: logits_to_probs. logits: [V] -> probs [V] float32.
// Top-p on the UN-tempered softmax with the exclusive crossing rule (the token whose cumulative
// probability crosses top_p is removed), rank 0 always kept, ranks >= top_k removed, then
// ÷ max(temperature, 1e-5) and softmax.
at::Tensor logits_to_probs(const at::Tensor& logits, double temperature, double top_p, int64_t top_k);

// Where the race's random numbers come from when the logits hold only some ids of a vocabulary
// (a row-restricted head): fish-speech draws one number per vocab id, so draw `size` numbers and
// race with those at `index` ([R] int64, ascending ids). The ids left out have probability 0, so
// this picks what the whole row would, from the same random stream. Default: one per logit.
struct SampleDraw {
    int64_t size = 0;
    at::Tensor index;
};

// at::rand(sizes, gen, options), value for value, leaving the generator where at::rand leaves it;
// for fp32 on the CPU drawn by a plain loop over the generator (ATen's per-element kernel call cost
// ~20 ns an element, 4096 a draw and 11 draws a frame), elsewhere by at::rand itself.
at::Tensor uniform_draw(const std::vector<int64_t>& sizes, at::Generator& gen, const at::TensorOptions& options);

// port of inference.py: multinomial_sample_one_no_sync — argmax(probs / −log U), U = rand_like(probs)
// drawn from `gen` (one draw of probs.numel() values, or draw.size); with `exponential` the S1-era
// q = exponential_(1) draw (same distribution, the S1 stream). probs: [R] -> [1] int64 index into probs
at::Tensor multinomial_sample_one_no_sync(const at::Tensor& probs, at::Generator& gen, bool exponential = false,
                                          const SampleDraw& draw = {});

// port of inference.py: sample — logits_to_probs then the exponential race; greedy = argmax with
// no RNG draw. logits: [R] (any shape, flattened) -> [1] int64 index into the logits, on their device.
at::Tensor sample(const at::Tensor& logits, const SampleKnobs& knobs, at::Generator& gen, const SampleDraw& draw = {});

// The constrained-decoding bias of generate(): 0 on [semantic_begin, semantic_end] and at im_end
// (unless suppressed, for fixed-length bench runs), −inf elsewhere. -> [V] float32
at::Tensor semantic_logit_bias(int64_t vocab_size, int64_t semantic_begin, int64_t semantic_end, int64_t im_end,
                               bool suppress_im_end, at::Device device);

// S1-era logits_to_probs penalty: for each id in `window` (duplicates count once),
// score < 0 ? score·rp : score/rp. logits: [V] float32, modified in place; window: [W] int64 on
// the logits' device (no host sync, so a captured decode step can apply it).
void apply_repetition_penalty(at::Tensor& logits, const at::Tensor& window, double repetition_penalty);
void apply_repetition_penalty(at::Tensor& logits, const std::vector<int64_t>& window, double repetition_penalty);

// The two sampling windows live on the decode device and change in place, so a decode step reads
// and updates them without a host round trip (and a CUDA graph replays over the same buffers).

// RAS window of decode_n_tokens: the last kRasWinSize main tokens, zero-initialised; the prefill
// token is not inserted. A semantic candidate found here is replaced by the high-temperature draw.
class RasWindow {
public:
    explicit RasWindow(at::Device device = at::kCPU);
    at::Tensor contains(const at::Tensor& token) const;  // token [1] int64 -> [1] bool
    bool contains(int64_t id) const;                     // host check (tests)
    void accept(const at::Tensor& token);                // token [1] int64
    void accept(int64_t id);

private:
    at::Tensor m_ids;  // [kRasWinSize] int64, oldest first
};

// S1-era previous_tokens window per row (row 0 = main token, row k+1 = codebook k): zeros until
// filled, then the last kS1PenaltyWindow tokens. The penalty treats a window as a set, so the rows
// are rings (slot = count mod W) rather than shifted lists.
class RepetitionWindow {
public:
    explicit RepetitionWindow(int64_t rows, at::Device device = at::kCPU);
    const at::Tensor& ids() const { return m_ids; }  // [rows, kS1PenaltyWindow] int64
    at::Tensor window(int64_t row) const { return m_ids.select(0, row); }  // [kS1PenaltyWindow]
    std::vector<int64_t> window_ids(int64_t row) const;  // host copy (tests)
    void accept(const at::Tensor& column);               // column [rows] int64
    void accept(const std::vector<int64_t>& column);

private:
    at::Tensor m_ids;    // [rows, kS1PenaltyWindow]
    at::Tensor m_count;  // [1] int64: columns accepted so far
};

// A per-request generator on the logits' device, seeded like torch.manual_seed(seed) on it.
at::Generator make_request_generator(at::Device device, uint64_t seed);

}  // namespace reef
