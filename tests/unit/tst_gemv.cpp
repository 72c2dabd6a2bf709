// The one-row bf16/fp32 GEMV that decode's projections use on AVX-512 BF16 CPUs: against an fp64
// reference of the same inputs (within one rounding of the output plus the fp32 sum's own error), against
// libtorch's linear, with tails (N % 4, one row), bias and one or
// two threads; `project` falls back to at::linear wherever a kernel does not apply. Where the CPU
// cannot run the kernel the reference case is reported as skipped. Its speed is measured by
// reef-cli bench (frames/s against the roofline), never in tests.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include "check.h"
#include "nn/gemv.h"

using namespace reef;

namespace {

at::Tensor reference(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    at::Tensor y = at::matmul(w.to(at::kDouble), x.reshape({-1}).to(at::kDouble));  // [N]
    return b.defined() ? y + b.to(at::kDouble) : y;
}

at::Tensor randn(at::IntArrayRef sizes, at::Generator& g, at::ScalarType dtype) {
    return at::randn(sizes, g, at::kFloat).to(dtype);
}

}  // namespace

TEST_CASE(project_falls_back_where_no_kernel_applies) {
    auto g = at::make_generator<at::CPUGeneratorImpl>(1);
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
        const at::Tensor w = randn({70, 48}, g, dtype), x = randn({1, 1, 48}, g, dtype);
        CHECK(project(x, w).equal(at::linear(x, w)));  // K = 48 (not a multiple of 32)
        const at::Tensor xs = randn({1, 3, 64}, g, dtype), ws = randn({8, 64}, g, dtype);
        const at::Tensor row = xs.narrow(1, 0, 1);
        CHECK(project(row, ws).equal(gemv_supported(dtype) ? gemv(row, ws) : at::linear(row, ws)));
        CHECK(project(xs, ws).equal(at::linear(xs, ws)));  // three rows: a GEMM, not a GEMV
        const at::Tensor wt = randn({64, 8}, g, dtype).t();
        CHECK(project(row, wt).equal(at::linear(row, wt)));  // a transposed weight: no kernel
    }
    const at::Tensor h = randn({1, 1, 64}, g, at::kHalf), wh = randn({8, 64}, g, at::kHalf);
    CHECK(project(h, wh).equal(at::linear(h, wh)));  // fp16: no kernel
}

TEST_CASE(gemv_matches_an_fp64_reference) {
    auto g = at::make_generator<at::CPUGeneratorImpl>(2);
    CHECK(gemv_supported(at::kFloat) == gemv_supported(at::kBFloat16));  // one CPU level for both
    CHECK(!gemv_supported(at::kHalf));
    for (at::ScalarType dtype : {at::kBFloat16, at::kFloat}) {
        if (!gemv_supported(dtype)) {
            // not a pass: the kernel was not tested here (project_falls_back_... covers the fallback)
            reef_test::skip(std::string("no ") + c10::toString(dtype) +
                            " kernel on this CPU (it needs AVX-512 BF16, or REEF_GEMV=0 is set)");
            continue;
        }
        const double rounding = dtype == at::kFloat ? 1.0 / 16777216 : 1.0 / 256;  // half an ulp
        for (int threads : {1, 2}) {
            at::set_num_threads(threads);
            for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {7, 64}, {130, 1024}, {4097, 1024}, {1024, 3072}}) {
                for (bool with_bias : {false, true}) {
                    const at::Tensor w = randn({n, k}, g, dtype), x = randn({1, 1, k}, g, dtype);
                    const at::Tensor b = with_bias ? randn({n}, g, dtype) : at::Tensor();
                    const at::Tensor y = gemv(x, w, b);
                    CHECK((y.sizes() == at::IntArrayRef{1, 1, n}));
                    CHECK(y.scalar_type() == dtype);
                    const at::Tensor ref = reference(x, w, b);
                    // one rounding of the output, plus the fp32 sum's own error over k terms of |w·x|
                    const at::Tensor mags = (w.to(at::kDouble).abs() * x.reshape({1, -1}).to(at::kDouble).abs()).sum(1);
                    const at::Tensor err = (y.reshape({-1}).to(at::kDouble) - ref).abs();
                    CHECK(err.le(ref.abs() * rounding + 1e-6 * double(k) * mags.max()).all().item<bool>());
                    // libtorch's linear computes the same sum in another order
                    const at::Tensor torch_y = at::linear(x, w, b).reshape({-1}).to(at::kDouble);
                    CHECK((y.reshape({-1}).to(at::kDouble) - torch_y).abs().le(torch_y.abs() * 2 * rounding + 1e-4).all().item<bool>());
                    CHECK(project(x, w, b).equal(y));
                }
            }
        }
    }
    at::set_num_threads(1);
}

TEST_MAIN()
