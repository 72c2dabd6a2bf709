// The GEMV team of a CPU decode step (nn/gemv_team.h): its threads take the rows, the results are
// bit for bit those of libtorch's OpenMP pool (one GEMV after another, batched rows, the learned
// read-ahead order followed for several rounds), a failing step's exception comes through and the
// team serves the next step, it runs only where switched on (GemvTeamOn) and stands aside where it
// must (one thread, GemvPause, inside another team's step), and a greedy generation with it is, codes and logits, the one
// without it on one thread; decode attention inside a team runs on both threads, split by KV
// heads, with the bits of the whole call on one thread. Two threads,
// whatever the machine has. Whether it is faster is measured by reef-cli bench (":team" arms).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "check.h"
#include "nn/gemv.h"
#include "nn/attention.h"
#include "nn/gemv_team.h"
#include "nn/sdpa_policy.h"
#include "t2s_fixtures.h"

using namespace reef;
using namespace t2s_test;

namespace {

struct Case {
    at::Tensor w, x, xs;  // [N, K], one row [1, 1, K], three rows [3, 1, K]
};

// Matrices of a decode step's kinds of shapes (tails, an odd row count, several pieces), both dtypes.
std::vector<Case> cases() {
    auto g = at::make_generator<at::CPUGeneratorImpl>(11);
    std::vector<Case> out;
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16})
        for (auto [n, k] : {std::pair<int64_t, int64_t>{4097, 1024}, {1031, 3072}, {6144, 512}, {99, 64}})
            out.push_back({at::randn({n, k}, g).to(dtype), at::randn({1, 1, k}, g).to(dtype),
                           at::randn({3, 1, k}, g).to(dtype)});
    return out;
}

}  // namespace

TEST_CASE(the_team_threads_take_the_rows) {
    at::set_num_threads(2);
    const GemvTeamOn on(true);
    GemvTeam team;
    const at::Tensor w = at::zeros({64, 64});
    std::mutex mutex;
    std::vector<std::thread::id> ran;
    team.run([&] {
        GemvTeam::State* s = gemv_team::active();
        CHECK(s != nullptr);
        if (!s) return;
        CHECK_EQ(gemv_team::threads(*s), 2);
        gemv_team::run_rows(*s, w, [&] {
            const std::lock_guard<std::mutex> lock(mutex);
            ran.push_back(std::this_thread::get_id());
        });
    });
    // each team thread ran the rows once, this one among them
    CHECK_EQ(ran.size(), size_t(2));
    CHECK_EQ(std::set<std::thread::id>(ran.begin(), ran.end()).size(), size_t(2));
    CHECK(std::find(ran.begin(), ran.end(), std::this_thread::get_id()) != ran.end());
    CHECK(gemv_team::active() == nullptr);
}

TEST_CASE(a_team_gives_the_pools_bits) {
    if (!gemv_supported(at::kFloat)) return reef_test::skip("no GEMV kernels in this run");
    at::set_num_threads(2);
    const std::vector<Case> all = cases();
    const GemvTeamOn on(true);
    std::vector<at::Tensor> one, batch;
    for (const Case& c : all) one.push_back(gemv(c.x, c.w)), batch.push_back(project_rows(c.xs, c.w));
    GemvTeam team;
    for (int round = 0; round < 3; ++round) {  // from the second round on, each call reads the next one ahead
        team.run([&] {
            CHECK(gemv_team::active() != nullptr);
            for (size_t i = 0; i < all.size(); ++i) {
                CHECK(gemv(all[i].x, all[i].w).equal(one[i]));
                CHECK(project_rows(all[i].xs, all[i].w).equal(batch[i]));
            }
        });
    }
    at::set_num_threads(1);
}

TEST_CASE(a_failing_step_throws_through_and_the_team_serves_the_next) {
    if (!gemv_supported(at::kFloat)) return reef_test::skip("no GEMV kernels in this run");
    at::set_num_threads(2);
    const std::vector<Case> all = cases();
    const at::Tensor expected = gemv(all[0].x, all[0].w);
    const GemvTeamOn on(true);
    GemvTeam team;
    bool thrown = false;
    try {
        team.run([&] {
            gemv(all[0].x, all[0].w);
            throw std::runtime_error("step failed half way");
        });
    } catch (const std::runtime_error& e) {
        thrown = std::string(e.what()) == "step failed half way";
    }
    CHECK(thrown);
    CHECK(gemv_team::active() == nullptr);
    at::Tensor again;
    team.run([&] { again = gemv(all[0].x, all[0].w); });
    CHECK(again.equal(expected));
    at::set_num_threads(1);
}

