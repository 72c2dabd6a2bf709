// Batched generation (issue #27) against generate() alone, the independent yardstick: every
// member's codes, raw logits and stop reason equal its single-sequence run bit for bit, greedy and
// seeded sampling, S2 and S1 layouts, fp32 and bf16, whatever else is in the batch (a batch of
// one, a full batch, a late joiner, an early finisher, a member cancelled half-way).
#include <ATen/ATen.h>

#include <functional>

#include "check.h"
#include "t2s_fixtures.h"
#include "text2semantic/batch_generator.h"

using namespace reef;
using namespace t2s_test;

namespace {

struct Alone {
    at::Tensor codes;
    GenerateStats stats;
};

GenerateOptions options(bool greedy, int64_t frames) {
    GenerateOptions o;
    o.knobs = greedy ? SampleKnobs{0.0, 0.8, 30} : SampleKnobs{0.8, 0.8, 30};
    o.max_new_tokens = frames;
    o.suppress_im_end = true;
    o.capture_logits_frames = int(frames);
    return o;
}

Alone run_alone(const DualArModel& m, const BatchItem& item) {
    Text2SemanticCaches caches;
    at::Generator gen = make_request_generator(m.device(), item.seed);
    Alone a;
    a.codes = generate(m, caches, item.prompt, token_ids(m), item.opts, gen, a.stats);
    return a;
}

// Prompts of different lengths (so positions differ within every batch frame), frame limits that
// differ (so members finish at different frames), seeds that differ.
std::vector<BatchItem> make_items(const DualArModel& m, int n, bool greedy) {
    std::vector<BatchItem> items;
    for (int i = 0; i < n; ++i) {
        BatchItem it;
        it.id = 100 + i;
        it.prompt = make_prompt(m.config(), 5 + 3 * i, i % 3, uint64_t(11 + i));
        it.opts = options(greedy, 6 + 2 * (i % 4));
        it.seed = uint64_t(1000 + 7 * i);
        items.push_back(std::move(it));
    }
    return items;
}

bool same_logits(const GenerateStats& a, const GenerateStats& b) {
    if (a.captured_logits.size() != b.captured_logits.size()) return false;
    for (size_t i = 0; i < a.captured_logits.size(); ++i)
        if (!at::equal(a.captured_logits[i], b.captured_logits[i])) return false;
    return true;
}

// Each result against its item's run alone; `check_logits` off where frames were cut short.
void check_against_alone(const DualArModel& m, const std::vector<BatchItem>& items,
                         const std::vector<BatchItemResult>& results) {
    CHECK_EQ(results.size(), items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const Alone a = run_alone(m, items[i]);
        const BatchItemResult& r = results[i];
        CHECK_EQ(r.id, items[i].id);
        CHECK(at::equal(a.codes, r.codes));
        CHECK(a.stats.stop_reason == r.stats.stop_reason);
        CHECK_EQ(a.stats.frames, r.stats.frames);
        CHECK(same_logits(a.stats, r.stats));
    }
}

void batch_equals_alone(ModelLayout layout, at::ScalarType dtype, bool greedy, int n, int max_batch) {
    auto m = small_model(layout, 5, dtype);
    const std::vector<BatchItem> items = make_items(*m, n, greedy);
    const auto results = generate_batch(*m, token_ids(*m), items, max_batch);
    check_against_alone(*m, items, results);
    int widest = 0;
    for (const auto& r : results) widest = std::max(widest, r.max_batch_seen);
    CHECK_EQ(widest, std::min(n, max_batch));  // they did decode together
}

}  // namespace

TEST_CASE(greedy_fp32_batch_equals_each_alone_s2) { batch_equals_alone(ModelLayout::S2, at::kFloat, true, 4, 4); }
TEST_CASE(greedy_fp32_batch_equals_each_alone_s1) { batch_equals_alone(ModelLayout::S1, at::kFloat, true, 4, 4); }
TEST_CASE(seeded_sampling_batch_reproduces_each_alone_s2) { batch_equals_alone(ModelLayout::S2, at::kFloat, false, 5, 5); }
TEST_CASE(seeded_sampling_batch_reproduces_each_alone_s1) { batch_equals_alone(ModelLayout::S1, at::kFloat, false, 5, 5); }
TEST_CASE(bf16_batch_of_eight_equals_each_alone) { batch_equals_alone(ModelLayout::S2, at::kBFloat16, false, 8, 8); }
TEST_CASE(bf16_s1_batch_equals_each_alone) { batch_equals_alone(ModelLayout::S1, at::kBFloat16, true, 3, 3); }

TEST_CASE(late_joiners_take_freed_places_and_get_their_own_takes) {
    // Seven items through a batch of three: members finish at different frames and the queue
    // fills each freed place before the next frame.
    auto m = small_model(ModelLayout::S2, 9);
    const std::vector<BatchItem> items = make_items(*m, 7, false);
    BatchGenerator batch(*m, token_ids(*m), 3);
    for (const auto& it : items) batch.add(it);
    std::vector<int> widths;
    int max_active = 0;
    while (batch.step()) max_active = std::max(max_active, batch.active());
    for (const auto& f : batch.frames()) widths.push_back(f.batch);
    CHECK_EQ(max_active, 3);
    CHECK_EQ(batch.queued(), 0);
    std::vector<BatchItemResult> got = batch.take_finished();
    CHECK_EQ(got.size(), items.size());
    std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    check_against_alone(*m, items, got);
    // Total member-frames equal the frames every item decoded after its prefill.
    int64_t member_frames = 0, decoded = 0;
    for (int w : widths) member_frames += w;
    for (const auto& r : got) decoded += r.stats.frames - 1;
    CHECK_EQ(member_frames, decoded);
}

