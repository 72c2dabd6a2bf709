// The int4 weight-only GEMV rows (kernels/gemv_int4.h, issue #44) on every target this CPU runs,
// each forced in turn: against an fp64 reference that unpacks the nibbles itself (byte j: weight 2j
// low, 2j+1 high) and dequantizes w = (q − 8)·scale + zero per group, with the exact x (so the
// tolerance covers the int8 input rounding, bounded by max|x_g| / 254 per element of group g);
// every group size (the x86 byte-product rows take 64 and up, the portable ones 32); m inputs at
// once bit-identical to each input alone; a row range split as two threads split it; the
// dequantization for long prompts, bit for bit; and the same weights in blocks of 16 rows
// (kernels/gemv_int4_blocks.h), laid out here from the header's description, against the same
// reference and the same bits on every target. Torch-free: it runs on aarch64 under qemu-user too.
// (A source of tst_simd_kernels: its TEST_MAIN runs these cases.)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernels/gemv_int4.h"
#include "kernels/gemv_int4_blocks.h"
#include "kernel_test_util.h"

using namespace reef::kernels;
using reef_test::for_each_target;
using reef_test::randn;

namespace {

struct Int4Case {
    int64_t n, k, group;
    std::vector<uint8_t> w;        // [n, k/2]
    std::vector<uint16_t> s, z;    // [n, k/group] bf16
    std::vector<float> b;
    int q(int64_t r, int64_t i) const {
        const uint8_t v = w[size_t(r * k / 2 + i / 2)];
        return i % 2 ? v >> 4 : v & 0x0F;
    }
    double weight(int64_t r, int64_t i) const {
        const size_t g = size_t(r * (k / group) + i / group);
        return (q(r, i) - 8) * double(bf16_to_float(s[g])) + double(bf16_to_float(z[g]));
    }
};

Int4Case make_case(int64_t n, int64_t k, int64_t group, std::mt19937& g) {
    Int4Case c{n, k, group, std::vector<uint8_t>(size_t(n * k / 2)), {}, {}, randn(size_t(n), g)};
    std::uniform_int_distribution<int> byte(0, 255);  // every nibble value, both ends included
    for (uint8_t& v : c.w) v = uint8_t(byte(g));
    const std::vector<float> s = randn(size_t(n * k / group), g), z = randn(size_t(n * k / group), g);
    for (size_t i = 0; i < s.size(); ++i) {
        c.s.push_back(float_to_bf16(std::fabs(s[i]) * 0.01f + 1e-4f));
        c.z.push_back(float_to_bf16(z[i] * 0.02f));
    }
    return c;
}

// x [m, k] prepared as the kernels take it, then rows(xq, xs, gsum, r0, r1, y) for each range
template <typename Rows>
std::vector<float> prepared_run(const Int4Case& c, const std::vector<float>& x, int64_t m, int64_t ldy,
                                const std::vector<std::pair<int64_t, int64_t>>& ranges, const Rows& rows) {
    const int64_t groups = c.k / c.group;
    std::vector<int8_t> xq(static_cast<size_t>(m * c.k));
    std::vector<float> gsum(static_cast<size_t>(m * groups)), xs(static_cast<size_t>(m * groups)),
        y(static_cast<size_t>(m * ldy), -777.0f);
    for (int64_t j = 0; j < m; ++j)
        prepare_row_q8_i4(x.data() + j * c.k, c.k, c.group, xq.data() + j * c.k, xs.data() + j * groups,
                          gsum.data() + j * groups);
    for (auto [r0, r1] : ranges)
        if (r0 < r1) rows(xq.data(), xs.data(), gsum.data(), r0, r1, y.data());
    return y;
}

std::vector<float> run(const Int4Case& c, const std::vector<float>& x, int64_t m, bool with_bias, int64_t ldy,
                       const std::vector<std::pair<int64_t, int64_t>>& ranges) {
    return prepared_run(c, x, m, ldy, ranges, [&](const int8_t* xq, const float* xs, const float* gsum, int64_t r0, int64_t r1, float* y) {
        gemv_rows_i4_q8(c.w.data(), c.s.data(), c.z.data(), c.group, xq, xs, gsum, m, with_bias ? c.b.data() : nullptr,
                        c.k, r0, r1, y, ldy);
    });
}

// The case's weights in blocks of 16 rows (n a multiple of 16), as gemv_int4_blocks.h describes
// them: w[b][c][r][i] = byte 4c + i of row 16b + r, s and z [b][g][r].
struct Int4Blocks {
    std::vector<uint8_t> w;
    std::vector<uint16_t> s, z;
};

Int4Blocks blocked(const Int4Case& c) {
    const int64_t nb = c.n / 16, runs = c.k / 8, groups = c.k / c.group;
    Int4Blocks o{std::vector<uint8_t>(c.w.size()), std::vector<uint16_t>(c.s.size()), std::vector<uint16_t>(c.z.size())};
    for (int64_t b = 0; b < nb; ++b)
        for (int64_t r = 0; r < 16; ++r) {
            for (int64_t cc = 0; cc < runs; ++cc)
                for (int64_t i = 0; i < 4; ++i)
                    o.w[size_t(((b * runs + cc) * 16 + r) * 4 + i)] = c.w[size_t((16 * b + r) * (c.k / 2) + 4 * cc + i)];
            for (int64_t gi = 0; gi < groups; ++gi) {
                o.s[size_t((b * groups + gi) * 16 + r)] = c.s[size_t((16 * b + r) * groups + gi)];
                o.z[size_t((b * groups + gi) * 16 + r)] = c.z[size_t((16 * b + r) * groups + gi)];
            }
        }
    return o;
}

std::vector<float> run_blocks(const Int4Case& c, const Int4Blocks& blocks, const std::vector<float>& x, int64_t m,
                              bool with_bias, int64_t ldy, const std::vector<std::pair<int64_t, int64_t>>& ranges) {
    return prepared_run(c, x, m, ldy, ranges, [&](const int8_t* xq, const float* xs, const float* gsum, int64_t r0, int64_t r1, float* y) {
        gemv_blocks_i4_q8(blocks.w.data(), blocks.s.data(), blocks.z.data(), c.group, xq, xs, gsum, m,
                          with_bias ? c.b.data() : nullptr, c.k, r0, r1, y, ldy);
    });
}

bool close_to_reference(const Int4Case& c, const float* x, const float* y, bool with_bias, const std::string& what) {
    std::vector<double> top(size_t(c.k / c.group), 0.0);
    for (int64_t i = 0; i < c.k; ++i) top[size_t(i / c.group)] = std::max(top[size_t(i / c.group)], std::fabs(double(x[i])));
    for (int64_t r = 0; r < c.n; ++r) {
        double dot = 0, mags = 0, rounding = 0;
        for (int64_t i = 0; i < c.k; ++i) {
            const double w = c.weight(r, i), scale = bf16_to_float(c.s[size_t(r * (c.k / c.group) + i / c.group)]);
            dot += w * x[i];
            mags += std::fabs(w * x[i]) + 15 * scale * std::fabs(double(x[i]));
            // the int8 input's rounding meets q·scale only (the zeros take the exact sums): at most
            // 15·scale times half a step, max|x_g| / 254
            rounding += 15 * scale * top[size_t(i / c.group)] / 254.0;
        }
        const double ref = dot + (with_bias ? c.b[size_t(r)] : 0.0);
        // plus fp32 sums over k terms of the products' size
        const double tol = rounding + 1e-6 * double(c.k) * mags * 1e-1 + std::fabs(ref) * 1e-6 + 1e-6;
        if (!(std::fabs(double(y[r]) - ref) <= tol)) {
            std::fprintf(stderr, "%s n=%lld k=%lld g=%lld row %lld: %.9g vs %.9g (tol %.3g)\n", what.c_str(),
                         (long long)c.n, (long long)c.k, (long long)c.group, (long long)r, double(y[r]), ref, tol);
            return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE(int4_rows_match_an_fp64_reference_on_every_target) {
    std::mt19937 g(47);
    for_each_target([&](const std::string& t) {
        for (int64_t group : {32, 64, 128, 256})
            for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 256}, {3, 512}, {9, 768}, {67, 2560}}) {
                for (bool with_bias : {false, true}) {
                    const Int4Case c = make_case(n, k, group, g);
                    const std::vector<float> x = randn(size_t(k), g);
                    reset_ran_target();
                    const std::vector<float> y = run(c, x, 1, with_bias, n, {{0, n / 2}, {n / 2, n}});
                    CHECK(ran_target() == t);
                    CHECK(close_to_reference(c, x.data(), y.data(), with_bias, t));
                }
            }
    });
}

TEST_CASE(batched_int4_rows_equal_one_row_rows_bit_for_bit_on_every_target) {
    std::mt19937 g(48);
    for_each_target([&](const std::string& t) {
        for (int64_t group : {32, 64, 128, 256})
            for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 256}, {7, 512}, {130, 1024}}) {
                for (int64_t m : {2, 3, 8}) {
                    const Int4Case c = make_case(n, k, group, g);
                    const int64_t ldy = n + 5;  // a stride wider than the rows
                    const std::vector<float> x = randn(size_t(m * k), g);
                    const int64_t cut = n / 3;
                    const std::vector<std::pair<int64_t, int64_t>> ranges{{0, cut}, {cut, n}};
                    const std::vector<float> batched = run(c, x, m, true, ldy, ranges);
                    for (int64_t j = 0; j < m; ++j) {
                        const std::vector<float> xj(x.begin() + j * k, x.begin() + (j + 1) * k);
                        const std::vector<float> alone = run(c, xj, 1, true, ldy, ranges);
                        const bool same = std::memcmp(batched.data() + j * ldy, alone.data(), size_t(n) * sizeof(float)) == 0;
                        if (!same) std::fprintf(stderr, "%s n=%lld k=%lld m=%lld: batched int4 row %lld differs\n",
                                                t.c_str(), (long long)n, (long long)k, (long long)m, (long long)j);
                        CHECK(same);
                        CHECK(batched[size_t(j * ldy + n)] == -777.0f);  // padding untouched
                    }
                }
            }
    });
}

