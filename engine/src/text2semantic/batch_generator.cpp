#include "text2semantic/batch_generator.h"

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "base/cpu_cores.h"
#include "check.h"
#include "nn/gemv.h"
#include "memory_check.h"
#include "base/perf.h"

namespace reef {
namespace {

// Rows of the slow cache an item needs, as generate() sizes it.
int64_t item_capacity(const DualArModel& model, const BatchItem& item) {
    const int64_t max_new = check_prompt(model, item.prompt, item.opts);
    return kv_capacity_for(item.prompt.size(1), max_new, item.opts.kv_margin, model.config().max_seq_len);
}

}  // namespace

// One sequence of the batch: everything generate() keeps for a request, kept per member.
struct BatchGenerator::Member {
    BatchItem item;
    Text2SemanticCaches caches;  // its own slow and fast caches; the head is the batch's
    at::Generator gen;
    DecodeContext ctx;
    std::unique_ptr<StaticDecodeState> state;  // its RAS / repetition windows
    at::Tensor cur;                            // [N+1] int64: the column fed back next frame
    std::vector<std::vector<int64_t>> columns;
    GenerateStats stats;
    int64_t input_pos = 0, max_new = 0;
    int max_batch_seen = 0;
};

BatchGenerator::BatchGenerator(const DualArModel& model, const TokenIds& ids, int max_batch, KvMode kv_mode)
    : m_model(model), m_ids(ids), m_max_batch(max_batch), m_kv_mode(kv_mode) {
    REEF_CHECK(max_batch >= 1, "BatchGenerator: the batch holds at least one sequence");
    if (!model.config().s1_decoding()) m_head.prepare_head(model, ids);
}

BatchGenerator::~BatchGenerator() = default;

int BatchGenerator::active() const { return int(m_members.size()); }

void BatchGenerator::add(BatchItem item) {
    item.opts.kv_mode = m_kv_mode;
    item.opts.compiled = nullptr;  // eager decode frames: a compiled step runs one sequence
    item.opts.static_steps = nullptr;
    check_prompt(m_model, item.prompt, item.opts);
    m_queue.push_back(std::move(item));
}

void BatchGenerator::finish(size_t index, const std::string& reason) {
    Member& m = *m_members[index];
    m.stats.stop_reason = reason;
    m_finished.push_back({m.item.id, codes_of(m.columns, m.stats, m_model.config().num_codebooks), std::move(m.stats),
                          m.max_batch_seen});
    m_members.erase(m_members.begin() + std::ptrdiff_t(index));
}

void BatchGenerator::admit() {
    const auto& c = m_model.config();
    while (active() < m_max_batch && !m_queue.empty()) {
        auto owned = std::make_unique<Member>();
        Member& m = *owned;
        m.item = std::move(m_queue.front());
        m_queue.pop_front();
        const GenerateOptions& o = m.item.opts;
        const int64_t T = m.item.prompt.size(1);
        m.max_new = check_prompt(m_model, m.item.prompt, o);
        m.stats.prompt_tokens = T;
        m.caches.head = m_head.head;  // prepare_head finds it built
        m.caches.head_ids = m_head.head_ids;
        m.caches.head_for = m_head.head_for;
        m.caches.prepare(m_model, kv_capacity_for(T, m.max_new, o.kv_margin, c.max_seq_len));
        m.stats.kv_capacity = m.caches.slow.capacity();
        m.gen = m.item.generator ? *m.item.generator : make_request_generator(m_model.device(), m.item.seed);
        m.ctx = make_decode_context(m_model, m.caches, m_ids, o, m.gen);
        m_members.push_back(std::move(owned));
        if (o.should_abort && o.should_abort()) {
            finish(m_members.size() - 1, "cancelled");
            continue;
        }
        m.columns.push_back(prefill(m.ctx, m.item.prompt, o, m.stats));
        const std::vector<int64_t>& first = m.columns.back();
        if (first[0] == m_ids.im_end && !o.suppress_im_end) {
            finish(m_members.size() - 1, "im_end");
        } else if (m.max_new <= 1) {
            finish(m_members.size() - 1, "max_new_frames");
        } else {
            m.input_pos = T;
            m.state = std::make_unique<StaticDecodeState>(m_model, first, T, false);
            m.cur = m.state->cur.view({-1});
        }
    }
}

bool BatchGenerator::step() {
    c10::InferenceMode guard;
    for (;;) {
        admit();
        for (size_t i = m_members.size(); i-- > 0;) {
            const auto& abort = m_members[i]->item.opts.should_abort;
            if (abort && abort()) finish(i, "cancelled");  // checked before every frame, as generate() does
        }
        if (!m_members.empty()) break;
        if (m_queue.empty()) return false;
    }
    const auto& c = m_model.config();
    const int64_t n_rows = c.num_codebooks + 1;
    const size_t bsz = m_members.size();
    const Stopwatch frame_clock;

    std::vector<std::vector<int64_t>> host(bsz);
    std::vector<at::Tensor> captured(bsz);
    auto decode = [&] {
        std::vector<at::Tensor> inputs;
        std::vector<int64_t> pos;
        std::vector<KvCache*> slow, fast;
        for (const auto& m : m_members) {
            inputs.push_back(m->cur.view({1, n_rows, 1}));
            pos.push_back(m->input_pos);
            slow.push_back(&m->caches.slow);
            fast.push_back(&m->caches.fast);
        }
        const at::Tensor head = c.s1_decoding() ? at::Tensor() : m_head.head;
        const ForwardResult res = m_model.forward_generate_batch(at::cat(inputs, 0), pos, slow, m_kv_mode, head);

        // decode_frame (generator.cpp) for every member: its main token, then fast_codebooks with
        // the fast forwards batched per codebook
        std::vector<at::Tensor> mains(bsz);
        for (size_t i = 0; i < bsz; ++i) {
            Member& m = *m_members[i];
            const ForwardResult row{res.logits.narrow(0, int64_t(i), 1), res.hidden_states.narrow(0, int64_t(i), 1),
                                    res.normed.narrow(0, int64_t(i), 1)};
            if (int(m.columns.size()) < m.item.opts.capture_logits_frames)
                captured[i] = all_logits(m.ctx, row).reshape({-1}).to(at::kFloat).cpu().clone();
            mains[i] = sample_main(m.ctx, row.logits, ras_of(m.ctx, *m.state), rep_of(m.ctx, *m.state));
            if (m.ctx.s1) m.caches.fast.reset();  // S1-era code zero-fills the fast cache every frame
        }
        auto fast_forward = [&](const at::Tensor& x, int64_t k) {
            return m_model.forward_generate_fast_batch(x, k, fast, m_kv_mode);
        };
        auto sample = [&](size_t i, const at::Tensor& logits, int64_t k) {
            Member& m = *m_members[i];
            return sample_codebook(m.ctx, logits, k, rep_of(m.ctx, *m.state));
        };
        const std::vector<at::Tensor> cols =
            fast_codebooks(m_model, mains, res.hidden_states, m_ids.semantic_begin, fast_forward, sample);
        for (size_t i = 0; i < bsz; ++i) {
            Member& m = *m_members[i];
            m.cur = cols[i];  // [N+1]
            accept_column(m.ctx, *m.state, m.cur);
            host[i] = to_host(m.cur);
        }
    };
    int threads = 0;
    if (m_waits) m_waits->since_last();  // what waited between frames is not this frame's
    {
        // a frame of another batch size takes another time: the governor compares like with like
        if (m_governor && bsz != m_governed_batch) {
            m_governor->begin(at::get_num_threads());
            m_governed_batch = bsz;
            if (!m_waits) m_waits = std::make_unique<TeamRunQueueWait>();
        }
        const RegionThreads frame_threads(m_governor ? m_governor->threads() : 0);
        threads = at::get_num_threads();
        // the frame's GEMVs served by the team (nn/gemv_team.h) where the kernels take them
        if (m_model.device().is_cpu() && gemv_supported(m_model.dtype()))
            m_team.run(decode);
        else
            decode();
    }
    const double ms = frame_clock.ms();
    const double waited = m_waits ? m_waits->since_last() : -1.0;
    m_frames.push_back({int(bsz), ms});

    std::vector<std::pair<size_t, const char*>> done;
    for (size_t i = 0; i < bsz; ++i) {
        Member& m = *m_members[i];
        if (captured[i].defined()) m.stats.captured_logits.push_back(captured[i]);
        ++m.input_pos;
        m.columns.push_back(host[i]);
        m.stats.step_ms.push_back(ms);
        m.stats.step_threads.push_back(threads);
        ++m.stats.frames;
        m.max_batch_seen = std::max(m.max_batch_seen, int(bsz));
        const auto& column = m.columns.back();
        if (m.item.opts.on_frame)
            m.item.opts.on_frame(m.stats.frames - 1, std::vector<int32_t>(column.begin(), column.end()), ms);
        if (column[0] == m_ids.im_end && !m.item.opts.suppress_im_end)
            done.emplace_back(i, "im_end");
        else if (m.stats.frames >= m.max_new)
            done.emplace_back(i, "max_new_frames");
    }
    if (m_governor) m_governor->after_frame(ms, waited);  // after the callbacks, which report this frame's count
    for (auto it = done.rbegin(); it != done.rend(); ++it) finish(it->first, it->second);
    return !m_members.empty() || !m_queue.empty();
}

void BatchGenerator::run() {
    while (step()) {
    }
}

std::vector<BatchItemResult> BatchGenerator::take_finished() {
    std::vector<BatchItemResult> out;
    out.swap(m_finished);
    return out;
}

uint64_t batch_kv_bytes(const DualArModel& model, const std::vector<BatchItem>& items, int max_batch) {
    // The largest max_batch slow caches can be alive at once; each fast cache is num_codebooks rows.
    std::vector<int64_t> rows;
    for (const BatchItem& item : items) rows.push_back(item_capacity(model, item));
    std::sort(rows.rbegin(), rows.rend());
    const auto& c = model.config();
    uint64_t bytes = 0;
    const size_t n = std::min(rows.size(), size_t(std::max(max_batch, 1)));
    for (size_t i = 0; i < n; ++i)
        bytes += kv_cache_bytes(c.n_layer, c.n_local_heads, c.head_dim, rows[i], model.dtype()) +
                 kv_cache_bytes(c.n_fast_layer, c.fast_n_local_heads, c.fast_head_dim, c.num_codebooks, model.dtype());
    return bytes;
}

void require_batch_memory(const DualArModel& model, const std::vector<BatchItem>& items, int max_batch) {
    const size_t n = std::min(items.size(), size_t(std::max(max_batch, 1)));
    require_memory(batch_kv_bytes(model, items, max_batch), model.device(),
                   "the KV caches of " + std::to_string(n) + " sequences decoding together (batch size " +
                       std::to_string(max_batch) + ")");
}

int auto_batch_size(const DualArModel& model, const std::vector<BatchItem>& items, int limit, uint64_t available) {
    int b = std::clamp(int(items.size()), 1, std::max(limit, 1));
    while (b > 1 && batch_kv_bytes(model, items, b) > available / 2) --b;
    return b;
}

int auto_batch_size(const DualArModel& model, const std::vector<BatchItem>& items, int limit) {
    const std::optional<uint64_t> available = available_memory(model.device());
    return available ? auto_batch_size(model, items, limit, *available) : std::clamp(int(items.size()), 1, std::max(limit, 1));
}

std::vector<BatchItemResult> generate_batch(const DualArModel& model, const TokenIds& ids, std::vector<BatchItem> items,
                                            int max_batch, KvMode kv_mode) {
    require_batch_memory(model, items, max_batch);
    std::vector<int64_t> names;
    BatchGenerator batch(model, ids, max_batch, kv_mode);
    for (size_t i = 0; i < items.size(); ++i) {
        names.push_back(items[i].id);
        items[i].id = int64_t(i);  // results come back in the items' order
        batch.add(std::move(items[i]));
    }
    batch.run();
    std::vector<BatchItemResult> out(names.size());
    for (BatchItemResult& r : batch.take_finished()) {
        const size_t i = size_t(r.id);
        r.id = names[i];
        out[i] = std::move(r);
    }
    return out;
}

}  // namespace reef
