// generate(): ActivePrefix == Full (logits and greedy codes), same seed -> same codes, im_end stop,
// abort within a frame and a working next request, cache growth between requests, S1 decoding,
// frames at the thread governor's changing counts, and the run-queue wait it reads.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "base/cpu_cores.h"
#include "check.h"
#include "nn/sdpa_policy.h"
#include "t2s_fixtures.h"

using namespace reef;
using namespace t2s_test;

namespace {

struct Run {
    at::Tensor codes;
    GenerateStats stats;
    std::vector<std::vector<int32_t>> columns;
    std::vector<int> threads_between;  // the engine thread's count in each frame's callback
};

Run run(const DualArModel& m, Text2SemanticCaches& caches, const at::Tensor& prompt, GenerateOptions opts,
        uint64_t seed, TokenIds ids) {
    Run r;
    opts.on_frame = [&](int frame, const std::vector<int32_t>& column, double) {
        CHECK_EQ(size_t(frame), r.columns.size());
        r.columns.push_back(column);
        r.threads_between.push_back(at::get_num_threads());
    };
    at::Generator gen = make_request_generator(m.device(), seed);
    r.codes = generate(m, caches, prompt, ids, opts, gen, r.stats);
    return r;
}

Run run_fresh(const DualArModel& m, const at::Tensor& prompt, const GenerateOptions& opts, uint64_t seed = 1) {
    Text2SemanticCaches caches;
    return run(m, caches, prompt, opts, seed, token_ids(m));
}

GenerateOptions greedy(int64_t frames) {
    GenerateOptions o;
    o.knobs = SampleKnobs{0.0, 0.8, 30};
    o.max_new_tokens = frames;
    o.suppress_im_end = true;
    return o;
}

}  // namespace

TEST_CASE(codes_layout_and_callbacks) {
    auto m = small_model(ModelLayout::S2);
    const auto& c = m->config();
    const Run r = run_fresh(*m, make_prompt(c, 6, 4, 1), greedy(7));
    CHECK_EQ(r.codes.size(0), c.num_codebooks);
    CHECK_EQ(r.codes.size(1), 7);
    CHECK_EQ(r.stats.frames, 7);
    CHECK_EQ(r.stats.step_ms.size(), size_t(6));
    CHECK_EQ(r.stats.prompt_tokens, 10);
    CHECK(r.stats.stop_reason == "max_new_frames");
    CHECK_EQ(r.columns.size(), size_t(7));
    for (int64_t j = 0; j < 7; ++j) {
        const auto& col = r.columns[size_t(j)];
        CHECK(col[0] >= c.semantic_begin_id && col[0] <= c.semantic_end_id);  // the bias holds
        CHECK_EQ(int64_t(col[1]), col[0] - c.semantic_begin_id);           // codebook 0 = main − begin
        for (int64_t r2 = 0; r2 < c.num_codebooks; ++r2) {
            CHECK_EQ(r.codes[r2][j].item<int64_t>(), int64_t(col[size_t(r2 + 1)]));
            CHECK(col[size_t(r2 + 1)] >= 0 && col[size_t(r2 + 1)] < c.codebook_size);
        }
    }
}

TEST_CASE(active_prefix_equals_full_cache_mode) {
    auto m = small_model(ModelLayout::S2, 21);
    const at::Tensor prompt = make_prompt(m->config(), 8, 5, 2);
    GenerateOptions o = greedy(12);
    o.capture_logits_frames = 12;
    o.kv_mode = KvMode::ActivePrefix;
    const Run a = run_fresh(*m, prompt, o);
    o.kv_mode = KvMode::Full;
    const Run f = run_fresh(*m, prompt, o);
    CHECK(at::equal(a.codes, f.codes));
    CHECK_EQ(a.stats.captured_logits.size(), size_t(12));
    double worst = 0;
    for (size_t i = 0; i < a.stats.captured_logits.size(); ++i)
        worst = std::max(worst, (a.stats.captured_logits[i] - f.stats.captured_logits[i]).abs().max().item<double>());
    std::printf("  max |active - full| logit over 12 frames: %.3g\n", worst);
    CHECK(worst < 1e-5);
}

TEST_CASE(same_seed_same_codes) {
    auto m = small_model(ModelLayout::S2, 5);
    const at::Tensor prompt = make_prompt(m->config(), 6, 3, 4);
    GenerateOptions o;
    o.knobs = SampleKnobs{0.9, 0.9, 30};
    o.max_new_tokens = 10;
    o.suppress_im_end = true;
    const Run a = run_fresh(*m, prompt, o, 42), b = run_fresh(*m, prompt, o, 42), c = run_fresh(*m, prompt, o, 43);
    CHECK(at::equal(a.codes, b.codes));
    CHECK(!at::equal(a.codes, c.codes));
}