// Blocks of 16 rows: within the fp64 reference's bounds on every target, and the same bits on every
// target (integer dots, then the same float operations per row); ranges cut at block bounds as two
// threads cut them.
TEST_CASE(int4_blocks_match_an_fp64_reference_with_the_same_bits_on_every_target) {
    struct Run {
        Int4Case c;
        Int4Blocks blocks;
        std::vector<float> x;
        bool with_bias;
    };
    std::vector<Run> runs;
    std::mt19937 g(57);
    for (int64_t group : {32, 64, 128, 256})
        for (auto [n, k] : {std::pair<int64_t, int64_t>{16, 256}, {48, 768}, {160, 2816}})
            for (bool with_bias : {false, true}) {
                Int4Case c = make_case(n, k, group, g);
                Int4Blocks blocks = blocked(c);
                runs.push_back({std::move(c), std::move(blocks), randn(size_t(k), g), with_bias});
            }
    std::vector<std::vector<float>> first;
    for_each_target([&](const std::string& t) {
        for (size_t i = 0; i < runs.size(); ++i) {
            const Run& r = runs[i];
            const int64_t cut = r.c.n / 16 / 2 * 16;
            reset_ran_target();
            const std::vector<float> y = run_blocks(r.c, r.blocks, r.x, 1, r.with_bias, r.c.n, {{0, cut}, {cut, r.c.n}});
            CHECK(ran_target() == t);
            CHECK(close_to_reference(r.c, r.x.data(), y.data(), r.with_bias, t + " blocks"));
            if (first.size() < runs.size()) {
                first.push_back(y);
                continue;
            }
            const bool same = std::memcmp(y.data(), first[i].data(), y.size() * sizeof(float)) == 0;
            if (!same) std::fprintf(stderr, "%s: blocks case %zu differs from the first target's\n", t.c_str(), i);
            CHECK(same);
        }
    });
}

