// Where logits_to_probs (sampler.h) cuts a row, found on the CPU without at::sort's index
// permutation (issue #45: long-form speed). fish-speech sorts the whole row descending, takes the
// cumulative softmax, and removes every rank past top_p or top_k but the first; the removed ranks
// are a suffix of the sorted row, so the kept tokens are exactly those whose logit is above the
// first removed one — unless that logit ties the last kept one, where only at::sort's own order of
// the tied tokens says which of them stay. So: the sorted values (any correct sort gives the same
// values) by a radix sort, the cumulative softmax by the same ATen ops on them (the same bits), the
// first removed rank found, and no answer where a tie straddles it: the caller sorts then.
#pragma once
#include <ATen/ATen.h>

#include <optional>

namespace reef {

// A non-empty, contiguous fp32 CPU tensor: the rows the CPU sampler's loops read directly.
bool cpu_float_row(const at::Tensor& t);

// logits: [V] float32, contiguous. The value t such that logits_to_probs keeps exactly the tokens
// with logit > t (-inf: all of them), or nullopt where this cannot be decided without at::sort: not
// a CPU float row, a NaN or +inf logit, or the last kept and the first removed logit equal.
std::optional<float> top_p_cut_cpu(const at::Tensor& logits, double top_p, int64_t top_k);

}  // namespace reef
