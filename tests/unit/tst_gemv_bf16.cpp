// The bf16 GEMV that decode's projections use on AVX-512 BF16 CPUs: against an fp64 reference
// of the same bf16 inputs (error within one bf16 rounding of the exact sum), against libtorch's
// bf16 linear, with tails (N % 4, one row), bias and several threads; `project` falls back to
// at::linear wherever the kernel does not apply. Prints a streaming-bandwidth comparison (not
// asserted: speed is measured by reef-cli bench, never in tests).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <chrono>

#include "check.h"
#include "nn/gemv_bf16.h"

using namespace reef;

namespace {

at::Tensor reference(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    at::Tensor y = at::matmul(w.to(at::kDouble), x.reshape({-1}).to(at::kDouble));  // [N]
    return b.defined() ? y + b.to(at::kDouble) : y;
}

}  // namespace

TEST_CASE(project_falls_back_where_the_kernel_does_not_apply) {
    auto g = at::make_generator<at::CPUGeneratorImpl>(1);
    const at::Tensor w = at::randn({70, 48}, g, at::kFloat), x = at::randn({1, 1, 48}, g, at::kFloat);
    CHECK(project(x, w).equal(at::linear(x, w)));  // fp32: libtorch's own linear, bit for bit
    const at::Tensor wb = w.to(at::kBFloat16), xb = x.to(at::kBFloat16);
    CHECK(project(xb, wb).equal(at::linear(xb, wb)));  // K = 48 is not a multiple of 32
    const at::Tensor xs = at::randn({1, 3, 64}, g, at::kFloat).to(at::kBFloat16), ws = at::randn({8, 64}, g, at::kFloat).to(at::kBFloat16);
    CHECK(project(xs, ws).equal(at::linear(xs, ws)));  // three rows: a GEMM, not a GEMV
}

TEST_CASE(gemv_matches_an_fp64_reference) {
    if (!gemv_bf16_supported()) {
        std::printf("  this CPU has no AVX-512 BF16: the kernel is not used here\n");
        return;
    }
    auto g = at::make_generator<at::CPUGeneratorImpl>(2);
    for (int threads : {1, 2}) {
        at::set_num_threads(threads);
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {7, 64}, {130, 1024}, {4097, 1024}, {1024, 3072}}) {
            for (bool with_bias : {false, true}) {
                const at::Tensor w = at::randn({n, k}, g, at::kFloat).to(at::kBFloat16);
                const at::Tensor x = at::randn({1, 1, k}, g, at::kFloat).to(at::kBFloat16);
                const at::Tensor b = with_bias ? at::randn({n}, g, at::kFloat).to(at::kBFloat16) : at::Tensor();
                const at::Tensor y = gemv_bf16(x, w, b);
                CHECK((y.sizes() == at::IntArrayRef{1, 1, n}));
                CHECK(y.scalar_type() == at::kBFloat16);
                const at::Tensor ref = reference(x, w, b);
                // fp32 accumulation then one rounding: within half a bf16 ulp of the exact value, plus
                // the fp32 sum's own error (k terms of |w·x|)
                const at::Tensor err = (y.reshape({-1}).to(at::kDouble) - ref).abs();
                const at::Tensor bound = ref.abs() * (1.0 / 256) + 1e-6 * double(k) *
                    (w.to(at::kDouble).abs() * x.reshape({1, -1}).to(at::kDouble).abs()).sum(1).max();
                CHECK(err.le(bound).all().item<bool>());
                // libtorch's bf16 linear rounds the same sum: at most one bf16 ulp apart
                const at::Tensor torch_y = at::linear(x, w, b).reshape({-1}).to(at::kDouble);
                CHECK((y.reshape({-1}).to(at::kDouble) - torch_y).abs().le(torch_y.abs() * (1.0 / 128) + 1e-3).all().item<bool>());
                CHECK(project(x, w, b).equal(y));
            }
        }
    }
    at::set_num_threads(1);
}

TEST_CASE(streaming_bandwidth_printout) {
    if (!gemv_bf16_supported()) return;
    // 64 matrices of 4096 x 2048 bf16 (1 GiB): several times the largest cache, read once per pass
    auto g = at::make_generator<at::CPUGeneratorImpl>(3);
    std::vector<at::Tensor> ws;
    for (int i = 0; i < 64; ++i) ws.push_back(at::randn({4096, 2048}, g, at::kFloat).to(at::kBFloat16));
    const at::Tensor x = at::randn({1, 1, 2048}, g, at::kFloat).to(at::kBFloat16);
    const double bytes = 64.0 * 4096 * 2048 * 2;
    for (int threads : {1, 2}) {
        at::set_num_threads(threads);
        for (int which = 0; which < 2; ++which) {
            double best = 1e30;
            for (int pass = 0; pass < 4; ++pass) {
                const auto t0 = std::chrono::steady_clock::now();
                for (const auto& w : ws) (void)(which ? at::linear(x, w) : gemv_bf16(x, w));
                best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            std::printf("  %d thread(s) %-12s %.1f GB/s\n", threads, which ? "at::linear" : "gemv_bf16", bytes / best / 1e9);
        }
    }
    at::set_num_threads(1);
}

TEST_MAIN()
