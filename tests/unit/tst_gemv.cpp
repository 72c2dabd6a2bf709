// The one-row bf16/fp32 GEMV that decode's projections use, on every SIMD target this CPU runs
// (each forced in turn): against an fp64 reference of the same inputs (within one rounding of the
// output plus the fp32 sum's own error), against libtorch's linear, with tails (N % 4, one row),
// bias and one or two threads; `project` falls back to at::linear wherever a kernel does not
// apply. A build without the kernels reports the reference case as skipped. Its speed is measured
// by reef-cli bench (frames/s against the roofline), never in tests.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include "check.h"
#include "nn/gemv.h"
#include "reef/cpu_kernels.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/cpu_target.h"
#endif

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
        // three rows: a GEMM, not a GEMV (bf16 on a CPU without bf16 arithmetic: through fp32), so
        // within one bf16 rounding of the fp64 value (fp32: libtorch's own result)
        if (dtype == at::kFloat) {
            CHECK(project(xs, ws).equal(at::linear(xs, ws)));
        } else {
            const at::Tensor y = project(xs, ws).to(at::kDouble), ref = at::matmul(xs.to(at::kDouble), ws.to(at::kDouble).t());
            CHECK(y.sizes() == ref.sizes());
            CHECK((y - ref).abs().le(ref.abs() / 256 + 1e-4).all().item<bool>());
        }
        const at::Tensor wt = randn({64, 8}, g, dtype).t();
        CHECK(project(row, wt).equal(at::linear(row, wt)));  // a transposed weight: no kernel
    }
    const at::Tensor h = randn({1, 1, 64}, g, at::kHalf), wh = randn({8, 64}, g, at::kHalf);
    CHECK(project(h, wh).equal(at::linear(h, wh)));  // fp16: no kernel
}

TEST_CASE(gemv_matches_an_fp64_reference_on_every_target) {
    auto g = at::make_generator<at::CPUGeneratorImpl>(2);
    CHECK(gemv_supported(at::kFloat) == gemv_supported(at::kBFloat16));  // one switch for both
    CHECK(!gemv_supported(at::kHalf));
    if (!gemv_supported(at::kFloat))
        // not a pass: the kernel was not tested here (project_falls_back_... covers the fallback)
        return reef_test::skip("no GEMV kernels in this run (a build without Highway, or REEF_GEMV=0)");
#ifdef REEF_HAVE_KERNELS
    for (const std::string& target : reef::kernels::runnable_targets()) {
        CHECK(reef::kernels::force_target(target).empty());
        std::printf("target %s\n", target.c_str());
        for (at::ScalarType dtype : {at::kBFloat16, at::kFloat}) {
            const double rounding = dtype == at::kFloat ? 1.0 / 16777216 : 1.0 / 256;  // half an ulp
            for (int threads : {1, 2}) {
                at::set_num_threads(threads);
                for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {7, 64}, {130, 1024}, {4097, 1024}, {1024, 3072}}) {
                    for (bool with_bias : {false, true}) {
                        const at::Tensor w = randn({n, k}, g, dtype), x = randn({1, 1, k}, g, dtype);
                        const at::Tensor b = with_bias ? randn({n}, g, dtype) : at::Tensor();
                        reset_cpu_kernels_ran();
                        const at::Tensor y = gemv(x, w, b);
                        CHECK(cpu_kernels_ran() == target);
                        CHECK((y.sizes() == at::IntArrayRef{1, 1, n}));
                        CHECK(y.scalar_type() == dtype);
                        const at::Tensor ref = reference(x, w, b);
                        // one rounding of the output, plus the fp32 sum's own error over k terms of |w·x|
                        const at::Tensor mags = (w.to(at::kDouble).abs() * x.reshape({1, -1}).to(at::kDouble).abs()).sum(1);
                        const at::Tensor err = (y.reshape({-1}).to(at::kDouble) - ref).abs();
                        CHECK(err.le(ref.abs() * rounding + 1e-6 * double(k) * mags.max()).all().item<bool>());
                        // libtorch's linear computes the same sum in another order: both within the
                        // error model above of the fp64 value, so within twice it of each other
                        const at::Tensor torch_y = at::linear(x, w, b).reshape({-1}).to(at::kDouble);
                        const at::Tensor bound = ref.abs() * rounding + 1e-6 * double(k) * mags;
                        CHECK((y.reshape({-1}).to(at::kDouble) - torch_y).abs().le(2 * bound).all().item<bool>());
                        CHECK(project(x, w, b).equal(y));
                    }
                }
            }
        }
    }
    CHECK(reef::kernels::force_target("best").empty());
#endif
    at::set_num_threads(1);
}

// The rows of a call are shared between the threads (nn/gemv.cpp: a region each, in chunks, a thread
// done with its own taking the others'); a row's bits must not follow which chunk it fell in: the
// same with one thread or two, call after call, and in a batched call (project_rows) as in the
// one-row call. Odd N put an odd row at the end of some split; the two-row and one-row dots sum in
// different orders.
TEST_CASE(a_rows_bits_do_not_depend_on_threads_or_batching) {
    if (!gemv_supported(at::kFloat)) return reef_test::skip("no GEMV kernels in this run");
    auto g = at::make_generator<at::CPUGeneratorImpl>(3);
    for (at::ScalarType dtype : {at::kBFloat16, at::kFloat}) {
        // the last two: a few long rows, where one thread's region is empty or a single odd row
        for (auto [n, k] : {std::pair<int64_t, int64_t>{4097, 1024}, {1031, 3072}, {6144, 1024}, {99, 64}, {3, 32768}, {5, 16384}}) {
            const at::Tensor w = randn({n, k}, g, dtype), x = randn({3, 1, k}, g, dtype);
            const at::Tensor row = x.narrow(0, 1, 1);
            at::set_num_threads(1);
            const at::Tensor one_thread = gemv(row, w);
            at::set_num_threads(2);
            for (int call = 0; call < 3; ++call) CHECK(gemv(row, w).equal(one_thread));
            CHECK(project_rows(x, w).narrow(0, 1, 1).equal(one_thread));
        }
    }
    at::set_num_threads(1);
}

TEST_MAIN()
