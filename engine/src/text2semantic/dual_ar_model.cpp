#include "text2semantic/dual_ar_model.h"

#include <algorithm>
#include <cmath>

#include "check.h"
#include "checkpoint/verify.h"
#include "memory_check.h"
#include "nn/gemv.h"
#include "base/weight_memory.h"
#include "text2semantic/model_weights.h"
#include "text2semantic/rope.h"

namespace reef {
using t2s::precompute_freqs_cis;
using t2s::rms_norm;

namespace {

const at::Tensor& find(const TensorMap& w, const std::string& key) {
    auto it = w.find(key);
    if (it == w.end()) throw ReefError(ErrorCode::ShapeMismatch, "text2semantic weights: missing " + key);
    return it->second;
}

// A weight as the model keeps it: large CPU tensors in aligned, huge-page memory (a no-op for those
// the safetensors reader already put there; converted and merged ones are copied once more).
at::Tensor take(const TensorMap& w, const std::string& key) { return to_weight_memory(find(w, key)); }

// A projection: "<p>weight", its int8/int4 "<p>scales" and int4 "<p>zeros" if any, its "<p>bias" when `bias`.
Linear take_linear(const TensorMap& w, const std::string& p, bool bias) {
    auto scales = w.find(p + "scales"), zeros = w.find(p + "zeros");
    return make_linear(take(w, p + "weight"), scales == w.end() ? at::Tensor() : scales->second,
                       bias ? take(w, p + "bias") : at::Tensor(), p.substr(0, p.size() - 1),
                       zeros == w.end() ? at::Tensor() : zeros->second);
}

// An int4 projection in the CPU kernels' layout (nn/linear.h int4_cpu_layout: blocks of 16 rows where
// they pay); when that is a copy, the row layout's tensors leave the map at once, so S2-Pro's int4
// layers are not held twice until the whole model is built. The embedding tables and the output
// head, whose rows are looked up, stay in rows.
Linear in_cpu_layout(Linear l, TensorMap& w, const std::string& p) {
    if (!l.int4() || l.int4_blocked()) return l;
    Linear out = int4_cpu_layout(l);
    if (out.int4_blocked())
        for (const char* k : {"weight", "scales", "zeros"}) w.erase(p + k);
    return out;
}

// Takes a block's weights; w1 and w3 leave the map as they are merged, so their memory goes as
// soon as the merged copy exists rather than after the whole model is built.
BlockWeights take_block(TensorMap& w, const std::string& p, bool qkv_bias, bool o_bias, bool qk_norm) {
    BlockWeights b;
    b.attention.wqkv = in_cpu_layout(take_linear(w, p + "attention.wqkv.", qkv_bias), w, p + "attention.wqkv.");
    b.attention.wo = in_cpu_layout(take_linear(w, p + "attention.wo.", o_bias), w, p + "attention.wo.");
    if (qk_norm) {
        b.attention.q_norm = take(w, p + "attention.q_norm.weight");
        b.attention.k_norm = take(w, p + "attention.k_norm.weight");
    }
    b.attention_norm = take(w, p + "attention_norm.weight");
    b.ffn_norm = take(w, p + "ffn_norm.weight");
    b.feed_forward = merge_feed_forward(take_linear(w, p + "feed_forward.w1.", false),
                                        take_linear(w, p + "feed_forward.w3.", false),
                                        take_linear(w, p + "feed_forward.w2.", false));
    for (const char* k : {"feed_forward.w1.weight", "feed_forward.w3.weight", "feed_forward.w1.scales", "feed_forward.w3.scales",
                          "feed_forward.w1.zeros", "feed_forward.w3.zeros"})
        w.erase(p + k);
    b.feed_forward.w13 = int4_cpu_layout(b.feed_forward.w13);  // merged: a copy of its own
    b.feed_forward.w2 = in_cpu_layout(b.feed_forward.w2, w, p + "feed_forward.w2.");
    return b;
}

}  // namespace

DualArModel::DualArModel(DualArConfig config, TensorMap w) : m_config(std::move(config)) {
    const auto& c = m_config;
    verify_state_dict(w, expected_shapes_for(c, w), "text2semantic weights");
    for (const auto& [k, t] : w) {
        const bool qparams = k.ends_with(".scales") || k.ends_with(".zeros");  // not parameters
        const bool packed = t.scalar_type() == at::kByte;                        // int4: two a byte
        if (!qparams) m_n_parameters += packed ? 2 * t.numel() : t.numel();
        if (k.ends_with(".scales") && m_weight_format.bits == 0) m_weight_format = WeightFormat::int8();
        // int8 scales are held in fp32 whatever the file's dtype (make_linear)
        const auto weight = k.ends_with(".scales") ? w.find(k.substr(0, k.size() - 6) + "weight") : w.end();
        const bool int8_scales = weight != w.end() && weight->second.scalar_type() == at::kChar;
        m_weight_bytes += int8_scales ? t.numel() * int64_t(sizeof(float)) : int64_t(t.nbytes());
    }
    for (const auto& [k, t] : w)
        if (k.ends_with(".zeros") && t.dim() == 2 && t.size(1) > 0) {
            const auto weight = w.find(k.substr(0, k.size() - 5) + "weight");
            if (weight != w.end()) m_weight_format = WeightFormat::int4(2 * weight->second.size(1) / t.size(1));
        }
    m_weight_format.embeddings = w.count("embeddings.scales") > 0;
    m_dims = {c.n_head, c.n_local_heads, c.head_dim, c.norm_eps};
    // fast layers take norm_eps and rope_base from the text config (dataclasses.replace)
    m_fast_dims = {c.fast_n_head, c.fast_n_local_heads, c.fast_head_dim, c.norm_eps};
    m_norm = take(w, "norm.weight");  // first: device() and dtype() read it
    m_embeddings = take_linear(w, "embeddings.", false);
    m_codebook_embeddings = take_linear(w, "codebook_embeddings.", false);
    for (int64_t i = 0; i < c.n_layer; ++i)
        m_layers.push_back(take_block(w, "layers." + std::to_string(i) + ".", c.attention_qkv_bias,
                                      c.attention_o_bias, c.attention_qk_norm));
    m_output = c.tie_word_embeddings ? m_embeddings : take_linear(w, "output.", false);
    if (c.has_fast_project_in())
        m_fast_project_in = in_cpu_layout(take_linear(w, "fast_project_in.", w.count("fast_project_in.bias") > 0), w, "fast_project_in.");
    m_fast_embeddings = take(w, "fast_embeddings.weight");
    for (int64_t i = 0; i < c.n_fast_layer; ++i)
        m_fast_layers.push_back(take_block(w, "fast_layers." + std::to_string(i) + ".", c.fast_attention_qkv_bias,
                                           c.fast_attention_o_bias, c.fast_attention_qk_norm));
    m_fast_norm = take(w, "fast_norm.weight");
    m_fast_output = in_cpu_layout(take_linear(w, "fast_output.", false), w, "fast_output.");

    const auto fopts = at::TensorOptions().dtype(at::kFloat).device(device());
    m_freqs_cis = precompute_freqs_cis(c.max_seq_len, c.head_dim, c.rope_base).to(fopts);
    m_fast_freqs_cis = precompute_freqs_cis(c.num_codebooks, c.fast_head_dim, c.rope_base).to(fopts);
    m_codebook_offsets =
        (at::arange(c.num_codebooks, at::TensorOptions().dtype(at::kLong).device(device())) * c.codebook_size)
            .view({1, c.num_codebooks, 1});
}

void DualArModel::set_semantic_range(int64_t begin, int64_t end) {
    REEF_CHECK(begin >= 0 && begin <= end && end < m_config.vocab_size, "semantic range outside the vocab");
    m_config.semantic_begin_id = begin;
    m_config.semantic_end_id = end;
}

KvCache DualArModel::make_slow_cache(int64_t capacity) const {
    return KvCache(m_config.n_layer, m_config.n_local_heads, m_config.head_dim, capacity,
                   m_norm.options());
}

KvCache DualArModel::make_fast_cache() const {
    // num_codebooks rows, not rounded (fish-speech DualARTransformer.setup_caches)
    return KvCache(m_config.n_fast_layer, m_config.fast_n_local_heads, m_config.fast_head_dim,
                   m_config.num_codebooks, m_norm.options());
}

namespace {

// table[ids]: ids [...] -> [..., C]; a quantized table's rows dequantized to `dtype` (one rounding)
at::Tensor lookup(const Linear& table, const at::Tensor& ids, at::ScalarType dtype) {
    if (!table.quantized()) return at::embedding(table.weight, ids);
    REEF_CHECK(!table.int4_blocked(), "lookup: an int4 table's rows are looked up in the rows layout");
    const at::Tensor flat = ids.reshape({-1});
    auto rows_of = [&](const at::Tensor& t) { return t.defined() ? t.index_select(0, flat) : at::Tensor(); };
    const Linear rows{table.weight.index_select(0, flat), rows_of(table.scales), {}, rows_of(table.zeros)};
    auto sizes = ids.sizes().vec();
    sizes.push_back(table.in_features());
    return dequantized(rows, dtype).view(sizes);
}

}  // namespace

at::Tensor DualArModel::embed(const at::Tensor& inp) const {
    // inp: [1, N+1, S] -> x: [1, S, C]
    const auto& c = m_config;
    const at::Tensor tokens = inp.select(1, 0);                                     // [1, S]
    const at::Tensor codes = inp.narrow(1, 1, c.num_codebooks) + m_codebook_offsets;  // [1, N, S]
    at::Tensor vq_sum = lookup(m_codebook_embeddings, codes, dtype()).sum(1);         // [1, S, C]
    const at::Tensor is_semantic = tokens.ge(c.semantic_begin_id).logical_and(tokens.le(c.semantic_end_id));
    const at::Tensor sem = is_semantic.unsqueeze(-1);                                  // [1, S, 1]
    vq_sum = vq_sum.masked_fill(sem.logical_not(), 0);
    at::Tensor x = lookup(m_embeddings, tokens, dtype()) + vq_sum;
    if (c.scale_codebook_embeddings) x = at::where(sem, x / std::sqrt(double(c.num_codebooks + 1)), x);
    return x;
}

ForwardResult DualArModel::forward_generate(const at::Tensor& inp, int64_t start, KvCache& cache, KvMode mode,
                                            const at::Tensor& head) const {
    // inp: [1, N+1, S] -> logits [1, 1, V], hidden [1, 1, Cf]
    const auto& c = m_config;
    REEF_CHECK(inp.dim() == 3 && inp.size(1) == c.num_codebooks + 1, "forward_generate: inp must be [1, N+1, S]");
    const int64_t seq_len = inp.size(2);
    REEF_CHECK(start >= 0 && start + seq_len <= c.max_seq_len, "forward_generate: positions beyond max_seq_len");
    at::Tensor x = embed(inp);
    const at::Tensor freqs = m_freqs_cis.narrow(0, start, seq_len);
    const AttentionSpan span = attention_span(mode, start, seq_len, cache.capacity(), device());
    const CallSite site = seq_len > 1 ? CallSite::SlowPrefill : CallSite::SlowDecode;
    for (size_t il = 0; il < m_layers.size(); ++il)
        x = block_forward(x, m_layers[il], m_dims, freqs, CacheSlot{&cache, int64_t(il), start, &span, site, {}});
    if (seq_len > 1) x = x.narrow(1, seq_len - 1, 1);
    return output_heads(x, head);
}

ForwardResult DualArModel::forward_generate_at(const at::Tensor& inp, const at::Tensor& input_pos, int64_t kv_len,
                                               KvCache& cache, const at::Tensor& head) const {
    // inp: [1, N+1, 1], input_pos: [1] -> logits [1, 1, V], hidden [1, 1, Cf]
    const auto& c = m_config;
    REEF_CHECK(inp.dim() == 3 && inp.size(1) == c.num_codebooks + 1 && inp.size(2) == 1,
               "forward_generate_at: inp must be [1, N+1, 1]");
    REEF_CHECK(kv_len >= 1 && kv_len <= cache.capacity(), "forward_generate_at: kv_len outside the cache");
    at::Tensor x = embed(inp);
    const at::Tensor freqs = m_freqs_cis.index_select(0, input_pos);  // [1, D/2, 2]
    const AttentionSpan span = attention_span_at(input_pos, kv_len);
    for (size_t il = 0; il < m_layers.size(); ++il) {
        x = block_forward(x, m_layers[il], m_dims, freqs,
                          CacheSlot{&cache, int64_t(il), 0, &span, CallSite::SlowDecode, input_pos});
    }
    return output_heads(x, head);
}

ForwardResult DualArModel::output_heads(const at::Tensor& x, const at::Tensor& head) const {
    // x: [B, 1, C] -> logits [B, 1, V or R], hidden [B, 1, Cf]; B > 1 row by row (forward_generate_batch)
    const auto& c = m_config;
    const at::Tensor slow_out = x.size(0) == 1 ? rms_norm(x, m_norm, c.norm_eps) : each_row(x, [&](const at::Tensor& r, int64_t) {
        return rms_norm(r, m_norm, c.norm_eps);
    });
    ForwardResult r;
    r.normed = slow_out;
    r.logits = head.defined() ? project_rows(slow_out, head) : project_rows(slow_out, m_output);
    r.hidden_states = c.norm_fastlayer_input ? slow_out : x;
    if (m_fast_project_in.defined()) r.hidden_states = project_rows(r.hidden_states, m_fast_project_in);
    return r;
}

ForwardResult DualArModel::forward_generate_batch(const at::Tensor& inp, const std::vector<int64_t>& pos,
                                                  const std::vector<KvCache*>& caches, KvMode mode,
                                                  const at::Tensor& head) const {
    // inp: [B, N+1, 1] -> logits [B, 1, V or R], hidden [B, 1, Cf]
    const auto& c = m_config;
    const int64_t bsz = inp.size(0);
    REEF_CHECK(inp.dim() == 3 && inp.size(1) == c.num_codebooks + 1 && inp.size(2) == 1 && bsz >= 1 &&
                   int64_t(pos.size()) == bsz && int64_t(caches.size()) == bsz,
               "forward_generate_batch: inp must be [B, N+1, 1] with a position and a cache per sequence");
    std::vector<at::Tensor> rows, freqs;
    std::vector<AttentionSpan> spans;
    for (int64_t i = 0; i < bsz; ++i) {
        const int64_t p = pos[size_t(i)];
        REEF_CHECK(p >= 0 && p + 1 <= c.max_seq_len, "forward_generate_batch: position beyond max_seq_len");
        rows.push_back(embed(inp.narrow(0, i, 1)));      // [1, 1, C]
        freqs.push_back(m_freqs_cis.narrow(0, p, 1));    // [1, D/2, 2]
        spans.push_back(attention_span(mode, p, 1, caches[size_t(i)]->capacity(), device()));
    }
    at::Tensor x = at::cat(rows, 0);  // [B, 1, C]
    std::vector<CacheSlot> slots(static_cast<size_t>(bsz));
    for (size_t il = 0; il < m_layers.size(); ++il) {
        for (size_t i = 0; i < slots.size(); ++i)
            slots[i] = CacheSlot{caches[i], int64_t(il), pos[i], &spans[i], CallSite::SlowDecode, {}};
        x = block_forward_batch(x, m_layers[il], m_dims, freqs, slots);
    }
    return output_heads(x, head);
}

at::Tensor DualArModel::forward_generate_fast_batch(const at::Tensor& x_in, int64_t pos,
                                                    const std::vector<KvCache*>& fast_caches, KvMode mode) const {
    // x: [B, 1, Cf] -> logits [B, 1, K]
    const auto& c = m_config;
    const int64_t bsz = x_in.size(0);
    REEF_CHECK(pos >= 0 && pos < c.num_codebooks, "forward_generate_fast_batch: position outside the codebooks");
    REEF_CHECK(int64_t(fast_caches.size()) == bsz, "forward_generate_fast_batch: one fast cache per sequence");
    at::Tensor x = x_in.reshape({bsz, 1, -1});
    const std::vector<at::Tensor> freqs(size_t(bsz), m_fast_freqs_cis.narrow(0, pos, 1));
    std::vector<AttentionSpan> spans;
    for (KvCache* f : fast_caches) spans.push_back(attention_span(mode, pos, 1, f->capacity(), device()));
    std::vector<CacheSlot> slots(static_cast<size_t>(bsz));
    for (size_t il = 0; il < m_fast_layers.size(); ++il) {
        for (size_t i = 0; i < slots.size(); ++i)
            slots[i] = CacheSlot{fast_caches[i], int64_t(il), pos, &spans[i], CallSite::FastDecode, {}};
        x = block_forward_batch(x, m_fast_layers[il], m_fast_dims, freqs, slots);
    }
    const at::Tensor normed = each_row(x, [&](const at::Tensor& r, int64_t) { return rms_norm(r, m_fast_norm, c.norm_eps); });
    return project_rows(normed, m_fast_output);
}

at::Tensor DualArModel::head_rows(const at::Tensor& row_ids) const {
    // [R, C] in the model's dtype; int8 rows dequantized (w·s, one rounding): R is a few thousand rows
    const at::Tensor ids = row_ids.to(device());
    REEF_CHECK(!m_output.int4_blocked(), "head_rows: the output head's rows are looked up in the rows layout");
    auto rows_of = [&](const at::Tensor& t) { return t.defined() ? t.index_select(0, ids) : at::Tensor(); };
    const Linear rows{m_output.weight.index_select(0, ids), rows_of(m_output.scales), {}, rows_of(m_output.zeros)};
    return to_weight_memory(dequantized(rows, dtype()).contiguous());
}

namespace {

int64_t bytes_of(std::initializer_list<const at::Tensor*> ts) {
    int64_t n = 0;
    for (const at::Tensor* t : ts)
        if (t->defined()) n += int64_t(t->nbytes());
    return n;
}

int64_t block_bytes(const BlockWeights& b) {
    const auto& a = b.attention;
    return bytes_of({&a.q_norm, &a.k_norm, &b.attention_norm, &b.ffn_norm}) + a.wqkv.nbytes() + a.wo.nbytes() +
           b.feed_forward.w13.nbytes() + b.feed_forward.w2.nbytes();
}

int64_t multiply_adds(const Linear& l) { return l.defined() ? l.out_features() * l.in_features() : 0; }

int64_t block_multiply_adds(const BlockWeights& b) {
    return multiply_adds(b.attention.wqkv) + multiply_adds(b.attention.wo) + multiply_adds(b.feed_forward.w13) +
           multiply_adds(b.feed_forward.w2);
}

}  // namespace

int64_t DualArModel::decode_multiply_adds(int64_t head_rows) const {
    int64_t slow = multiply_adds(m_fast_project_in) + head_rows * m_output.in_features();
    for (const auto& b : m_layers) slow += block_multiply_adds(b);
    int64_t fast = multiply_adds(m_fast_output);
    for (const auto& b : m_fast_layers) fast += block_multiply_adds(b);
    return slow + m_config.num_codebooks * fast;
}

int64_t DualArModel::decode_weight_bytes(int64_t head_rows) const {
    const auto& c = m_config;
    // a row of a table as held (float, or quantized with its scales)
    auto row_bytes = [](const Linear& t) { return t.nbytes() / std::max<int64_t>(1, t.out_features()); };
    int64_t slow = bytes_of({&m_norm}) + (m_fast_project_in.defined() ? m_fast_project_in.nbytes() : 0);
    for (const auto& b : m_layers) slow += block_bytes(b);
    slow += head_rows * row_bytes(m_output);                                      // output head rows
    slow += row_bytes(m_embeddings) + c.num_codebooks * row_bytes(m_codebook_embeddings);  // embedding rows
    return slow + c.num_codebooks * fast_pass_bytes();
}

int64_t DualArModel::fast_pass_bytes() const {
    const int64_t elem = int64_t(m_fast_embeddings.element_size());
    int64_t fast = bytes_of({&m_fast_norm}) + m_fast_output.nbytes() + m_config.fast_dim * elem;  // + one fast embedding row
    for (const auto& b : m_fast_layers) fast += block_bytes(b);
    return fast;
}

at::Tensor DualArModel::vocab_logits(const ForwardResult& r) const { return project(r.normed, m_output); }

at::Tensor DualArModel::forward_generate_fast(const at::Tensor& x_in, int64_t pos, KvCache& fast_cache,
                                              KvMode mode) const {
    // x: [1, 1, Cf] -> logits [1, 1, K]
    const auto& c = m_config;
    REEF_CHECK(pos >= 0 && pos < c.num_codebooks, "forward_generate_fast: position outside the codebooks");
    at::Tensor x = x_in.reshape({x_in.size(0), 1, -1});
    const at::Tensor freqs = m_fast_freqs_cis.narrow(0, pos, 1);
    const AttentionSpan span = attention_span(mode, pos, 1, fast_cache.capacity(), device());
    for (size_t il = 0; il < m_fast_layers.size(); ++il)
        x = block_forward(x, m_fast_layers[il], m_fast_dims, freqs,
                          CacheSlot{&fast_cache, int64_t(il), pos, &span, CallSite::FastDecode, {}});
    return project(rms_norm(x, m_fast_norm, c.norm_eps), m_fast_output);
}

at::Tensor DualArModel::embed_fast(const at::Tensor& code) const {
    return at::embedding(m_fast_embeddings, code.reshape({1, 1}));
}

std::unique_ptr<DualArModel> make_dual_ar_model(const DualArConfig& config, TensorMap weights, at::Device device,
                                                at::ScalarType dtype, const std::string& what) {
    const ExpectedShapes expected = expected_shapes_for(config, weights);
    verify_state_dict(weights, expected, what);
    TensorMap converted;
    for (auto it = weights.begin(); it != weights.end(); it = weights.erase(it)) {  // one reference per tensor
        if (!expected.count(it->first)) continue;
        const at::Tensor& t = it->second;
        // int8 weights and their scales stay as stored (nn/linear.h); the rest takes the run dtype
        const bool keep = t.scalar_type() == at::kChar || t.scalar_type() == at::kByte || it->first.ends_with(".scales") ||
                          it->first.ends_with(".zeros");
        const at::ScalarType to = keep ? t.scalar_type() : dtype;
        converted[it->first] = device.is_cpu() ? to_weight_memory(t, to).contiguous() : t.to(device, to).contiguous();
    }
    return std::make_unique<DualArModel>(config, std::move(converted));
}

void require_dual_ar_memory(const std::string& model_dir, at::Device device, at::ScalarType dtype, uint64_t also) {
    const DualArConfig config = load_model_config(model_dir);
    const WeightFormat format = folder_weight_format(model_dir);
    try {
        const uint64_t needed = model_load_bytes(config, dtype, format);
        require_memory(needed > ~uint64_t(0) - also ? ~uint64_t(0) : needed + also, device,  // saturating
                       model_dir + (also ? ": the text2semantic model and the codec (config.json, codec_config)"
                                         : ": the text2semantic model (config.json)"));
    } catch (const ReefError& e) {
        if (format.bits == 4 || e.error().code != ErrorCode::InsufficientMemory) throw;
        // the way out a user of a smaller machine needs: the same model quantized (issue #44)
        // with what must fit beside them, as the figure refused was counted
        auto plus_also = [also](uint64_t b) { return b > ~uint64_t(0) - also ? ~uint64_t(0) : b + also; };
        const uint64_t int8_bytes = plus_also(model_load_bytes(config, dtype, WeightFormat::int8()));
        const uint64_t int4_bytes = plus_also(model_load_bytes(config, dtype, WeightFormat::int4(128)));
        if (format.bits == 8)  // an int8 folder cannot be quantized again: its source can
            throw ReefError(ErrorCode::InsufficientMemory, e.error().message,
                            "int4 needs " + format_gb(int4_bytes) +
                                ": quantize the bf16 model this folder was made from with reef-cli quantize SOURCE OUT "
                                "--format int4 (or close other programs, or use a smaller model)");
        throw ReefError(ErrorCode::InsufficientMemory, e.error().message,
                        "quantize it: int8 needs " + format_gb(int8_bytes) + ": reef-cli quantize " + model_dir + " " +
                            model_dir + "-int8; int4 needs " + format_gb(int4_bytes) + ": reef-cli quantize " + model_dir +
                            " " + model_dir + "-int4 --format int4 (or close other programs, or use a smaller model)");
    }
}

std::unique_ptr<DualArModel> load_dual_ar_model(const std::string& model_dir, at::Device device,
                                                at::ScalarType dtype) {
    // Before a byte of weights is read: the converted weights plus the RoPE table must fit.
    require_dual_ar_memory(model_dir, device, dtype);
    const DualArConfig config = load_model_config(model_dir);
    const ExpectedShapes expected = expected_shapes(config);
    std::string source;
    TensorMap weights = read_text2semantic_weights(model_dir, &source, &expected,
                                                   device.is_cpu() ? TensorHome::WeightMemory : TensorHome::Mapping);
    return make_dual_ar_model(config, std::move(weights), device, dtype, source);
}

}  // namespace reef
