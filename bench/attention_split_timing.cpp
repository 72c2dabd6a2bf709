// Decode attention on libtorch's OpenMP pool against the GEMV team's split by KV heads
// (nn/gemv_team.h, nn/attention.cpp): s1-mini's slow-decode shape (16 query heads on 8 KV heads,
// head dim 128), one call per layer of 28 over caches of their own (so each reads from memory, as
// a frame's layers do), 10 rounds, median time per call. Not a test (no timing is asserted); built
// with the tests so it keeps compiling. Bench results: bench/results/cpu/gemv-team-zen4.md.
// For fp32 on an AVX2 CPU it also times a plain one-pass attention (below): what a decode
// attention that streams the cache once could take, against libtorch's flash kernel.
//   build/tests/unit/attention_split_timing [bf16]   (2 threads)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <cmath>
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

// One KV head of a decode query, streaming the cache once: the G scores of each key row (one pass
// over K), a softmax over each query row's scores, then the value rows weighted by them (one pass
// over V). q [G, D], k and v rows of D floats `stride` apart, out [G, D]. An estimate for a kernel
// of Reef's own (Highway targets, tests against SDPA): not used by the engine.
#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
#endif
void stream_one_head(const float* q, const float* k, const float* v, int64_t rows, int64_t stride, int g, float* scores,
                     float* out) {
    constexpr int64_t kD = 128;
    const float scale = 1.0f / std::sqrt(float(kD));
    for (int64_t j = 0; j < rows; ++j)
        for (int r = 0; r < g; ++r) {
            float acc[8] = {};  // eight lanes: one vector register, no reassociation needed
            for (int64_t i = 0; i < kD; i += 8)
                for (int l = 0; l < 8; ++l) acc[l] += q[r * kD + i + l] * k[j * stride + i + l];
            scores[r * rows + j] = scale * (((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
        }
    const at::Tensor p = at::softmax(at::from_blob(scores, {g, rows}), -1);  // [G, rows]
    const float* pp = p.const_data_ptr<float>();
    for (int r = 0; r < g; ++r)
        for (int64_t i = 0; i < kD; ++i) out[r * kD + i] = 0.0f;
    for (int64_t j = 0; j < rows; ++j)
        for (int r = 0; r < g; ++r) {
            const float w = pp[r * rows + j];
            for (int64_t i = 0; i < kD; ++i) out[r * kD + i] += w * v[j * stride + i];
        }
}

// q [1, Hkv·G, 1, 128] against k, v [1, Hkv, rows, 128] (views with contiguous rows) -> [1, Hkv·G, 1, 128]
at::Tensor stream_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    const int64_t heads = k.size(1), rows = k.size(2), g = q.size(1) / heads;
    const at::Tensor qc = q.contiguous();
    at::Tensor out = at::empty_like(qc);
    at::parallel_for(0, heads, 1, [&](int64_t h0, int64_t h1) {
        std::vector<float> scores(size_t(g * rows));
        for (int64_t h = h0; h < h1; ++h)
            stream_one_head(qc.const_data_ptr<float>() + h * g * 128, k[0][h].const_data_ptr<float>(),
                            v[0][h].const_data_ptr<float>(), rows, k.stride(2), int(g), scores.data(),
                            out.mutable_data_ptr<float>() + h * g * 128);
    });
    return out;
}

bool cpu_runs_avx2() {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    const at::ScalarType dtype = argc > 1 && std::strcmp(argv[1], "bf16") == 0 ? at::kBFloat16 : at::kFloat;
    const c10::InferenceMode inference;
    const bool stream = dtype == at::kFloat && cpu_runs_avx2();
    std::printf("| cache rows | K/V MB per layer | pool us per call | team us per call | team / pool | one-pass us per call | "
                "one-pass max abs diff |\n|---:|---:|---:|---:|---:|---:|---:|\n");
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
        std::printf("| %lld | %.1f | %.0f | %.0f | %.2f |", static_cast<long long>(rows), mb, pool, split, split / pool);
        if (!stream) {
            std::printf(" - | - |\n");
            continue;
        }
        double diff = 0.0;  // against libtorch's SDPA on every layer
        for (int l = 0; l < kLayers; ++l) {
            const at::Tensor a = stream_attention(q, keys[size_t(l)], values[size_t(l)]);
            const at::Tensor b = attention(CallSite::SlowDecode, q, keys[size_t(l)], values[size_t(l)], mask);
            diff = std::max(diff, (a - b).abs().max().item<double>());
        }
        const double one_pass = per_call_us([&] {
            for (int l = 0; l < kLayers; ++l) stream_attention(q, keys[size_t(l)], values[size_t(l)]);
        });
        std::printf(" %.0f | %.1e |\n", one_pass, diff);
    }
    return 0;
}