TEST_CASE(the_team_stands_aside_where_it_must) {
    GemvTeam team;
    auto alone = [&] {
        bool with_team = true;
        team.run([&] { with_team = gemv_team::active() != nullptr; });
        return !with_team;
    };
    at::set_num_threads(2);
    CHECK(alone());  // opt-in: off unless switched on
    const GemvTeamOn on(true);
    CHECK(!alone());
    at::set_num_threads(1);
    CHECK(alone());  // no second thread
    at::set_num_threads(2);
    {
        const GemvPause linear(true);  // libtorch's linear wants its threads
        CHECK(alone());
    }
    {
        const GemvTeamOn off(false);  // a scope that does not ask keeps what is on
        CHECK(!alone());
    }
    bool nested_in_outer = false;
    team.run([&] {
        GemvTeam::State* outer = gemv_team::active();
        GemvTeam inner;
        inner.run([&] { nested_in_outer = outer != nullptr && gemv_team::active() == outer; });
    });
    CHECK(nested_in_outer);  // a step inside a team's step: no second region, the outer team serves it
    at::set_num_threads(1);
}

TEST_CASE(a_generation_with_the_team_decodes_as_one_thread_without) {
    // The team's step runs libtorch's ops on one thread, so the reference is a run without the team
    // whose decode frames (after a two-thread prefill, as the team's) run on one thread: the GEMV
    // rows' bits do not depend on the thread count (tst_gemv), libtorch's do (flash attention splits
    // a decode query's keys across threads, ~1 ulp apart).
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
        auto m = small_model(ModelLayout::S2, 7, dtype);
        const at::Tensor prompt = make_prompt(m->config(), 6, 4, 1);
        auto run = [&](bool team, int decode_threads, GenerateStats& stats) {
            GenerateOptions o;
            o.knobs = SampleKnobs{0.0, 0.8, 30};
            o.max_new_tokens = 9;
            o.suppress_im_end = true;
            o.capture_logits_frames = 9;
            o.on_frame = [&](int frame, const std::vector<int32_t>&, double) {
                if (frame == 0) at::set_num_threads(decode_threads);  // the prefill is frame 0
            };
            at::set_num_threads(2);
            const GemvTeamOn on(team);
            Text2SemanticCaches caches;
            at::Generator gen = make_request_generator(m->device(), 1);
            const int64_t steps = gemv_team_steps();
            at::Tensor codes = generate(*m, caches, prompt, token_ids(*m), o, gen, stats);
            CHECK_EQ(gemv_team_steps() > steps, team);  // it ran where asked
            return codes;
        };
        GenerateStats with, one_thread, two_threads;
        const at::Tensor a = run(true, 2, with), b = run(false, 1, one_thread), c = run(false, 2, two_threads);
        CHECK(a.equal(b));
        CHECK_EQ(with.captured_logits.size(), size_t(9));
        CHECK_EQ(worst_logit_diff(with, one_thread), 0.0);
        CHECK(a.equal(c));  // and greedy codes as on the pool's two threads, logits within rounding
        CHECK(worst_logit_diff(with, two_threads) < 1e-5);
    }
    at::set_num_threads(1);
}

namespace {

// Threads that ran an SDPA kernel op (any backend), seen by a global RecordFunction callback: not
// by the code under test.
std::mutex g_sdpa_mutex;
std::set<std::thread::id> g_sdpa_threads;

std::unique_ptr<at::ObserverContext> note_sdpa_thread(const at::RecordFunction& fn) {
    if (backend_from_op_name(fn.name()) != SdpaBackend::Unknown) {
        const std::lock_guard<std::mutex> lock(g_sdpa_mutex);
        g_sdpa_threads.insert(std::this_thread::get_id());
    }
    return nullptr;
}

// softmax(q·kᵀ/√D, masked)·v in fp64 with K/V heads repeated per query head: the reference.
at::Tensor attention_fp64(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& mask) {
    const int64_t g = q.size(1) / k.size(1);
    const at::Tensor kd = k.to(at::kDouble).repeat_interleave(g, 1), vd = v.to(at::kDouble).repeat_interleave(g, 1);
    at::Tensor s = at::matmul(q.to(at::kDouble), kd.transpose(-1, -2)) / std::sqrt(double(q.size(-1)));
    s = s.masked_fill(mask.logical_not(), -std::numeric_limits<double>::infinity());
    return at::matmul(at::softmax(s, -1), vd);  // [B, Hq, 1, D]
}

}  // namespace