TEST_CASE(stops_on_im_end_and_drops_that_column) {
    auto m = small_model(ModelLayout::S2, 8);
    const at::Tensor prompt = make_prompt(m->config(), 6, 2, 7);
    const Run ref = run_fresh(*m, prompt, greedy(8));
    // Declare the main token of frame 3 to be im_end: greedy decoding is unchanged up to there
    // (it is inside the allowed set either way), so generation must stop at its first occurrence.
    const int64_t stop_token = ref.columns[3][0];
    int64_t first = 0;
    while (ref.columns[size_t(first)][0] != stop_token) ++first;
    TokenIds ids = token_ids(*m);
    ids.im_end = stop_token;
    GenerateOptions o = greedy(8);
    o.suppress_im_end = false;
    Text2SemanticCaches caches;
    const Run r = run(*m, caches, prompt, o, 1, ids);
    CHECK(r.stats.stop_reason == "im_end");
    CHECK_EQ(r.stats.frames, int(first + 1));
    CHECK_EQ(r.codes.size(1), first);  // the im_end column is not returned
    CHECK(at::equal(r.codes, ref.codes.narrow(1, 0, first)));
}

TEST_CASE(abort_stops_within_a_frame_and_the_next_request_works) {
    auto m = small_model(ModelLayout::S2, 9);
    const at::Tensor prompt = make_prompt(m->config(), 5, 3, 8);
    Text2SemanticCaches caches;
    GenerateOptions o = greedy(50);
    int frames_seen = 0;
    o.should_abort = [&] { return frames_seen >= 3; };
    Run r;
    o.on_frame = [&](int, const std::vector<int32_t>&, double) { ++frames_seen; };
    at::Generator gen = make_request_generator(at::kCPU, 1);
    r.codes = generate(*m, caches, prompt, token_ids(*m), o, gen, r.stats);
    CHECK(r.stats.stop_reason == "cancelled");
    CHECK_EQ(frames_seen, 3);
    CHECK_EQ(r.codes.size(1), 3);
    // The same caches serve the next request, and it equals a run on fresh caches.
    const Run next = run(*m, caches, prompt, greedy(6), 1, token_ids(*m));
    const Run fresh = run_fresh(*m, prompt, greedy(6));
    CHECK(next.stats.stop_reason == "max_new_frames");
    CHECK(at::equal(next.codes, fresh.codes));
    CHECK(at::equal(next.codes.narrow(1, 0, 3), r.codes));
}

TEST_CASE(cache_grows_for_a_longer_request) {
    auto m = small_model(ModelLayout::S2, 10);
    Text2SemanticCaches caches;
    GenerateOptions o = greedy(4);
    o.kv_margin = 0;
    const Run a = run(*m, caches, make_prompt(m->config(), 4, 0, 1), o, 1, token_ids(*m));
    CHECK_EQ(a.stats.kv_capacity, 8);
    const at::Tensor longer = make_prompt(m->config(), 20, 10, 2);
    const Run b = run(*m, caches, longer, greedy(5), 1, token_ids(*m));
    CHECK_EQ(b.stats.kv_capacity, 104);  // round_up(30 + 5 + 64, 8)
    CHECK(at::equal(b.codes, run_fresh(*m, longer, greedy(5)).codes));
    CHECK_THROWS(run_fresh(*m, at::zeros({3, 4}, at::kLong), greedy(2)));  // wrong row count
    CHECK_THROWS(run_fresh(*m, make_prompt(m->config(), 256, 0, 1), greedy(2)));  // T >= max_seq_len
}

TEST_CASE(s1_decoding_uses_1024_fast_logits_and_no_bias) {
    DualArConfig c = small_config(ModelLayout::S1);
    c.vocab_size = 2400, c.codebook_size = 2048, c.semantic_begin_id = 300, c.semantic_end_id = 1323;
    auto m = make_dual_ar_model(c, random_weights(c, 3), at::kCPU, at::kFloat);
    const at::Tensor prompt = make_prompt(c, 6, 2, 5);
    GenerateOptions o;
    o.knobs = SampleKnobs{1.0, 0.99, 30};
    o.repetition_penalty = 1.2;
    o.max_new_tokens = 12;
    o.suppress_im_end = true;
    const Run a = run_fresh(*m, prompt, o, 7), b = run_fresh(*m, prompt, o, 7);
    CHECK(at::equal(a.codes, b.codes));
    CHECK(a.codes.narrow(0, 1, c.num_codebooks - 1).max().item<int64_t>() < 1024);
    // no semantic bias in S1: main tokens outside the semantic range do occur with random weights
    bool non_semantic = false;
    for (const auto& col : a.columns) non_semantic = non_semantic || col[0] < c.semantic_begin_id || col[0] > c.semantic_end_id;
    CHECK(non_semantic);
    // greedy S1 works and is stable
    const Run g1 = run_fresh(*m, prompt, greedy(6)), g2 = run_fresh(*m, prompt, greedy(6));
    CHECK(at::equal(g1.codes, g2.codes));
}

