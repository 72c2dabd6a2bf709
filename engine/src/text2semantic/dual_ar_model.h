// port of llama.py: DualARTransformer (inference paths only). A slow transformer over tokens
// (forward_generate) and a fast transformer over the codebooks of one frame
// (forward_generate_fast). Stateless apart from the caches the caller passes in.
// N=num_codebooks, S=positions in this call, C=dim, Cf=fast_dim, V=vocab, K=codebook_size.
#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <vector>

#include "checkpoint/tensor_map.h"
#include "reef/engine_types.h"
#include "text2semantic/kv_cache.h"
#include "text2semantic/layers.h"
#include "text2semantic/model_config.h"
#include "text2semantic/model_weights.h"

namespace reef {

struct ForwardResult {
    at::Tensor logits;         // [1, 1, V], or [1, 1, R] through a row-restricted head
    at::Tensor hidden_states;  // [1, 1, Cf]: normed (S2) or un-normed (S1) last position, projected
    at::Tensor normed;         // [1, 1, C]: the head's input (vocab_logits recomputes all V from it)
};

// A float projection as with_quantized_weights makes it: int8 rows, or int4 groups in the CPU
// kernels' layout (the bench's batched-GEMV probe runs the arm's own format through it); an
// undefined or already quantized one as it is. freed: adds the bytes quantizing saved.
Linear quantized_linear(Linear l, WeightFormat format, int64_t* freed = nullptr);

class DualArModel {
public:
    // weights: internal names (expected_shapes_for), already on the run device and dtype (int8
    // weights and their scales as stored). Throws
    // ReefError(ShapeMismatch) naming the first missing or mis-shaped key.
    DualArModel(DualArConfig config, TensorMap weights);

    const DualArConfig& config() const { return m_config; }
    at::Device device() const { return m_norm.device(); }
    at::ScalarType dtype() const { return m_norm.scalar_type(); }
    int64_t n_parameters() const { return m_n_parameters; }
    // How the projections are held (issue #44: fish-speech's quantize.py, reef-cli quantize):
    // float, int8 or int4; weight_format().name() is "" for float.
    const WeightFormat& weight_format() const { return m_weight_format; }
    bool quantized() const { return m_weight_format.bits != 0; }
    // Bytes the weights occupy as held (int8 projections at one byte per weight, int4 at half).
    int64_t weight_bytes() const { return m_weight_bytes; }
    // fish-speech injects these from the tokenizer at load (§2.2 step 2).
    void set_semantic_range(int64_t begin, int64_t end);

    // Caches in the model dtype/device: slow [1, n_local_heads, capacity, head_dim] per layer;
    // fast [1, fast_n_local_heads, num_codebooks, fast_head_dim] per fast layer.
    KvCache make_slow_cache(int64_t capacity) const;
    KvCache make_fast_cache() const;

    // port of BaseTransformer.forward_generate + DualARTransformer.forward_generate.
    // inp: [1, N+1, S] int64 at positions start..start+S-1 -> logits of the last position.
    // Prompts use CallSite::SlowPrefill (S > 1), steps SlowDecode.
    // head: the output head to apply, [R, C] rows of it (head_rows) or undefined for all V rows.
    ForwardResult forward_generate(const at::Tensor& inp, int64_t start, KvCache& cache, KvMode mode,
                                   const at::Tensor& head = {}) const;

    // The same for one decode step whose position lives on the device: inp [1, N+1, 1] at
    // input_pos ([1] int64), attending over the first kv_len cache rows under a device-built mask.
    // Shapes depend only on kv_len, and nothing reads back to the host, so a CUDA graph can
    // capture it once per kv_len bucket (CallSite::SlowDecode).
    ForwardResult forward_generate_at(const at::Tensor& inp, const at::Tensor& input_pos, int64_t kv_len,
                                      KvCache& cache, const at::Tensor& head = {}) const;

    // Batched decode (issue #27): one decode position for each of B sequences, each attending over
    // its own cache. inp: [B, N+1, 1], pos[i] and caches[i] sequence i's -> logits [B, 1, R or V],
    // hidden [B, 1, Cf], normed [B, 1, C], row i bit-identical to forward_generate(inp[i], pos[i],
    // *caches[i], mode, head) (layers.h block_forward_batch).
    ForwardResult forward_generate_batch(const at::Tensor& inp, const std::vector<int64_t>& pos,
                                         const std::vector<KvCache*>& caches, KvMode mode,
                                         const at::Tensor& head = {}) const;
    // forward_generate_fast for B sequences at the same fast position (a batch runs its codebooks in
    // step): x [B, 1, Cf], fast_caches[i] sequence i's -> [B, 1, K], row i as forward_generate_fast's.
    at::Tensor forward_generate_fast_batch(const at::Tensor& x, int64_t pos, const std::vector<KvCache*>& fast_caches,
                                           KvMode mode) const;

