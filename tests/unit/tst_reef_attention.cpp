// Reef's own decode attention (nn/reef_attention.h) behind the "reef" SDPA policy: its results
// against softmax(q·kᵀ/√D)·v computed in fp64 here; which calls it takes (decode call sites only,
// what its kernel supports) and that those calls run no libtorch SDPA op at all, seen by a global
// RecordFunction callback rather than by asking the code under test; the recorded backend; calls
// it cannot take going to libtorch; a team step giving the pool's bits; the policy refused where
// it cannot run.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <vector>

#include "check.h"
#include "nn/attention.h"
#include "nn/gemv_team.h"
#include "nn/reef_attention.h"
#include "nn/sdpa_policy.h"
#include "reef/cpu_kernels.h"
#include "runtime/synthesis.h"

using namespace reef;

namespace {

// libtorch SDPA kernel ops seen by a global callback (any thread) while it is installed
std::atomic<int> g_sdpa_ops{0};
std::unique_ptr<at::ObserverContext> count_sdpa(const at::RecordFunction& fn) {
    if (backend_from_op_name(fn.name()) != SdpaBackend::Unknown) ++g_sdpa_ops;
    return nullptr;
}
struct SdpaOpCounter {
    at::CallbackHandle handle =
        at::addGlobalCallback(at::RecordFunctionCallback(&count_sdpa).scopes({at::RecordScope::FUNCTION}));
    SdpaOpCounter() { g_sdpa_ops = 0; }
    ~SdpaOpCounter() { at::removeCallback(handle); }
};

// softmax(q·kᵀ/√D, masked)·v in fp64 with K/V heads repeated per query head. q [B, Hq, 1, D].
at::Tensor attention_fp64(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          const std::optional<at::Tensor>& mask) {
    const int64_t g = q.size(1) / k.size(1);
    const at::Tensor kd = k.to(at::kDouble).repeat_interleave(g, 1), vd = v.to(at::kDouble).repeat_interleave(g, 1);
    at::Tensor s = at::matmul(q.to(at::kDouble), kd.transpose(-1, -2)) / std::sqrt(double(q.size(-1)));
    if (mask) s = s.masked_fill(mask->logical_not(), -std::numeric_limits<double>::infinity());
    return at::matmul(at::softmax(s, -1), vd);
}

at::Tensor decode(CallSite site, SdpaPolicy policy, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                  const std::optional<at::Tensor>& mask) {
    const SdpaPolicyGuard guard(policy, CompileMode::Eager);
    return attention(site, q, k, v, mask);
}

// A build without the SIMD kernels (Highway) has no kernel to test: its calls go to libtorch.
bool no_kernels() {
    if (cpu_kernel_info().built) return false;
    reef_test::skip("built without the SIMD kernels");
    return true;
}

// CPU time of each thread of this process in ns, from /proc/self/task/<tid>/schedstat (its first
// field): the kernel's own account of who ran, not the code under test's.
std::map<std::string, double> thread_cpu_ns() {
    std::map<std::string, double> ns;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream in(task.path() / "schedstat");
        double t = 0;
        if (in >> t) ns[task.path().filename().string()] = t;
    }
    return ns;
}

// The CPU time each thread spent in fn, largest first (threads that did not run it: ~0).
std::vector<double> cpu_ms_per_thread(const std::function<void()>& fn) {
    const auto before = thread_cpu_ns();
    fn();
    std::vector<double> ms;
    for (const auto& [tid, t] : thread_cpu_ns()) {
        const auto b = before.find(tid);
        ms.push_back((t - (b == before.end() ? 0.0 : b->second)) / 1e6);
    }
    std::sort(ms.rbegin(), ms.rend());
    return ms;
}

}  // namespace