TEST_CASE(batched_int4_blocks_equal_one_input_bit_for_bit_on_every_target) {
    std::mt19937 g(58);
    for_each_target([&](const std::string& t) {
        for (int64_t group : {32, 64, 128, 256})
            for (auto [n, k] : {std::pair<int64_t, int64_t>{16, 256}, {80, 1024}})
                // the AVX-512 VNNI rows take inputs four at a time: 2 and 3 alone, 4 + 1, 4 + 2, 4 + 4
                for (int64_t m : {2, 3, 5, 6, 8}) {
                    const Int4Case c = make_case(n, k, group, g);
                    const Int4Blocks blocks = blocked(c);
                    const int64_t ldy = n + 5;  // a stride wider than the rows
                    const std::vector<float> x = randn(size_t(m * k), g);
                    const int64_t cut = n / 16 / 3 * 16;
                    const std::vector<std::pair<int64_t, int64_t>> ranges{{0, cut}, {cut, n}};
                    const std::vector<float> batched = run_blocks(c, blocks, x, m, true, ldy, ranges);
                    for (int64_t j = 0; j < m; ++j) {
                        const std::vector<float> xj(x.begin() + j * k, x.begin() + (j + 1) * k);
                        const std::vector<float> alone = run_blocks(c, blocks, xj, 1, true, ldy, ranges);
                        const bool same = std::memcmp(batched.data() + j * ldy, alone.data(), size_t(n) * sizeof(float)) == 0;
                        if (!same) std::fprintf(stderr, "%s n=%lld k=%lld m=%lld: batched blocks input %lld differs\n",
                                                t.c_str(), (long long)n, (long long)k, (long long)m, (long long)j);
                        CHECK(same);
                        CHECK(batched[size_t(j * ldy + n)] == -777.0f);  // padding untouched
                    }
                }
    });
}

