// Decode attention at s1-mini's slow-decode shape (16 query heads on 8 KV heads, head dim 128),
// one call per layer of 28 over caches of their own (so each reads from memory, as a frame's
// layers do): libtorch's SDPA (what the "auto" policy runs: flash on the CPU) against Reef's own
// kernel (the "reef" policy, nn/reef_attention.h), each on libtorch's pool and inside a GEMV team
// (nn/gemv_team.h, split by KV heads). The four variants take turns within every round, 10
// rounds, median time per call: this VM's bandwidth drifts between seconds, so only ratios taken
// side by side mean anything. Not a test (no timing is asserted); built with the tests so it keeps
// compiling. Results: bench/results/cpu/reef-attention-zen4.md, gemv-team-zen4.md.
//   build/tests/unit/attention_split_timing [fp32|bf16] [pages]   (2 threads)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "nn/attention.h"
#include "nn/gemv_team.h"
#include "nn/reef_attention.h"
#include "nn/sdpa_policy.h"
#include "base/weight_memory.h"

using namespace reef;

namespace {

constexpr int kLayers = 28, kRounds = 10;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median µs per layer call of each variant (one call runs all kLayers layers): a warm-up round,
// then kRounds rounds in which the variants take turns, since only side-by-side ratios mean anything.
std::array<double, 4> interleaved_us(const std::function<void()> (&variants)[4]) {
    std::vector<double> us[4];
    for (int r = -1; r < kRounds; ++r)  // round -1 warms up
        for (int i = 0; i < 4; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            variants[i]();
            const double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            if (r >= 0) us[i].push_back(t / kLayers);
        }
    return {median(us[0]), median(us[1]), median(us[2]), median(us[3])};
}

}  // namespace

// `pages`: the caches in libtorch's memory (4 KB pages where transparent huge pages are on
// madvise) against the same caches in huge-page-advised memory (base/weight_memory.h), each policy
// on the pool.
int compare_pages(at::ScalarType dtype) {
    std::printf("%s, us per call (median of %d rounds, variants interleaved)\n\n", c10::toString(dtype), kRounds);
    std::printf("| cache rows | K/V MB per layer | libtorch, 4 KB | libtorch, huge | huge / 4 KB | reef, 4 KB | reef, huge | "
                "huge / 4 KB |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int64_t rows : {512, 3072, 8192}) {
        const at::Tensor q = at::randn({1, 16, 1, 128}).to(dtype);
        std::vector<at::Tensor> keys[2], values[2];  // [0] libtorch's memory, [1] huge-page-advised
        for (int l = 0; l < kLayers; ++l) {
            const at::Tensor k = at::randn({1, 8, rows + 256, 128}).to(dtype), v = at::randn({1, 8, rows + 256, 128}).to(dtype);
            keys[0].push_back(k.narrow(2, 0, rows)), values[0].push_back(v.narrow(2, 0, rows));
            keys[1].push_back(to_weight_memory(k).narrow(2, 0, rows)), values[1].push_back(to_weight_memory(v).narrow(2, 0, rows));
        }
        const at::Tensor mask = at::ones({1, 1, 1, rows}, at::kBool);
        auto layers = [&](SdpaPolicy policy, int mem) {
            const SdpaPolicyGuard guard(policy, CompileMode::Eager);
            for (int l = 0; l < kLayers; ++l) attention(CallSite::SlowDecode, q, keys[mem][size_t(l)], values[mem][size_t(l)], mask);
        };
        const std::function<void()> variants[] = {
            [&] { layers(SdpaPolicy::Auto, 0); }, [&] { layers(SdpaPolicy::Auto, 1); },
            [&] { layers(SdpaPolicy::Reef, 0); }, [&] { layers(SdpaPolicy::Reef, 1); },
        };
        const std::array<double, 4> m = interleaved_us(variants);
        const double mb = 2.0 * double(keys[0][0].numel()) * double(keys[0][0].element_size()) / 1e6;
        std::printf("| %lld | %.1f | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |\n", static_cast<long long>(rows), mb, m[0], m[1],
                    m[1] / m[0], m[2], m[3], m[3] / m[2]);
    }
    return 0;
}

int main(int argc, char** argv) {
    const at::ScalarType dtype = argc > 1 && std::strcmp(argv[1], "bf16") == 0 ? at::kBFloat16 : at::kFloat;
    const c10::InferenceMode inference;
    at::set_num_threads(2);
    if (argc > 2 && std::strcmp(argv[2], "pages") == 0) return compare_pages(dtype);
    std::printf("%s, us per call (median of %d rounds, variants interleaved)\n\n", c10::toString(dtype), kRounds);
    std::printf("| cache rows | K/V MB per layer | libtorch pool | reef pool | reef / libtorch | libtorch team | reef team | "
                "reef team / libtorch team | max abs diff |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int64_t rows : {512, 3072, 8192}) {
        const at::Tensor q = at::randn({1, 16, 1, 128}).to(dtype);  // [B, Hq, 1, D]
        std::vector<at::Tensor> keys, values;                        // [B, Hkv, rows, D], views of longer caches
        for (int l = 0; l < kLayers; ++l) {
            keys.push_back(at::randn({1, 8, rows + 256, 128}).to(dtype).narrow(2, 0, rows));
            values.push_back(at::randn({1, 8, rows + 256, 128}).to(dtype).narrow(2, 0, rows));
        }
        const at::Tensor mask = at::ones({1, 1, 1, rows}, at::kBool);
        auto layers = [&](SdpaPolicy policy) {
            const SdpaPolicyGuard guard(policy, CompileMode::Eager);
            for (int l = 0; l < kLayers; ++l) attention(CallSite::SlowDecode, q, keys[size_t(l)], values[size_t(l)], mask);
        };
        const GemvTeamOn on(true);
        GemvTeam team;
        const std::function<void()> variants[] = {
            [&] { layers(SdpaPolicy::Auto); },
            [&] { layers(SdpaPolicy::Reef); },
            [&] { team.run([&] { layers(SdpaPolicy::Auto); }); },
            [&] { team.run([&] { layers(SdpaPolicy::Reef); }); },
        };
        const std::array<double, 4> m = interleaved_us(variants);
        double diff = 0.0;  // Reef's kernel against libtorch's SDPA on every layer
        for (int l = 0; l < kLayers; ++l) {
            at::Tensor a, b;
            {
                const SdpaPolicyGuard guard(SdpaPolicy::Reef, CompileMode::Eager);
                a = attention(CallSite::SlowDecode, q, keys[size_t(l)], values[size_t(l)], mask);
            }
            b = attention(CallSite::SlowDecode, q, keys[size_t(l)], values[size_t(l)], mask);
            diff = std::max(diff, (a.to(at::kFloat) - b.to(at::kFloat)).abs().max().item<double>());
        }
        const double mb = 2.0 * double(keys[0].numel()) * double(keys[0].element_size()) / 1e6;
        std::printf("| %lld | %.1f | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f | %.1e |\n", static_cast<long long>(rows), mb, m[0],
                    m[1], m[1] / m[0], m[2], m[3], m[3] / m[2], diff);
    }
    return 0;
}