TEST_CASE(reef_decode_attention_matches_an_fp64_reference) {
    if (no_kernels()) return;
    // s1-mini's slow decode (16 query heads on 8 KV heads, D = 128) and its fast decoder's shape
    // (D = 64), batches of 1 and 2, the cache a narrow view of a longer one, masks shared by the
    // batch or one per sequence; no libtorch SDPA op runs for any of these calls.
    const c10::InferenceMode inference;
    at::set_num_threads(2);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
    struct Shape {
        int64_t b, hq, hkv, d, rows;
        int mask;  // 0 none, 1 shared, 2 per sequence
    };
    for (const Shape& s : {Shape{1, 16, 8, 128, 700, 0}, Shape{1, 16, 8, 128, 3000, 1}, Shape{2, 16, 8, 64, 11, 2},
                           Shape{2, 4, 4, 64, 97, 1}}) {
        for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
            const at::Tensor q = at::randn({s.b, s.hq, 1, s.d}, gen).to(dtype);
            const at::Tensor k = at::randn({s.b, s.hkv, s.rows + 40, s.d}, gen).to(dtype).narrow(2, 0, s.rows);
            const at::Tensor v = at::randn({s.b, s.hkv, s.rows + 40, s.d}, gen).to(dtype).narrow(2, 0, s.rows);
            std::optional<at::Tensor> mask;
            if (s.mask) mask = at::rand({s.mask == 2 ? s.b : 1, 1, 1, s.rows}, gen) > 0.2;
            if (mask) mask->index_put_({at::indexing::Slice(), 0, 0, 0}, true);  // every query keeps a key
            BackendRecorder::current().reset();
            const SdpaOpCounter ops;
            const at::Tensor y = decode(CallSite::SlowDecode, SdpaPolicy::Reef, q, k, v, mask);
            CHECK_EQ(g_sdpa_ops.load(), 0);  // libtorch's attention did not run
            CHECK(y.sizes() == q.sizes() && y.scalar_type() == dtype);
            // fp32: a few ulps; bf16: the output's own rounding (2^-8 relative) on values below ~3
            const double tol = dtype == at::kFloat ? 1e-5 : 2e-2;
            const double err = (y.to(at::kDouble) - attention_fp64(q, k, v, mask)).abs().max().item<double>();
            CHECK(err < tol);
            if (err >= tol) std::fprintf(stderr, "b=%lld rows=%lld %s: max |error| %.3g\n", (long long)s.b, (long long)s.rows,
                                         c10::toString(dtype), err);
            CHECK(BackendRecorder::current().last(CallSite::SlowDecode) == SdpaBackend::Reef);
        }
    }
}

TEST_CASE(the_reef_policy_takes_decode_calls_only_and_leaves_the_rest_to_libtorch) {
    if (no_kernels()) return;
    const c10::InferenceMode inference;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
    const at::Tensor k = at::randn({1, 8, 50, 64}, gen), v = at::randn({1, 8, 50, 64}, gen);
    const at::Tensor q1 = at::randn({1, 16, 1, 64}, gen), q4 = at::randn({1, 16, 4, 64}, gen);
    auto& rec = BackendRecorder::current();
    rec.reset();
    {
        const SdpaOpCounter ops;
        decode(CallSite::FastDecode, SdpaPolicy::Reef, q1, k, v, std::nullopt);
        CHECK_EQ(g_sdpa_ops.load(), 0);
        CHECK(rec.last(CallSite::FastDecode) == SdpaBackend::Reef);
    }
    // a prefill (4 query rows) and the codec's window under the same policy: libtorch's kernels
    for (CallSite site : {CallSite::SlowPrefill, CallSite::CodecWindow}) {
        const at::Tensor qs = site == CallSite::CodecWindow ? at::randn({1, 8, 4, 64}, gen) : q4;
        const SdpaOpCounter ops;
        const at::Tensor y = decode(site, SdpaPolicy::Reef, qs, k, v, std::nullopt);
        CHECK(g_sdpa_ops.load() >= 1);
        CHECK(rec.last(site) != SdpaBackend::Reef && rec.last(site) != SdpaBackend::Unknown);
        CHECK((y.to(at::kDouble) - attention_fp64(qs, k, v, std::nullopt)).abs().max().item<double>() < 1e-5);
    }
    // fp16 has no kernel of Reef's: libtorch runs it, and the record says so
    {
        const at::Tensor qh = q1.to(at::kHalf), kh = k.to(at::kHalf), vh = v.to(at::kHalf);
        CHECK(reef_attention_refusal(fold_gqa_decode(qh, kh), kh, vh, std::nullopt).find("Half") != std::string::npos);
        const SdpaOpCounter ops;
        decode(CallSite::SlowDecode, SdpaPolicy::Reef, qh, kh, vh, std::nullopt);
        CHECK(g_sdpa_ops.load() >= 1);
        CHECK(rec.last(CallSite::SlowDecode) != SdpaBackend::Reef);
    }
    // an additive (float) mask is not the kernel's: libtorch again, with the same result
    {
        const at::Tensor additive = at::zeros({1, 1, 1, 50});
        CHECK(reef_attention_refusal(fold_gqa_decode(q1, k), k, v, additive).find("bool") != std::string::npos);
        const at::Tensor y = decode(CallSite::SlowDecode, SdpaPolicy::Reef, q1, k, v, additive);
        CHECK(rec.last(CallSite::SlowDecode) != SdpaBackend::Reef);
        CHECK((y.to(at::kDouble) - attention_fp64(q1, k, v, std::nullopt)).abs().max().item<double>() < 1e-5);
    }
    // the guard's end restores libtorch for decode too
    decode(CallSite::SlowDecode, SdpaPolicy::Auto, q1, k, v, std::nullopt);
    CHECK(rec.last(CallSite::SlowDecode) != SdpaBackend::Reef);
    CHECK(!reef_decode_attention_on());
}