// The even/odd split, the per-group scales and the group sums: xq holds round(x / xs_g) in
// [evens | odds] order, xs_g = max|x_g| / 127, every group's sum within fp32 rounding of the
// exact one; an all-zero group has scale 0, a non-finite one NaN.
TEST_CASE(int4_input_preparation_splits_scales_and_sums_on_every_target) {
    for_each_target([&](const std::string& t) {
        std::mt19937 g(49);
        const int64_t k = 512, group = 64, groups = k / group;
        std::vector<float> x = randn(size_t(k), g);
        // bf16 values, as a bf16 decode's inputs are: their sums in double are exact in any order
        for (float& v : x) v = bf16_to_float(float_to_bf16(v));
        for (int64_t i = 64; i < 128; ++i) x[size_t(i)] = 0;  // group 1: all zero
        x[300] = INFINITY;                                     // group 4: not finite
        std::vector<int8_t> xq(static_cast<size_t>(k), int8_t(99));
        std::vector<float> xs(static_cast<size_t>(groups)), gsum(static_cast<size_t>(groups));
        prepare_row_q8_i4(x.data(), k, group, xq.data(), xs.data(), gsum.data());
        for (int64_t gi = 0; gi < groups; ++gi) {
            double top = 0, sum = 0;
            for (int64_t i = gi * group; i < (gi + 1) * group; ++i) top = std::max(top, std::fabs(double(x[size_t(i)]))), sum += x[size_t(i)];
            auto q_of = [&](int64_t i) { return xq[size_t(i % 2 ? k / 2 + i / 2 : i / 2)]; };
            if (gi == 4) {
                CHECK(std::isnan(xs[size_t(gi)]));
                for (int64_t i = gi * group; i < (gi + 1) * group; ++i) CHECK(q_of(i) == 0);  // defined: zeros
                continue;
            }
            CHECK(xs[size_t(gi)] == float(top) / 127.0f);
            if (gsum[size_t(gi)] != float(sum)) std::fprintf(stderr, "%s: group %lld sum %.9g, want %.9g\n", t.c_str(), (long long)gi, double(gsum[size_t(gi)]), sum);
            CHECK(gsum[size_t(gi)] == float(sum));
            for (int64_t i = gi * group; i < (gi + 1) * group; ++i) {
                const double want = top > 0 ? std::nearbyint(double(x[size_t(i)]) * 127.0 / top) : 0;
                CHECK(std::fabs(double(q_of(i)) - want) <= 1);  // round half even of the fp32 product
                CHECK(q_of(i) >= -127 && q_of(i) <= 127);
            }
        }
        CHECK(xs[1] == 0);
    });
}

// The prepared input is the same on every target, bits and all: every group size, rows of 1 to
// 12 groups (the vector sums take four groups at a time, the rest one by one), fp32 values over
// 2^-30..2^30, and rows where the groups' double sums lose values by the order they add them in:
// pairs ±2^60·u that cancel, around values of ~1 that are absorbed while a ±2^60 is in the partial
// sum (a sum in another order gives another float, not an ulp but whole units off).
TEST_CASE(int4_input_preparation_is_the_same_on_every_target) {
    struct Prepared {
        std::vector<int8_t> xq;
        std::vector<float> xs, gsum;
        bool operator==(const Prepared& o) const {
            return xq == o.xq && std::memcmp(xs.data(), o.xs.data(), xs.size() * 4) == 0 && gsum == o.gsum;
        }
    };
    std::vector<std::vector<float>> rows;
    std::vector<int64_t> groups_of;
    std::mt19937 g(53);
    std::uniform_real_distribution<float> spread(-30, 30);
    for (int64_t group : {32, 64, 128, 256})
        for (int64_t n = 1; n <= 12; ++n) {
            std::vector<float> x = randn(size_t(n * group), g);
            std::vector<float> cancel = x;
            for (float& v : x) v *= std::exp2(spread(g));
            rows.push_back(std::move(x));
            groups_of.push_back(group);
            std::uniform_int_distribution<int64_t> at(0, group - 1);
            for (int64_t gi = 0; gi < n; ++gi)
                for (int pair = 0; pair < 3; ++pair) {
                    const float big = std::ldexp(1.0f + float(pair) / 8, 60);
                    cancel[size_t(gi * group + at(g))] = big;
                    cancel[size_t(gi * group + at(g))] = -big;  // (may overwrite the first: then no pair)
                }
            rows.push_back(std::move(cancel));
            groups_of.push_back(group);
        }
    std::vector<Prepared> first;
    for_each_target([&](const std::string& t) {
        for (size_t r = 0; r < rows.size(); ++r) {
            const int64_t k = int64_t(rows[r].size()), group = groups_of[r];
            Prepared p{std::vector<int8_t>(size_t(k)), std::vector<float>(size_t(k / group)), std::vector<float>(size_t(k / group))};
            prepare_row_q8_i4(rows[r].data(), k, group, p.xq.data(), p.xs.data(), p.gsum.data());
            if (first.size() < rows.size()) {
                first.push_back(std::move(p));
                continue;
            }
            if (!(p == first[r])) std::fprintf(stderr, "%s: row %zu (group %lld) differs from the first target's\n", t.c_str(), r, (long long)group);
            CHECK(p == first[r]);
        }
    });
}

