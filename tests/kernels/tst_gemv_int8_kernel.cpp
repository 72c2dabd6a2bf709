// The int8 weight-only GEMV rows (kernels/gemv_int8.h, issue #44) on every target this CPU runs,
// each forced in turn: against an fp64 reference of Σ w·x·s + b computed here in plain loops
// (tails, bias, odd row counts, two row ranges as two threads split them), and m inputs at once
// bit-identical to each input alone; the int16-input rows against the exact integer dot product
// (bit for bit, every target, extreme values across the 4096-weight chunks). Torch-free: it runs on
// aarch64 under qemu-user too.
// (A source of tst_simd_kernels: its TEST_MAIN runs these cases.)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernels/gemv_int8.h"
#include "kernel_test_util.h"

using namespace reef::kernels;
using reef_test::for_each_target;
using reef_test::randn;

namespace {

struct Int8Case {
    int64_t n, k;
    std::vector<int8_t> w;
    std::vector<float> s, b;
};

Int8Case make_case(int64_t n, int64_t k, std::mt19937& g) {
    Int8Case c{n, k, std::vector<int8_t>(size_t(n * k)), randn(size_t(n), g), randn(size_t(n), g)};
    std::uniform_int_distribution<int> q(-128, 127);   // the whole int8 range, both ends included
    for (int8_t& v : c.w) v = int8_t(q(g));
    for (float& v : c.s) v = std::fabs(v) * 0.01f + 1e-4f;
    return c;
}

// |y − ref| within the fp32 sum's error over k terms of magnitude |w·x| (one ulp each, loosely),
// scaled, plus the scale's and the bias's roundings
bool close_to_reference(const Int8Case& c, const float* x, const float* y, bool with_bias, const std::string& what) {
    for (int64_t r = 0; r < c.n; ++r) {
        double dot = 0, mags = 0;
        for (int64_t i = 0; i < c.k; ++i) {
            dot += double(c.w[size_t(r * c.k + i)]) * x[i];
            mags += std::fabs(double(c.w[size_t(r * c.k + i)]) * x[i]);
        }
        const double s = c.s[size_t(r)];
        const double ref = dot * s + (with_bias ? c.b[size_t(r)] : 0.0);
        const double tol = (1e-6 * double(c.k) * mags + std::fabs(dot) * 1.2e-7) * s + std::fabs(ref) * 1.2e-7 + 1e-6;
        if (!(std::fabs(double(y[r]) - ref) <= tol)) {
            std::fprintf(stderr, "%s n=%lld k=%lld row %lld: %.9g vs %.9g\n", what.c_str(), (long long)c.n,
                         (long long)c.k, (long long)r, double(y[r]), ref);
            return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE(int8_rows_match_an_fp64_reference_on_every_target) {
    std::mt19937 g(44);
    for_each_target([&](const std::string& t) {
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 1}, {3, 7}, {8, 32}, {9, 100}, {67, 1024}, {33, 3075}}) {
            for (bool with_bias : {false, true}) {
                const Int8Case c = make_case(n, k, g);
                const std::vector<float> x = randn(size_t(k), g);
                std::vector<float> y(size_t(n), -777.0f);
                reset_ran_target();
                const int64_t half = n / 2;
                for (auto [r0, r1] : {std::pair<int64_t, int64_t>{0, half}, {half, n}})
                    if (r0 < r1)
                        gemv_rows_i8(c.w.data(), c.s.data(), x.data(), k, 1, with_bias ? c.b.data() : nullptr, k, r0,
                                     r1, y.data(), n);
                CHECK(ran_target() == t);
                CHECK(close_to_reference(c, x.data(), y.data(), with_bias, t));
            }
        }
    });
}

TEST_CASE(batched_int8_rows_equal_one_row_rows_bit_for_bit_on_every_target) {
    std::mt19937 g(45);
    for_each_target([&](const std::string& t) {
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {7, 34}, {130, 1024}, {67, 3072}}) {
            for (int64_t m : {2, 3, 5, 8}) {
                const Int8Case c = make_case(n, k, g);
                const int64_t ldx = k + 3, ldy = n + 5;  // strides wider than the rows
                const std::vector<float> x = randn(size_t(m * ldx), g);
                std::vector<float> batched(size_t(m * ldy), -777.0f), alone(batched);
                const int64_t cut = n / 3;
                for (auto [r0, r1] : {std::pair<int64_t, int64_t>{0, cut}, {cut, n}}) {
                    if (r0 == r1) continue;
                    gemv_rows_i8(c.w.data(), c.s.data(), x.data(), ldx, m, c.b.data(), k, r0, r1, batched.data(), ldy);
                    for (int64_t j = 0; j < m; ++j)
                        gemv_rows_i8(c.w.data(), c.s.data(), x.data() + j * ldx, ldx, 1, c.b.data(), k, r0, r1,
                                     alone.data() + j * ldy, ldy);
                }
                const bool same = std::memcmp(batched.data(), alone.data(), batched.size() * sizeof(float)) == 0;
                if (!same) std::fprintf(stderr, "%s n=%lld k=%lld m=%lld: batched int8 rows differ\n", t.c_str(),
                                        (long long)n, (long long)k, (long long)m);
                CHECK(same);
                for (int64_t j = 0; j < m; ++j) CHECK(batched[size_t(j * ldy + n)] == -777.0f);  // padding untouched
            }
        }
    });
}