TEST_CASE(a_team_step_gives_the_pools_bits) {
    if (no_kernels()) return;
    // Each KV head is one kernel call whichever thread runs it: the team's split, the pool's and
    // one thread's give the same bits.
    const c10::InferenceMode inference;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
        const at::Tensor q = at::randn({1, 16, 1, 128}, gen).to(dtype);
        const at::Tensor k = at::randn({1, 8, 900, 128}, gen).to(dtype), v = at::randn({1, 8, 900, 128}, gen).to(dtype);
        at::set_num_threads(1);
        const at::Tensor one = decode(CallSite::SlowDecode, SdpaPolicy::Reef, q, k, v, std::nullopt);
        at::set_num_threads(2);
        const at::Tensor pool = decode(CallSite::SlowDecode, SdpaPolicy::Reef, q, k, v, std::nullopt);
        const GemvTeamOn on(true);
        GemvTeam team;
        at::Tensor split;
        team.run([&] { split = decode(CallSite::SlowDecode, SdpaPolicy::Reef, q, k, v, std::nullopt); });
        CHECK(pool.equal(one));
        CHECK(split.equal(one));
    }
    at::set_num_threads(1);
}

TEST_CASE(the_heads_run_on_two_threads) {
    if (no_kernels()) return;
    // With two threads, s1-mini's 8 KV heads at 4096 cache rows are shared by libtorch's two
    // intra-op threads. A wrapper built without OpenMP once ran them all on the calling thread
    // (ATen's inline parallel_for is serial there) and every bits test still passed; here the OS's
    // per-thread CPU time says who ran. (Not for a team step: a team's threads spin while they
    // wait, so their CPU time cannot tell; checked by mutation.)
    const c10::InferenceMode inference;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(9);
    const at::Tensor q = at::randn({1, 8, 2, 128}, gen);  // folded: 16 query heads on 8 KV heads
    const at::Tensor k = at::randn({1, 8, 4096, 128}, gen), v = at::randn({1, 8, 4096, 128}, gen);
    at::set_num_threads(2);
    const std::vector<double> ms = cpu_ms_per_thread([&] {
        for (int i = 0; i < 150; ++i) reef_decode_attention(q, k, v, std::nullopt);
    });
    std::printf("  busiest threads %.0f / %.0f ms\n", ms[0], ms.size() > 1 ? ms[1] : 0.0);
    CHECK(ms[0] > 50);  // the calls took real time
    CHECK(ms.size() >= 2 && ms[1] > 0.25 * ms[0]);  // and a second thread did a share of it
    at::set_num_threads(1);
}

TEST_CASE(the_reef_policy_is_refused_where_it_cannot_run) {
    check_sdpa_policy(SdpaPolicy::Reef, CompileMode::Eager, DeviceKind::Cpu);  // no throw
    for (auto [mode, device] : {std::pair{CompileMode::AotInductor, DeviceKind::Cpu}, {CompileMode::Eager, DeviceKind::Cuda}}) {
        bool refused = false;
        try {
            check_sdpa_policy(SdpaPolicy::Reef, mode, device);
        } catch (const ReefError& e) {
            refused = e.error().code == ErrorCode::BackendUnavailable && std::string(e.what()).find("reef") != std::string::npos;
        }
        CHECK(refused);
    }
    check_sdpa_policy(SdpaPolicy::Auto, CompileMode::AotInductor, DeviceKind::Cpu);  // other policies: not this check's
}

TEST_MAIN()