    // The output head's rows for these vocab ids: row_ids [R] int64 -> [R, C]. Decoding that can
    // only sample a few ids (S2: the semantic range and <|im_end|>) multiplies by these instead of
    // all V rows: the same logits for those ids, a fraction of the head's bytes.
    at::Tensor head_rows(const at::Tensor& row_ids) const;
    // All V logits of a forward result (bench captures, parity): [1, 1, V]
    at::Tensor vocab_logits(const ForwardResult& r) const;

    // Weight bytes one decode frame reads (the roofline's numerator): every slow layer and norm
    // once, `head_rows` rows of the output head, the fast stack, norm and head once per codebook,
    // and the gathered embedding rows. KV-cache reads are counted by the caller (they depend on
    // the position).
    int64_t decode_weight_bytes(int64_t head_rows) const;
    // Weight bytes of one fast-stack pass (layers, norm, head, one embedding row): a decode frame
    // reads them num_codebooks times, back to back, so they can come from cache (the roofline's
    // re-read part).
    int64_t fast_pass_bytes() const;
    // Multiply-adds of one decode frame's projections, whatever format holds them: every slow
    // projection once, `head_rows` rows of the output head, the fast stack and head once per
    // codebook (what the batch table's GFLOP/s counts per sequence).
    int64_t decode_multiply_adds(int64_t head_rows) const;

    // port of DualARTransformer.forward_generate_fast. x: [1, 1, Cf] at fast position pos -> [1, 1, K]
    at::Tensor forward_generate_fast(const at::Tensor& x, int64_t pos, KvCache& fast_cache, KvMode mode) const;

    // fast_embeddings[code]: code [1] int64 -> [1, 1, Cf]
    at::Tensor embed_fast(const at::Tensor& code) const;

    // This model with every float projection quantized to `format` (int8 or int4: quantize.py's
    // arithmetic; the tied output head stays the embeddings): the bench's ":int8" and ":int4"
    // arms. Shares every other tensor.
    std::unique_ptr<DualArModel> with_quantized_weights(WeightFormat format) const;

    // Everything the decode step reads, under the names engine/python/reef_aoti_export.py
    // expects: the blocks as held here (merged w13), the RoPE tables, the codebook offsets and
    // `head` (the row-restricted S2 head, or undefined for all V rows). Views, no copies
    // (dual_ar_model_export.cpp).
    TensorMap decode_step_weights(const at::Tensor& head) const;

private:
    at::Tensor embed(const at::Tensor& inp) const;  // [1, N+1, S] -> [1, S, C]
    // last position [1, 1, C] -> logits (through `head`, or all V rows), fast input
    ForwardResult output_heads(const at::Tensor& x, const at::Tensor& head) const;

    DualArConfig m_config;
    BlockDims m_dims, m_fast_dims;
    // the token and codebook embedding tables: float, or quantized like a projection (reef-cli
    // quantize --embeddings), their rows dequantized as they are looked up
    Linear m_embeddings, m_codebook_embeddings;
    at::Tensor m_norm;
    Linear m_output;  // output.weight, or the embeddings themselves when tie_word_embeddings
    std::vector<BlockWeights> m_layers, m_fast_layers;
    Linear m_fast_project_in;  // undefined unless has_fast_project_in()
    at::Tensor m_fast_embeddings, m_fast_norm;
    Linear m_fast_output;
    at::Tensor m_freqs_cis, m_fast_freqs_cis;  // [max_seq_len, D/2, 2], [N, Df/2, 2] float32
    at::Tensor m_codebook_offsets;             // [1, N, 1] = i·K
    int64_t m_n_parameters = 0;
    WeightFormat m_weight_format;
    int64_t m_weight_bytes = 0;
};

// Throws ReefError(InsufficientMemory) when the folder's text2semantic model (as its config.json
// and quantization say) will not fit in the memory available on `device`, with the way out (a
// quantized copy and what it needs). Reads no weights: load_pipeline asks before the codec loads,
// with the codec's bytes as `also` (what must fit beside the model).
void require_dual_ar_memory(const std::string& model_dir, at::Device device, at::ScalarType dtype, uint64_t also = 0);

// Loads a model folder: config.json, weight files (read_text2semantic_weights), strict
// verification against expected_shapes, conversion to device/dtype.
std::unique_ptr<DualArModel> load_dual_ar_model(const std::string& model_dir, at::Device device,
                                                at::ScalarType dtype);
// The same from an in-memory state dict (internal names), verified strictly; `what` names the
// source in errors.
std::unique_ptr<DualArModel> make_dual_ar_model(const DualArConfig& config, TensorMap weights, at::Device device,
                                                at::ScalarType dtype, const std::string& what = "state dict");

}  // namespace reef
