// Reef's own decode attention on the CPU (kernels/decode_attention.h): the backend the "reef" SDPA
// policy selects for the decode call sites, beside libtorch's (math, flash, ...) that the study
// compares. libtorch 2.13's CPU flash kernel reads a decode query's K/V at 9-23 GB/s where one
// plain pass reads 31-34 (docs/cpu-kernels.md); this kernel reads each key and value row once for
// every query head sharing it. Everything else under the policy (prefill, the codec's window,
// calls this kernel does not take) runs libtorch's auto choice, and the recorded backend of every
// call says which ran.
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <string>

namespace reef {

// Why the kernel cannot take this call, "" when it can: a folded decode query q [B, H, G, D]
// against k, v [B, H, Lk, D] (the same H), on the CPU, fp32 or bf16 alike, rows with unit stride
// along D, a bool mask broadcastable to [B, 1, 1, Lk] or none.
std::string reef_attention_refusal(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   const std::optional<at::Tensor>& mask);

// softmax(q·kᵀ/√D)·v for a call reef_attention_refusal() accepts -> [B, H, G, D] in q's dtype
// (fp32 arithmetic, rounded once). The heads run on libtorch's intra-op threads, or on the GEMV
// team's threads inside a team step (nn/gemv_team.h).
at::Tensor reef_decode_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                 const std::optional<at::Tensor>& mask);

// One sequence's decode query already folded and widened: q [Hkv, G, D] fp32 (query head h = j·G + i
// is row i of KV head j), KV head j's row r of keys at k + j·head_stride + r·row_stride (values
// likewise at v), `len` rows, keep = len flags (1 = attend) or null -> out [Hkv, G, D] fp32: the
// kernel reef_decode_attention runs, with its bits, without an ATen op (the fused decode step,
// text2semantic/decode_block.h). k and v are bf16 (bf16 = true) or fp32.
struct DecodeKvRows {
    const void* k = nullptr;
    const void* v = nullptr;
    int64_t head_stride = 0, row_stride = 0, len = 0;
    const uint8_t* keep = nullptr;
    bool bf16 = false;
};
// n sequences of a decode step at once (n = 1 for one): sequence i's query at q + i·Hkv·G·D against
// kv[i], its output at out + i·Hkv·G·D. All n·Hkv heads are shared out on the threads at once: one
// parallel region for a batch, where a call per sequence opened one each and kept a short one (the
// fast stack's) on this thread. Each head is computed alone, so every sequence gets the bits it
// gets alone.
void reef_decode_attention_rows_batch(const float* q, int64_t hkv, int64_t g, int64_t d, const DecodeKvRows* kv,
                                      int64_t n, float* out);

// Whether attention() sends decode calls here: set by SdpaPolicyGuard for the "reef" policy
// (engine thread); returns the previous setting.
bool set_reef_decode_attention(bool on);
bool reef_decode_attention_on();

}  // namespace reef
