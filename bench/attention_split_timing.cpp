// Decode attention on libtorch's OpenMP pool against the GEMV team's split by KV heads
// (nn/gemv_team.h, nn/attention.cpp): s1-mini's slow-decode shape (16 query heads on 8 KV heads,
// head dim 128), one call per layer of 28 over caches of their own (so each reads from memory, as
// a frame's layers do), 10 rounds, median time per call. Not a test (no timing is asserted); built
// with the tests so it keeps compiling. Bench results: bench/results/cpu/gemv-team-zen4.md.
//   build/tests/unit/attention_split_timing [bf16]   (2 threads)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "nn/attention.h"
#include "nn/gemv_team.h"

using namespace reef;

namespace {

constexpr int kLayers = 28, kRounds = 10;

// median over rounds of (time of one round of kLayers calls) / kLayers, in microseconds
template <typename Round>
double per_call_us(const Round& round) {
    std::vector<double> us;
    for (int r = 0; r < kRounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        round();
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kLayers);
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const at::ScalarType dtype = argc > 1 && std::strcmp(argv[1], "bf16") == 0 ? at::kBFloat16 : at::kFloat;
    const c10::InferenceMode inference;
    std::printf("| cache rows | K/V MB per layer | pool us per call | team us per call | team / pool |\n|---:|---:|---:|---:|---:|\n");
    for (int64_t rows : {512, 3072, 8192}) {
        const at::Tensor q = at::randn({1, 16, 1, 128}).to(dtype);  // [B, Hq, 1, D]
        std::vector<at::Tensor> keys, values;                        // [B, Hkv, rows, D], views of longer caches
        for (int l = 0; l < kLayers; ++l) {
            keys.push_back(at::randn({1, 8, rows + 256, 128}).to(dtype).narrow(2, 0, rows));
            values.push_back(at::randn({1, 8, rows + 256, 128}).to(dtype).narrow(2, 0, rows));
        }
        const at::Tensor mask = at::ones({1, 1, 1, rows}, at::kBool);
        auto layers = [&] {
            for (int l = 0; l < kLayers; ++l) attention(CallSite::SlowDecode, q, keys[size_t(l)], values[size_t(l)], mask);
        };
        at::set_num_threads(2);
        layers();  // warm-up
        const double pool = per_call_us(layers);
        const GemvTeamOn on(true);
        GemvTeam team;
        const double split = per_call_us([&] { team.run(layers); });
        const double mb = 2.0 * double(keys[0].numel()) * double(keys[0].element_size()) / 1e6;
        std::printf("| %lld | %.1f | %.0f | %.0f | %.2f |\n", static_cast<long long>(rows), mb, pool, split, split / pool);
    }
    return 0;
}