TEST_CASE(an_early_im_end_leaves_the_others_untouched) {
    // Without suppress_im_end members stop when they sample im_end; greedy on random weights rarely
    // does, so the bias is what we control: one member has a 1-frame limit (finishes at its prefill),
    // one a 2-frame limit (leaves after the first batch frame).
    auto m = small_model(ModelLayout::S1, 4);
    std::vector<BatchItem> items = make_items(*m, 4, true);
    items[1].opts = options(true, 1);
    items[2].opts = options(true, 2);
    for (auto& it : items) it.opts.suppress_im_end = false;
    const auto results = generate_batch(*m, token_ids(*m), items, 4);
    check_against_alone(*m, items, results);
    CHECK_EQ(results[1].stats.frames, 1);
    CHECK_EQ(results[2].stats.frames, 2);
}

TEST_CASE(cancelling_one_member_stops_it_alone) {
    auto m = small_model(ModelLayout::S2, 3);
    std::vector<BatchItem> items = make_items(*m, 4, false);
    for (auto& it : items) it.opts = options(false, 12);
    int frames_of_2 = 0;
    items[2].opts.on_frame = [&](int, const std::vector<int32_t>&, double) { ++frames_of_2; };
    items[2].opts.should_abort = [&] { return frames_of_2 >= 4; };
    const auto results = generate_batch(*m, token_ids(*m), items, 4);
    CHECK(results[2].stats.stop_reason == "cancelled");
    CHECK_EQ(results[2].stats.frames, 4);
    // Its frames before the cancel are its take alone, cut short.
    BatchItem uncancelled = items[2];
    uncancelled.opts.on_frame = nullptr;
    uncancelled.opts.should_abort = nullptr;
    const Alone full = run_alone(*m, uncancelled);
    CHECK(at::equal(full.codes.narrow(1, 0, 4), results[2].codes));
    std::vector<BatchItem> rest{items[0], items[1], items[3]};
    check_against_alone(*m, rest, {results[0], results[1], results[3]});
}

TEST_CASE(kv_reservation_counts_the_caches_the_members_allocate) {
    // batch_kv_bytes against the caches generate() really allocates for the largest items.
    auto m = small_model(ModelLayout::S2, 2);
    const std::vector<BatchItem> items = make_items(*m, 5, true);
    std::vector<int64_t> allocated;
    for (const auto& it : items) {
        Text2SemanticCaches caches;  // sized the way generate() sizes it for this item
        caches.prepare(*m, kv_capacity_for(it.prompt.size(1), it.opts.max_new_tokens, it.opts.kv_margin,
                                           m->config().max_seq_len));
        allocated.push_back(caches.slow.bytes() + caches.fast.bytes());
    }
    std::sort(allocated.rbegin(), allocated.rend());
    CHECK_EQ(batch_kv_bytes(*m, items, 3), uint64_t(allocated[0] + allocated[1] + allocated[2]));
    CHECK_EQ(batch_kv_bytes(*m, items, 8), uint64_t(allocated[0] + allocated[1] + allocated[2] + allocated[3] + allocated[4]));
}

TEST_CASE(auto_batch_size_keeps_the_caches_within_half_the_free_memory) {
    // Against the caches generate() really allocates: the largest B whose B largest caches take at
    // most half of what is free, never more than the items or the limit, at least 1.
    auto m = small_model(ModelLayout::S2, 2);
    const std::vector<BatchItem> items = make_items(*m, 5, true);
    std::vector<uint64_t> allocated;
    for (const auto& it : items) {
        Text2SemanticCaches caches;
        caches.prepare(*m, kv_capacity_for(it.prompt.size(1), it.opts.max_new_tokens, it.opts.kv_margin,
                                           m->config().max_seq_len));
        allocated.push_back(uint64_t(caches.slow.bytes() + caches.fast.bytes()));
    }
    std::sort(allocated.rbegin(), allocated.rend());
    const uint64_t three = allocated[0] + allocated[1] + allocated[2];
    CHECK_EQ(auto_batch_size(*m, items, 8, 2 * three), 3);
    CHECK_EQ(auto_batch_size(*m, items, 8, 2 * three - 1), 2);
    CHECK_EQ(auto_batch_size(*m, items, 8, uint64_t(1) << 50), 5);   // no more than the items
    CHECK_EQ(auto_batch_size(*m, items, 4, uint64_t(1) << 50), 4);   // no more than the limit
    CHECK_EQ(auto_batch_size(*m, items, 8, 1), 1);                   // one always runs (its own check refuses it)
}

TEST_CASE(a_bad_prompt_is_refused_when_added) {
    auto m = small_model(ModelLayout::S2, 2);
    BatchGenerator batch(*m, token_ids(*m), 2);
    BatchItem bad;
    bad.prompt = at::zeros({2, 3}, at::kLong);
    bool refused = false;
    try {
        batch.add(bad);
    } catch (const ReefError& e) {
        refused = e.error().code == ErrorCode::InvalidArgument;
    }
    CHECK(refused);
    CHECK_EQ(batch.queued(), 0);
    CHECK(!batch.step());
}

TEST_MAIN()
