// Where logits_to_probs (sampler.h) cuts a row, found on the CPU without at::sort's index
// permutation (issue #45: long-form speed). fish-speech sorts the whole row descending, takes the
// cumulative softmax, and removes every rank past top_p or top_k but the first; the removed ranks
// are a suffix of the sorted row, so the kept tokens are exactly those whose logit is above the
// first removed one — unless that logit ties the last kept one, where only at::sort's own order of
// the tied tokens says which of them stay. So: the sorted values (any correct sort gives the same
// values) by a radix sort, the cumulative softmax by the same ATen ops on them (the same bits), the
// first removed rank found, and where a tie straddles it, at::sort's order of the tied ranks only
// (sort_ranks.h).
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <vector>

namespace reef {

// A non-empty, contiguous fp32 CPU tensor: the rows the CPU sampler's loops read directly.
bool cpu_float_row(const at::Tensor& t);

// Where a row is cut: logits_to_probs keeps exactly the tokens with logit > threshold (-inf: all of
// them) and the ids in tied_kept (logits equal to the first removed one that at::sort ranks before
// it; empty unless a tie straddles the cut, then found as at::sort orders ties: sort_ranks.h).
struct TopPCut {
    float threshold = 0;
    std::vector<int64_t> tied_kept;
};

// logits: [V] float32, contiguous. nullopt where the cut cannot be found here: not a CPU float row,
// or a NaN or +inf logit (at::sort ranks those; the caller sorts then).
std::optional<TopPCut> top_p_cut_cpu(const at::Tensor& logits, double top_p, int64_t top_k);

}  // namespace reef
