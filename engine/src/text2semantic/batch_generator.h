// Batched generation (issue #27): several sequences decode together, so each weight read of a
// decode frame serves all of them. Continuous batching: a sequence that stops (im_end, its frame
// limit, a cancel) leaves the batch at once and a queued one joins before the next frame.
//
// Exactness is the contract: every sequence gets the codes, logits and random draws it gets from
// generate() alone, whatever else is in the batch and whenever it joined. Each member has its own
// caches, sampling windows and generator, is prefilled alone by generate()'s own prefill, and its
// decode frames run generate()'s sampling on its own row of the batched forwards
// (DualArModel::forward_generate_batch, whose rows are bit-identical to forward_generate's).
// Decode frames only: the prefill is one sequence at a time (a GEMM already reuses the weights).
// B=sequences in the batch, N=num_codebooks, T=prompt length.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "text2semantic/generator.h"

namespace reef {

class TeamRunQueueWait;  // base/cpu_cores.h

struct BatchItem {
    int64_t id = 0;            // the caller's name for it, echoed in its result
    at::Tensor prompt;         // [N+1, T] int64
    GenerateOptions opts;      // per item: knobs, frame limit, callbacks (on_frame, should_abort = cancel
                               // this item); kv_mode and kv_margin of the batch's options win
    uint64_t seed = 0;         // the item's own generator, seeded like make_request_generator
    // Or a generator to go on drawing from (shared: a request's later text batches continue its
    // stream, as generate_long's one generator does).
    std::optional<at::Generator> generator;
};

struct BatchItemResult {
    int64_t id = 0;
    at::Tensor codes;          // [N, n] int64 CPU, as generate() returns
    GenerateStats stats;       // step_ms: the batch frames this item took part in
    int max_batch_seen = 0;    // the largest batch it decoded in
};

// One frame of the batch, for the live chart and the bench.
struct BatchFrameInfo {
    int batch = 0;             // sequences that decoded in this frame
    double ms = 0;             // the batch frame's wall time (every member's frame time)
};

class BatchGenerator {
public:
    // max_batch >= 1 sequences decode together; kv_mode for every member.
    BatchGenerator(const DualArModel& model, const TokenIds& ids, int max_batch, KvMode kv_mode = KvMode::ActivePrefix);
    ~BatchGenerator();
    BatchGenerator(const BatchGenerator&) = delete;
    BatchGenerator& operator=(const BatchGenerator&) = delete;

    // Queues an item; it is checked now (ReefError InvalidArgument for a bad prompt) and joins the
    // batch at the next step() with room.
    void add(BatchItem item);
    // Admits queued items while there is room (each prefilled alone, its first frame reported),
    // then runs one decode frame for every member. Finished items move to take_finished().
    // -> false once nothing is left to run.
    bool step();
    // Runs step() until everything queued has finished.
    void run();
    std::vector<BatchItemResult> take_finished();
    // Each batch frame at this governor's thread count (GenerateOptions::threads for one
    // sequence); a frame of another batch size starts its windows afresh. null = every thread.
    void set_thread_governor(ThreadGovernor* governor) { m_governor = governor; }

    int active() const;
    int queued() const { return int(m_queue.size()); }
    const std::vector<BatchFrameInfo>& frames() const { return m_frames; }

private:
    struct Member;
    void admit();
    void finish(size_t index, const std::string& reason);

    const DualArModel& m_model;
    TokenIds m_ids;
    int m_max_batch;
    KvMode m_kv_mode;
    Text2SemanticCaches m_head;  // S2's row-restricted head, built once and shared by the members
    std::deque<BatchItem> m_queue;
    std::vector<std::unique_ptr<Member>> m_members;
    std::vector<BatchItemResult> m_finished;
    std::vector<BatchFrameInfo> m_frames;
    GemvTeam m_team;  // learns the batch frame's GEMV order
    ThreadGovernor* m_governor = nullptr;
    size_t m_governed_batch = 0;  // the batch size the governor's current windows timed
    std::unique_ptr<TeamRunQueueWait> m_waits;  // the governor's sign of other programs on the cores
};

// Bytes of the slow and fast KV caches of the max_batch items with the largest caches: what a
// batch of these items holds at most at once.
uint64_t batch_kv_bytes(const DualArModel& model, const std::vector<BatchItem>& items, int max_batch);
// Refuses (ReefError InsufficientMemory, before any work) when the KV caches of the max_batch largest
// items, all alive at once, would not fit in the device's free memory.
void require_batch_memory(const DualArModel& model, const std::vector<BatchItem>& items, int max_batch);

// Batch size "auto": the most sequences, at most `limit` and no more than there are items, whose
// KV caches (batch_kv_bytes) take at most half of the device's free memory; the other half stays
// for activations, the codec workers and the rest of the machine. `limit` when free memory is unknown.
int auto_batch_size(const DualArModel& model, const std::vector<BatchItem>& items, int limit);
// Same, with the free bytes given (tests choose them).
int auto_batch_size(const DualArModel& model, const std::vector<BatchItem>& items, int limit, uint64_t available);

// Every item through one BatchGenerator of max_batch (require_batch_memory first) -> results in
// the items' order.
std::vector<BatchItemResult> generate_batch(const DualArModel& model, const TokenIds& ids, std::vector<BatchItem> items,
                                            int max_batch, KvMode kv_mode = KvMode::ActivePrefix);

}  // namespace reef