TEST_CASE(decode_attention_splits_its_kv_heads_across_the_team) {
    // A folded GQA decode query over a long cache prefix (16 query heads on 8 KV heads, s1-mini's
    // shape), the cache a narrow view of a bigger one as the KV cache hands it: inside a team both
    // threads run SDPA on their heads, the result is the fp64 reference's within rounding and the
    // bits of the whole call on one thread outside the team; the step's thread records the call.
    auto g = at::make_generator<at::CPUGeneratorImpl>(23);
    for (SdpaPolicy policy : {SdpaPolicy::Auto, SdpaPolicy::Math}) {
        const SdpaPolicyGuard flags(policy, CompileMode::Eager);
        for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
            const at::Tensor q = at::randn({1, 16, 1, 128}, g).to(dtype);
            const at::Tensor k = at::randn({1, 8, 4096, 128}, g).to(dtype).narrow(2, 0, 3000);  // [1, 8, 3000, 128]
            const at::Tensor v = at::randn({1, 8, 4096, 128}, g).to(dtype).narrow(2, 0, 3000);
            const at::Tensor mask = (at::rand({1, 1, 1, 3000}, g) > 0.1);
            at::set_num_threads(1);
            BackendRecorder::current().reset();
            const at::Tensor alone = attention(CallSite::SlowDecode, q, k, v, mask);
            const SdpaBackend alone_backend = BackendRecorder::current().last(CallSite::SlowDecode);
            at::set_num_threads(2);
            BackendRecorder::current().reset();
            g_sdpa_threads.clear();
            const at::CallbackHandle watch =
                at::addGlobalCallback(at::RecordFunctionCallback(&note_sdpa_thread).scopes({at::RecordScope::FUNCTION}));
            const GemvTeamOn on(true);
            GemvTeam team;
            at::Tensor split;
            team.run([&] { split = attention(CallSite::SlowDecode, q, k, v, mask); });
            at::removeCallback(watch);
            CHECK_EQ(g_sdpa_threads.size(), size_t(2));
            CHECK(split.sizes() == q.sizes());
            CHECK(split.equal(alone));
            const double tolerance = dtype == at::kFloat ? 1e-5 : 2e-2;
            CHECK((split.to(at::kDouble) - attention_fp64(q, k, v, mask)).abs().max().item<double>() < tolerance);
            const std::vector<BackendUse> uses = BackendRecorder::current().uses();
            CHECK_EQ(uses.size(), size_t(1));
            if (!uses.empty()) {
                CHECK_EQ(uses[0].calls, int64_t(1));
                CHECK_EQ(uses[0].kv_len_max, int64_t(3000));
                CHECK(uses[0].backend == alone_backend);
                CHECK(uses[0].backend != SdpaBackend::Unknown);
            }
        }
    }
    at::set_num_threads(1);
}

TEST_CASE(a_failing_split_attention_throws_through) {
    // SDPA refuses a mask of the wrong length on every thread: the error comes out of the step.
    at::set_num_threads(2);
    const at::Tensor q = at::randn({1, 4, 1, 64}), k = at::randn({1, 4, 100, 64}), v = at::randn({1, 4, 100, 64});
    const at::Tensor bad_mask = at::ones({1, 1, 1, 37}, at::kBool);
    const GemvTeamOn on(true);
    GemvTeam team;
    bool thrown = false;
    try {
        team.run([&] { attention(CallSite::SlowDecode, q, k, v, bad_mask); });
    } catch (const c10::Error&) {
        thrown = true;
    }
    CHECK(thrown);
    at::Tensor again;
    team.run([&] { again = attention(CallSite::SlowDecode, q, k, v); });
    CHECK(again.sizes() == q.sizes());
    at::set_num_threads(1);
}

TEST_MAIN()