// The rounding is lrintf's, exactly: halfway cases to even (top = 127 makes the factor exactly 1,
// so x itself is rounded), and every element of a random row equals lrintf of its fp32 product.
TEST_CASE(int4_input_rounding_is_round_half_to_even_on_every_target) {
    for_each_target([&](const std::string&) {
        const int64_t k = 64, group = 32;
        std::vector<float> x(static_cast<size_t>(k), 0.0f);
        const float halves[] = {2.5f, 3.5f, -2.5f, -3.5f, 0.5f, -0.5f, 126.5f, 127.0f};
        const int8_t want[] = {2, 4, -2, -4, 0, 0, 126, 127};
        for (size_t i = 0; i < 8; ++i) x[2 * i] = halves[i];  // the evens of group 0
        std::vector<int8_t> xq(static_cast<size_t>(k));
        std::vector<float> xs(2), gsum(2);
        prepare_row_q8_i4(x.data(), k, group, xq.data(), xs.data(), gsum.data());
        CHECK(xs[0] == 1.0f);
        for (size_t i = 0; i < 8; ++i) CHECK(xq[i] == want[i]);
        std::mt19937 g(51);
        const std::vector<float> r = randn(size_t(1024), g);
        std::vector<int8_t> rq(1024);
        std::vector<float> rs(8), rsum(8);
        prepare_row_q8_i4(r.data(), 1024, 128, rq.data(), rs.data(), rsum.data());
        for (int64_t i = 0; i < 1024; ++i) {
            float top = 0;
            for (int64_t j = i / 128 * 128; j < i / 128 * 128 + 128; ++j) top = std::max(top, std::fabs(r[size_t(j)]));
            const long q = std::lrintf(r[size_t(i)] * (127.0f / top));
            CHECK(rq[size_t(i % 2 ? 512 + i / 2 : i / 2)] == q);
        }
    });
}

// The dequantization of a long prompt's prefill: every weight's bf16 bits equal (q − 8)·scale + zero
// computed here in fp32 (product and sum apart) and rounded once, on every target, every group size,
// rows r0..r1 only (the rows around them untouched).
TEST_CASE(int4_dequantization_gives_each_weights_rounded_value_on_every_target) {
    std::mt19937 g(50);
    for_each_target([&](const std::string& t) {
        for (int64_t group : {32, 64, 128, 256}) {
            const Int4Case c = make_case(9, 512, group, g);
            std::vector<uint16_t> out(size_t(c.n * c.k), 0xBEEF);
            dequantize_rows_i4_bf16(c.w.data(), c.s.data(), c.z.data(), group, c.k, 2, 7, out.data());
            int bad = 0;
            for (int64_t r = 0; r < c.n; ++r)
                for (int64_t i = 0; i < c.k; ++i) {
                    const uint16_t got = out[size_t(r * c.k + i)];
                    if (r < 2 || r >= 7) {
                        bad += got != 0xBEEF;
                        continue;
                    }
                    const size_t gi = size_t(r * (c.k / group) + i / group);
                    volatile float product = float(c.q(r, i) - 8) * bf16_to_float(c.s[gi]);
                    bad += got != float_to_bf16(product + bf16_to_float(c.z[gi]));
                }
            if (bad) std::fprintf(stderr, "%s group %lld: %d weights differ\n", t.c_str(), (long long)group, bad);
            CHECK_EQ(bad, 0);
        }
    });
}