// quantize_row_q16 on every target: every element within half a step of where it was, lrintf's
// rounding exactly, the largest at ±16383, an all-zero row at scale 0, a NaN row at scale NaN.
TEST_CASE(q16_input_quantization_stays_within_half_a_step_on_every_target) {
    for_each_target([&](const std::string&) {
        std::mt19937 g(46);
        for (int64_t k : {1, 7, 1024, 3075}) {
            const std::vector<float> x = randn(size_t(k), g);
            std::vector<int16_t> q(static_cast<size_t>(k));
            const float sx = quantize_row_q16(x.data(), k, q.data());
            double top = 0;
            int peak = 0;
            for (int64_t i = 0; i < k; ++i) {
                top = std::max(top, double(std::fabs(x[i])));
                peak = std::max(peak, std::abs(int(q[i])));
                // half a step, plus the fp32 product x · (16383 / max) rounding by up to 16383 · 2^-24 steps
                CHECK(std::fabs(double(x[i]) - double(q[i]) * sx) <= 0.501 * sx);
            }
            // lrintf's rounding of the fp32 product, exactly
            for (int64_t i = 0; i < k; ++i) CHECK(q[i] == std::lrintf(x[i] * (float(kQ16Max) / float(top))));
            CHECK(peak == kQ16Max);
            CHECK(std::fabs(sx - top / kQ16Max) <= 1e-6 * sx);
        }
        std::vector<float> zero(33, 0.0f);
        std::vector<int16_t> q(33, 5);
        CHECK(quantize_row_q16(zero.data(), 33, q.data()) == 0.0f && q[7] == 0);
        zero[3] = NAN;
        CHECK(std::isnan(quantize_row_q16(zero.data(), 33, q.data())));
    });
}

// The int16-input rows are an exact integer dot product: each output equals float(double(Σ w·xq) ·
// sx · s) (+ b) computed here from an int64 sum, bit for bit, on every target; m inputs at once give
// each input's bits alone; the largest products over 9000 weights (three 4096-weight chunks) do
// not overflow (the 1-lane scalar target's chunks, the AVX-512 VNNI rows' int32 folds). m = 3, 5, 6
// meet every group the batched rows take (VNNI: 3, 4 + 1, 4 + 2; Highway: 2 + 1, 2 + 2 + 1, 2 + 2 + 2).
TEST_CASE(q16_rows_equal_the_exact_integer_dot_on_every_target) {
    std::mt19937 g(47);
    for_each_target([&](const std::string& t) {
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 1}, {3, 17}, {9, 100}, {67, 1024}, {5, 9000}}) {
            // 0: random; 1: w = -128 (the AVX-512 VNNI rows' flipped byte 0); 2 and 3: w = 127 (its
            // flipped 255) against the largest inputs of either sign, whose lanes' 256·h + l folds
            // come closest to int32's end over a 4096-weight chunk
            for (int extreme : {0, 1, 2, 3}) {
                for (int64_t m : {3, 5, 6}) {
                    Int8Case c = make_case(n, k, g);
                    const int64_t ldx = k + 2, ldy = n + 1;
                    std::vector<int16_t> xq(size_t(m * ldx));
                    std::uniform_int_distribution<int> xd(-kQ16Max, kQ16Max);
                    for (int16_t& v : xq) v = int16_t(xd(g));
                    if (extreme) {
                        std::fill(c.w.begin(), c.w.end(), int8_t(extreme == 1 ? -128 : 127));
                        std::fill(xq.begin(), xq.end(), int16_t(extreme == 3 ? kQ16Max : -kQ16Max));
                    }
                    const std::vector<float> sx = {0.001f, 0.5f, 3e-6f, 2.0f, 7e-4f, 0.03f};
                    std::vector<float> batched(size_t(m * ldy), -777.0f), alone(batched);
                    reset_ran_target();
                    gemv_rows_i8_q16(c.w.data(), c.s.data(), xq.data(), sx.data(), ldx, m, c.b.data(), k, 0, n,
                                     batched.data(), ldy);
                    CHECK(ran_target() == t);
                    for (int64_t j = 0; j < m; ++j)
                        gemv_rows_i8_q16(c.w.data(), c.s.data(), xq.data() + j * ldx, sx.data() + j, ldx, 1,
                                         c.b.data(), k, 0, n, alone.data() + j * ldy, ldy);
                    CHECK(std::memcmp(batched.data(), alone.data(), batched.size() * sizeof(float)) == 0);
                    bool exact = true;
                    for (int64_t j = 0; j < m; ++j)
                        for (int64_t r = 0; r < n; ++r) {
                            int64_t total = 0;
                            for (int64_t i = 0; i < k; ++i)
                                total += int64_t(c.w[size_t(r * k + i)]) * xq[size_t(j * ldx + i)];
                            const float want =
                                float(double(total) * double(sx[size_t(j)]) * double(c.s[size_t(r)])) + c.b[size_t(r)];
                            if (batched[size_t(j * ldy + r)] != want) {
                                exact = false;
                                std::fprintf(stderr, "%s n=%lld k=%lld m=%lld input %lld row %lld: %.9g, want %.9g\n",
                                             t.c_str(), (long long)n, (long long)k, (long long)m, (long long)j,
                                             (long long)r, double(batched[size_t(j * ldy + r)]), double(want));
                            }
                        }
                    CHECK(exact);
                }
            }
        }
    });
}