TEST_CASE(frames_at_the_governors_changing_thread_counts_keep_their_bits) {
    // Matrices large enough that the GEMV rows split between threads (nn/gemv.cpp: 64 KB pieces)
    // and attention by heads; Reef's decode attention, as CPU synthesis runs it (the governor is
    // on only there: libtorch's flash attention splits a decode query's keys by thread).
    DualArConfig c = small_config(ModelLayout::S2);
    c.dim = 256, c.n_head = 8, c.n_local_heads = 2, c.head_dim = 32, c.intermediate_size = 768;
    c.fast_dim = 256, c.fast_n_head = 8, c.fast_n_local_heads = 2, c.fast_head_dim = 32, c.fast_intermediate_size = 768;
    const int before = at::get_num_threads();
    at::set_num_threads(2);  // the test runs with OMP_NUM_THREADS=1
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    for (const at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
        auto m = make_dual_ar_model(c, random_weights(c, 31), at::kCPU, dtype);
        const at::Tensor prompt = make_prompt(c, 9, 4, 3);
        GenerateOptions o;
        o.knobs = SampleKnobs{0.8, 0.8, 30};  // sampled: the sampler's ops run at the frame's count too
        o.max_new_tokens = 24;
        o.suppress_im_end = true;
        o.capture_logits_frames = 24;
        const Run fixed = run_fresh(*m, prompt, o, 11);
        // windows of one frame, each "slower" than the last (slower = 0: a probe down at once), each
        // probe paying (gain < 0), the way back up on a one-frame timer: the count flips every few
        // frames whatever the frames' times and waits
        ThreadGovernor flipping(2, ThreadGovernor::Options{1, 1, 1, 0.0, -1e9});
        o.threads = &flipping;
        const Run governed = run_fresh(*m, prompt, o, 11);
        // the counts OpenMP reported inside the frames: both ran
        const std::set<int> counts(governed.stats.step_threads.begin(), governed.stats.step_threads.end());
        CHECK(counts == std::set<int>({1, 2}));
        CHECK_EQ(governed.stats.step_threads.size(), governed.stats.step_ms.size());
        CHECK(std::set<int>(fixed.stats.step_threads.begin(), fixed.stats.step_threads.end()) == std::set<int>({2}));
        CHECK(flipping.switches() >= 4);
        // between frames (the streamed codec's chunks) and after them, the engine thread's own count
        CHECK(std::set<int>(governed.threads_between.begin(), governed.threads_between.end()) == std::set<int>({2}));
        CHECK_EQ(at::get_num_threads(), 2);
        CHECK(at::equal(fixed.codes, governed.codes));
        CHECK_EQ(fixed.stats.captured_logits.size(), governed.stats.captured_logits.size());
        for (size_t i = 0; i < fixed.stats.captured_logits.size(); ++i)
            CHECK(at::equal(fixed.stats.captured_logits[i], governed.stats.captured_logits[i]));
    }
    at::set_num_threads(before);
}

TEST_CASE(team_run_queue_wait_sees_a_thread_sharing_its_cpu) {
#ifdef __linux__
    // The governor's sign of contention, against the kernel's own accounting: a thread at nice 19
    // sharing one CPU with a busy thread at nice 0 gets ~1.5 % of it, so over 300 ms it waits
    // nearly all of them and runs a few (reading the run time instead would say a few ms).
    const int before = at::get_num_threads();
    at::set_num_threads(1);  // the team: the thread that learns it, alone
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    auto spin = [](std::chrono::milliseconds d) {
        const auto end = std::chrono::steady_clock::now() + d;
        std::atomic<uint64_t> n{0};
        while (std::chrono::steady_clock::now() < end) n.fetch_add(1, std::memory_order_relaxed);
    };
    std::atomic<bool> victim_ready{false};
    double waited = 0;
    std::thread victim([&] {
        sched_setaffinity(0, sizeof one, &one);
        setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), 19);  // this thread only (Linux)
        TeamRunQueueWait waits;
        waited = waits.since_last();
        victim_ready = true;
        if (waited < 0) return;
        spin(std::chrono::milliseconds(300));
        waited = waits.since_last();
    });
    while (!victim_ready) std::this_thread::yield();
    std::thread rival([&] {
        sched_setaffinity(0, sizeof one, &one);
        spin(std::chrono::milliseconds(400));
    });
    victim.join();
    rival.join();
    at::set_num_threads(before);
    if (waited < 0) return reef_test::skip("this kernel keeps no per-thread schedstat");
    std::printf("  waited %.1f ms of 300 at nice 19 beside a busy thread on one CPU\n", waited);
    CHECK(waited > 200);
    CHECK(waited < 1000);  // ms (until the rival ends, ~400), not µs or ns
#else
    reef_test::skip("Linux only");
#endif
}

TEST_MAIN()
