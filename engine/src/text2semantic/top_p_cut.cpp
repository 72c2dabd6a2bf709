#include "text2semantic/top_p_cut.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "text2semantic/sort_ranks.h"

namespace reef {
namespace {

// A float's bits as a key whose unsigned order is the float order descending (no NaN here): the
// sign flipped for positives, all bits for negatives, then complemented. -0.0 and 0.0 get
// different keys; they are equal floats, and where the order of equal values could matter (a tie
// at the cut) the caller gives up anyway.
uint32_t descending_key(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    const uint32_t ascending = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    return ~ascending;
}

// x sorted descending: an LSD radix sort over four bytes of the keys (4096 logits: a few µs,
// where at::sort's introsort over values and indices took ~140 µs on the AMX Xeon). false, and
// nothing sorted, where x holds a NaN or +inf (found in the pass that makes the keys).
bool sort_descending(const float* x, int64_t n, std::vector<float>& out) {
    // the engine thread's buffers, kept between calls: a row's draw allocates nothing once they
    // have its size (so an allocation failure in a step is the tensors', as everywhere else)
    thread_local std::vector<uint32_t> a, b;
    a.resize(size_t(n));
    b.resize(size_t(n));
    std::array<std::array<int64_t, 256>, 4> count{};
    for (int64_t i = 0; i < n; ++i) {
        if (std::isnan(x[i]) || x[i] == std::numeric_limits<float>::infinity()) return false;
        const uint32_t k = descending_key(x[i]);
        a[size_t(i)] = k;
        for (int byte = 0; byte < 4; ++byte) ++count[size_t(byte)][(k >> (8 * byte)) & 0xFFu];
    }
    for (int byte = 0; byte < 4; ++byte) {
        std::array<int64_t, 256> at{};
        for (size_t v = 1; v < 256; ++v) at[v] = at[v - 1] + count[size_t(byte)][v - 1];
        for (int64_t i = 0; i < n; ++i) {
            const uint32_t k = a[size_t(i)];
            b[size_t(at[(k >> (8 * byte)) & 0xFFu]++)] = k;
        }
        a.swap(b);
    }
    out.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
        const uint32_t ascending = ~a[size_t(i)];
        const uint32_t u = (ascending & 0x80000000u) ? (ascending & 0x7FFFFFFFu) : ~ascending;
        std::memcpy(&out[size_t(i)], &u, sizeof u);
    }
    return true;
}

}  // namespace

bool cpu_float_row(const at::Tensor& t) {
    return t.device().is_cpu() && t.scalar_type() == at::kFloat && t.is_contiguous() && t.numel() > 0;
}

std::optional<TopPCut> top_p_cut_cpu(const at::Tensor& logits, double top_p, int64_t top_k) {
    if (logits.dim() != 1 || !cpu_float_row(logits)) return std::nullopt;
    const int64_t n = logits.numel();
    thread_local std::vector<float> sorted;
    if (!sort_descending(logits.const_data_ptr<float>(), n, sorted)) return std::nullopt;
    // logits_to_probs' cum_probs, by the same ops on the same values
    const at::Tensor sorted_t = at::from_blob(sorted.data(), {n}, at::TensorOptions().dtype(at::kFloat));
    const at::Tensor cum = at::cumsum(at::softmax(sorted_t, -1), -1);
    const float* c = cum.const_data_ptr<float>();
    // cum_probs.gt(top_p): the double scalar compared as the float tensor's dtype
    const float p = float(top_p);
    int64_t cut = n;  // the first removed rank (rank 0 always stays)
    for (int64_t r = 1; r < n; ++r)
        if (c[r] > p || r >= top_k) {
            cut = r;
            break;
        }
    if (cut == n) return TopPCut{-std::numeric_limits<float>::infinity(), {}};
    const float t = sorted[size_t(cut)];
    if (sorted[size_t(cut - 1)] != t) return TopPCut{t, {}};
    // a tie straddles the cut: ranks [lo, cut) hold logits equal to t, and at::sort's order of the
    // row says which ids those are
    int64_t lo = cut - 1;
    while (lo > 0 && sorted[size_t(lo - 1)] == t) --lo;
    thread_local std::vector<RankedLogit> row;
    row.resize(size_t(n));
    const float* x = logits.const_data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) row[size_t(i)] = {x[i], i};
    settle_ranks(row, lo, cut);
    TopPCut out{t, {}};
    for (int64_t r = lo; r < cut; ++r) out.tied_kept.push_back(row[size_t(r)].id);
    return out;
}

}  // namespace reef
