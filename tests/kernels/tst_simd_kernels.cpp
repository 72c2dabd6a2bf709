// The SIMD kernels (engine/kernels) on every target this CPU can run, each forced in turn, against
// fp64 references computed here in plain loops: the GEMV rows (fp32, bf16; tails, bias, odd row
// counts) and the row ops (RMSNorm both ways, RoPE, the SwiGLU product), plus bf16 rounding edge
// cases through the vector stores. Torch-free, so it also runs on aarch64 under qemu-user
// (scripts/check_aarch64.sh). Targets this CPU cannot run are listed as not tested.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"
#include "kernels/row_ops.h"
#include "kernel_test_util.h"

using namespace reef::kernels;
using reef_test::for_each_target;
using reef_test::randn;
using reef_test::to_bf16;
using reef_test::val;

namespace {
float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// The CPU's own word on its features (Linux): independent of Highway's CPUID reading.
std::set<std::string> cpuinfo_flags() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        std::set<std::string> out;
        for (std::string w; words >> w;) out.insert(w);
        return out;
    }
    return {};
}

// The targets whose bf16 rows are hand-written (K % 32 == 0 only; Highway's AVX-512 otherwise)
bool hand_written(const std::string& target) { return target == "avx512-bf16" || target == "amx-bf16"; }

template <typename T>
void check_gemv(const std::string& target, int64_t n, int64_t k, bool with_bias, std::mt19937& g) {
    const std::vector<float> wf = randn(size_t(n * k), g), xf = randn(size_t(k), g), bf = randn(size_t(n), g);
    std::vector<T> w, x, b;
    if constexpr (sizeof(T) == 2)
        w = to_bf16(wf), x = to_bf16(xf), b = to_bf16(bf);
    else
        w = wf, x = xf, b = bf;
    std::vector<T> y(size_t(n), T(0x5555));
    reset_ran_target();
    // two calls over two row ranges, as two threads would split them
    const int64_t half = n / 2;
    for (auto [r0, r1] : {std::pair<int64_t, int64_t>{0, half}, {half, n}}) {
        if constexpr (sizeof(T) == 2)
            gemv_rows_bf16(w.data(), x.data(), with_bias ? b.data() : nullptr, k, r0, r1, y.data());
        else
            gemv_rows_f32(w.data(), x.data(), with_bias ? b.data() : nullptr, k, r0, r1, y.data());
    }
    // the hand-written AVX-512 BF16 bf16 rows take K % 32 == 0 only; otherwise the best Highway
    // target runs (fp32 rows: Highway's AVX-512 for any K, recorded as the avx512-bf16 target's)
    const std::string expect = hand_written(target) && sizeof(T) == 2 && k % 32 != 0 ? "avx512" : target;
    CHECK(ran_target() == expect);
    const double rounding = sizeof(T) == 2 ? 1.0 / 256 : 1.0 / 16777216;  // half an ulp of the output
    bool ok = true;
    for (int64_t r = 0; r < n; ++r) {
        double ref = with_bias ? val(b[size_t(r)]) : 0, mags = 0;
        for (int64_t i = 0; i < k; ++i) {
            ref += val(w[size_t(r * k + i)]) * val(x[size_t(i)]);
            mags += std::fabs(val(w[size_t(r * k + i)]) * val(x[size_t(i)]));
        }
        // one rounding of the output plus the fp32 sum's own error over k terms
        const double tol = std::fabs(ref) * rounding + 1e-6 * double(k) * mags + 1e-6;
        if (!(std::fabs(val(y[size_t(r)]) - ref) <= tol)) {
            ok = false;
            std::fprintf(stderr, "%s n=%lld k=%lld row %lld: %.9g vs %.9g\n", target.c_str(), (long long)n,
                         (long long)k, (long long)r, val(y[size_t(r)]), ref);
            break;
        }
    }
    CHECK(ok);
}

template <typename T>
std::vector<T> as(const std::vector<float>& v) {
    if constexpr (sizeof(T) == 2)
        return to_bf16(v);
    else
        return v;
}

// |got − ref| within one ulp of bf16 (its roundings), or four of fp32 (the fp32 rsqrt, division
// and two products each add up to one) plus the fp32 sum of c squares' own error (c/2 ulps at
// worst, halved by the square root), at ref's magnitude
template <typename T>
bool within_ulp(T got, double ref, int64_t c) {
    const double ulp = sizeof(T) == 2 ? 1.0 / 128 : (4.0 + double(c) / 4) / 8388608;
    return std::fabs(val(got) - ref) <= std::fabs(ref) * ulp + 1e-30;
}

template <typename T>
void check_row_ops(const std::string& target, std::mt19937& g) {
    for (int64_t c : {int64_t(1), int64_t(7), int64_t(64), int64_t(1027)}) {
        const std::vector<T> x = as<T>(randn(size_t(c), g)), w = as<T>(randn(size_t(c), g));
        for (bool round_first : {false, true}) {
            std::vector<T> y(static_cast<size_t>(c));
            rms_norm_row(x.data(), c, w.data(), 1e-6f, round_first, y.data());
            double ss = 0;
            for (T v : x) ss += val(v) * val(v);
            const double inv = 1.0 / std::sqrt(ss / double(c) + 1e-6);
            bool ok = true;
            for (int64_t i = 0; i < c; ++i) {
                double n = val(x[size_t(i)]) * inv;
                if (round_first && sizeof(T) == 2) n = bf16_to_float(float_to_bf16(float(n)));
                // a double rounding (round_first) may land one ulp off either way
                if (!within_ulp(y[size_t(i)], n * val(w[size_t(i)]), c) && ok) {
                    ok = false;
                    std::fprintf(stderr, "  %zu-byte element %lld: %.9g vs %.9g\n", sizeof(T), (long long)i,
                                 val(y[size_t(i)]), n * val(w[size_t(i)]));
                }
            }
            CHECK(ok);
            if (!ok) std::fprintf(stderr, "rms_norm %s c=%lld round_first=%d\n", target.c_str(), (long long)c, int(round_first));
        }
    }
    for (int64_t heads : {int64_t(1), int64_t(3)}) {
        for (int64_t d : {int64_t(2), int64_t(10), int64_t(128)}) {
            const std::vector<T> x = as<T>(randn(size_t(heads * d), g));
            std::vector<float> f(static_cast<size_t>(d));
            for (int64_t j = 0; j < d / 2; ++j) {
                const double angle = 0.37 * double(j + 1);
                f[size_t(2 * j)] = float(std::cos(angle)), f[size_t(2 * j + 1)] = float(std::sin(angle));
            }
            std::vector<T> y(x.size());
            rotary_row(x.data(), heads, d, f.data(), y.data());
            bool ok = true;
            for (int64_t h = 0; h < heads; ++h)
                for (int64_t j = 0; j < d; j += 2) {
                    const double a = val(x[size_t(h * d + j)]), b = val(x[size_t(h * d + j + 1)]);
                    const double cs = f[size_t(j)], sn = f[size_t(j + 1)];
                    const double tol_abs = (std::fabs(a) + std::fabs(b)) * (sizeof(T) == 2 ? 1.0 / 128 : 1e-6);
                    ok = ok && std::fabs(val(y[size_t(h * d + j)]) - (a * cs - b * sn)) <= tol_abs;
                    ok = ok && std::fabs(val(y[size_t(h * d + j + 1)]) - (b * cs + a * sn)) <= tol_abs;
                }
            CHECK(ok);
            // with bf16 frequencies too (a bf16 model keeps its tables in bf16)
            const std::vector<uint16_t> fb = to_bf16(f);
            std::vector<T> yb(x.size());
            rotary_row(x.data(), heads, d, fb.data(), yb.data());
            bool ok_b = true;
            for (int64_t i = 0; i < heads * d; i += 2) {
                const int64_t j = i % d;
                const double a = val(x[size_t(i)]), b = val(x[size_t(i + 1)]);
                const double cs = bf16_to_float(fb[size_t(j)]), sn = bf16_to_float(fb[size_t(j + 1)]);
                const double tol_abs = (std::fabs(a) + std::fabs(b)) * (sizeof(T) == 2 ? 1.0 / 128 : 1e-6);
                ok_b = ok_b && std::fabs(val(yb[size_t(i)]) - (a * cs - b * sn)) <= tol_abs;
            }
            CHECK(ok_b);
        }
    }
    for (int64_t n : {int64_t(1), int64_t(9), int64_t(3072)}) {
        const std::vector<T> s = as<T>(randn(size_t(n), g)), u = as<T>(randn(size_t(n), g));
        std::vector<T> y(static_cast<size_t>(n));
        gate_mul_row(s.data(), u.data(), n, y.data());
        bool ok = true;
        for (int64_t i = 0; i < n; ++i) {
            // one product of two dtype values, rounded once: exactly what a correctly rounded
            // multiply gives (fp32: the double product rounded to float is that product)
            const float exact = float(val(s[size_t(i)]) * val(u[size_t(i)]));
            if constexpr (sizeof(T) == 2)
                ok = ok && y[size_t(i)] == float_to_bf16(exact);
            else
                ok = ok && y[size_t(i)] == exact;
        }
        CHECK(ok);
        // the residual add: one sum of two dtype values, rounded once (the double sum of two floats
        // is exact, so rounding it to float is the correctly rounded fp32 sum)
        add_row(s.data(), u.data(), n, y.data());
        bool add_ok = true;
        for (int64_t i = 0; i < n; ++i) {
            const float exact = float(val(s[size_t(i)]) + val(u[size_t(i)]));
            if constexpr (sizeof(T) == 2)
                add_ok = add_ok && y[size_t(i)] == float_to_bf16(exact);
            else
                add_ok = add_ok && y[size_t(i)] == exact;
        }
        CHECK(add_ok);
        if constexpr (sizeof(T) == 2) {
            // bf16 -> fp32 is the bits shifted up; fp32 values (not bf16 ones) rounded back
            std::vector<float> wide(static_cast<size_t>(n));
            widen_row(s.data(), n, wide.data());
            bool widen_ok = true;
            for (int64_t i = 0; i < n; ++i) widen_ok = widen_ok && double(wide[size_t(i)]) == val(s[size_t(i)]);
            CHECK(widen_ok);
            const std::vector<float> f = randn(size_t(n), g);
            round_row(f.data(), n, y.data());
            bool round_ok = true;
            for (int64_t i = 0; i < n; ++i) round_ok = round_ok && y[size_t(i)] == float_to_bf16(f[size_t(i)]);
            CHECK(round_ok);
        }
    }
}

}  // namespace

TEST_CASE(targets_match_what_the_cpu_reports) {
    const std::vector<std::string> targets = runnable_targets();
    CHECK(!targets.empty());
    std::string list;
    for (const std::string& t : targets) list += t + " ";
    std::printf("runnable targets: %s\n", list.c_str());
    const char* env = std::getenv("REEF_CPU_TARGET");
    if (!env || !*env) CHECK(current_target() == targets.front());
    CHECK(!force_target("no-such-target").empty());
    CHECK(force_target("best").empty());
#if defined(__x86_64__)
    const std::set<std::string> flags = cpuinfo_flags();
    if (flags.empty()) return reef_test::skip("no /proc/cpuinfo flags to compare with");
    auto has = [&](const std::string& t) { return std::find(targets.begin(), targets.end(), t) != targets.end(); };
    CHECK(has("avx2") == (flags.count("avx2") && flags.count("fma") && flags.count("bmi2") && flags.count("f16c")));
    CHECK(has("avx512") == (flags.count("avx512f") && flags.count("avx512bw") && flags.count("avx512dq") &&
                            flags.count("avx512vl")));
    CHECK(has("avx512-bf16") == (has("avx512") && flags.count("avx512_bf16")));
    // Linux grants the tile state on request from 5.16 on: a CPU with AMX and an older kernel would
    // fail this, which is the point (the kernel would then be missing, not silently slow).
    CHECK(has("amx-bf16") == (has("avx512-bf16") && flags.count("amx_bf16") && flags.count("amx_tile")));
    CHECK(has("emu128") || has("scalar"));  // a portable fallback is always there
    if (!has("avx512")) std::printf("not tested here: avx512, avx512-bf16 (this CPU has no AVX-512)\n");
    if (!has("amx-bf16")) std::printf("not tested here: amx-bf16 (this CPU has no AMX-BF16)\n");
#endif
}

TEST_CASE(gemv_rows_match_an_fp64_reference_on_every_target) {
    std::mt19937 g(7);
    for_each_target([&](const std::string& t) {
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {3, 2}, {7, 64}, {9, 34}, {130, 1024}, {66, 3072}}) {
            for (bool bias : {false, true}) {
                check_gemv<float>(t, n, k, bias, g);
                check_gemv<uint16_t>(t, n, k, bias, g);
            }
        }
    });
}

// The batched rows (issue #27): m inputs against the same rows give, for every input, exactly the
// bits the one-row kernel gives it alone over the same r0..r1, on every target; the rows outside
// r0..r1 and the padding between an output row's stride are left alone.
template <typename T>
void check_gemv_batch(const std::string& target, int64_t n, int64_t k, int64_t m, bool with_bias, std::mt19937& g) {
    const int64_t ldx = k + 3, ldy = n + 5;   // strides wider than the rows: nothing assumes packed inputs
    const std::vector<T> w = as<T>(randn(size_t(n * k), g)), x = as<T>(randn(size_t(m * ldx), g)),
                         b = as<T>(randn(size_t(n), g));
    const T* bp = with_bias ? b.data() : nullptr;
    const T fill = T(0x5555);
    std::vector<T> batched(size_t(m * ldy), fill), alone(size_t(m * ldy), fill);
    const int64_t cut = n / 3;   // two calls over two row ranges, as two threads would split them
    for (auto [r0, r1] : {std::pair<int64_t, int64_t>{0, cut}, {cut, n}}) {
        if (r0 == r1) continue;
        reset_ran_target();
        if constexpr (sizeof(T) == 2) {
            gemv_rows_bf16_batch(w.data(), x.data(), ldx, m, bp, k, r0, r1, batched.data(), ldy);
            for (int64_t j = 0; j < m; ++j) gemv_rows_bf16(w.data(), x.data() + j * ldx, bp, k, r0, r1, alone.data() + j * ldy);
        } else {
            gemv_rows_f32_batch(w.data(), x.data(), ldx, m, bp, k, r0, r1, batched.data(), ldy);
            for (int64_t j = 0; j < m; ++j) gemv_rows_f32(w.data(), x.data() + j * ldx, bp, k, r0, r1, alone.data() + j * ldy);
        }
        CHECK(ran_target() == (hand_written(target) && sizeof(T) == 2 && k % 32 != 0 ? "avx512" : target));
    }
    bool same = std::memcmp(batched.data(), alone.data(), batched.size() * sizeof(T)) == 0;
    for (int64_t j = 0; j < m && same; ++j)
        for (int64_t r = n; r < ldy; ++r) same = same && std::memcmp(&batched[size_t(j * ldy + r)], &fill, sizeof(T)) == 0;
    if (!same)
        std::fprintf(stderr, "%s %s n=%lld k=%lld m=%lld: batched rows differ from one-row rows\n", target.c_str(),
                     sizeof(T) == 2 ? "bf16" : "fp32", (long long)n, (long long)k, (long long)m);
    CHECK(same);
}

TEST_CASE(batched_gemv_rows_equal_one_row_rows_bit_for_bit_on_every_target) {
    std::mt19937 g(13);
    for_each_target([&](const std::string& t) {
        for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 32}, {7, 34}, {9, 64}, {130, 1024}, {67, 3072}})
            for (int64_t m : {1, 2, 3, 5, 8, 17}) {
                check_gemv_batch<float>(t, n, k, m, m % 2 == 1, g);
                check_gemv_batch<uint16_t>(t, n, k, m, m % 2 == 0, g);
            }
    });
}

TEST_CASE(row_ops_match_an_fp64_reference_on_every_target) {
    std::mt19937 g(11);
    for_each_target([&](const std::string& t) {
        check_row_ops<float>(t, g);
        check_row_ops<uint16_t>(t, g);
    });
}

// The codec's Snake activation (snake_row): every sample, the partial last vector included, within
// a few fp32 ulps of the formula in fp64 (Highway's Sin is within 3 ulp), then the dtype's rounding.
TEST_CASE(snake_row_matches_an_fp64_reference_on_every_target) {
    std::mt19937 g(17);
    for_each_target([&](const std::string& t) {
        for (int64_t n : {int64_t(1), int64_t(15), int64_t(64), int64_t(1001)}) {
            for (float alpha : {0.37f, 1.0f, 2.9f}) {
                std::vector<float> xf = randn(size_t(n), g);
                for (float& v : xf) v *= 4;
                const float inv = 1.0f / (alpha + 1e-9f);
                std::vector<float> yf(static_cast<size_t>(n), 0.0f);
                snake_row(xf.data(), n, alpha, inv, yf.data());
                const std::vector<uint16_t> xb = to_bf16(xf);
                std::vector<uint16_t> yb(static_cast<size_t>(n), uint16_t(0));
                snake_row(xb.data(), n, alpha, inv, yb.data());
                bool ok = true;
                for (int64_t i = 0; i < n && ok; ++i) {
                    auto ref = [&](double x) {
                        const double s = std::sin(double(alpha) * x);
                        return x + double(inv) * s * s;
                    };
                    const double rf = ref(xf[size_t(i)]), rb = ref(val(xb[size_t(i)]));
                    // fp32: the sine's 3 ulp and four roundings, at the magnitude of the terms
                    const double mag = std::fabs(xf[size_t(i)]) + std::fabs(double(inv));
                    ok = std::fabs(yf[size_t(i)] - rf) <= 1e-6 * mag &&
                         std::fabs(val(yb[size_t(i)]) - rb) <= std::fabs(rb) / 128 + 1e-6 * mag;
                    if (!ok)
                        std::fprintf(stderr, "%s n=%lld alpha=%g sample %lld: %.9g / %.9g vs %.9g / %.9g\n", t.c_str(),
                                     (long long)n, alpha, (long long)i, yf[size_t(i)], val(yb[size_t(i)]), rf, rb);
                }
                CHECK(ok);
            }
        }
    });
}

// The channels-last form (the codec's activations on the CPU): every value the bits snake_row
// gives it for its channel's alpha, whatever its lane; rows read at a stride wider than c.
template <typename T>
void check_snake_channels_last(const std::string& t, int64_t c, std::mt19937& g) {
    const int64_t rows = 5, ldx = c + 3;
    const std::vector<T> x = as<T>(randn(size_t(rows * ldx), g));
    std::vector<float> alpha(static_cast<size_t>(c)), inv(static_cast<size_t>(c));
    for (int64_t i = 0; i < c; ++i) alpha[size_t(i)] = 0.2f + 0.37f * float(i % 7), inv[size_t(i)] = 1.0f / (alpha[size_t(i)] + 1e-9f);
    std::vector<T> y(static_cast<size_t>(rows * c), T(0));
    snake_rows_channels_last(x.data(), rows, c, ldx, alpha.data(), inv.data(), y.data());
    bool same = true;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < c; ++i) {
            T one = T(0);
            snake_row(x.data() + r * ldx + i, 1, alpha[size_t(i)], inv[size_t(i)], &one);
            same = same && std::memcmp(&one, &y[size_t(r * c + i)], sizeof(T)) == 0;
        }
    if (!same) std::fprintf(stderr, "%s c=%lld: channels-last snake differs from snake_row\n", t.c_str(), (long long)c);
    CHECK(same);
}

TEST_CASE(channels_last_snake_equals_snake_row_bit_for_bit_on_every_target) {
    std::mt19937 g(19);
    for_each_target([&](const std::string& t) {
        for (int64_t c : {int64_t(1), int64_t(7), int64_t(33), int64_t(96)}) {
            check_snake_channels_last<float>(t, c, g);
            check_snake_channels_last<uint16_t>(t, c, g);
        }
    });
}

// Vector stores round like the scalar float_to_bf16: ties to even, NaN payloads kept NaN, overflow
// to infinity; and the scalar one against hand-worked bit patterns.
TEST_CASE(bf16_rounding_edge_cases_on_every_target) {
    CHECK(float_to_bf16(from_bits(0x3F808000)) == 0x3F80);  // 1 + 2^-8: a tie, to even (down)
    CHECK(float_to_bf16(from_bits(0x3F818000)) == 0x3F82);  // 1 + 3·2^-8: a tie, to even (up)
    CHECK(float_to_bf16(from_bits(0x3F808001)) == 0x3F81);  // just above the tie: up
    CHECK(float_to_bf16(from_bits(0x7F800001)) == 0x7FC0);  // NaN with a low payload stays NaN
    CHECK(float_to_bf16(from_bits(0x7F7FFFFF)) == 0x7F80);  // the largest float rounds to infinity
    CHECK(float_to_bf16(-0.0f) == 0x8000);
    // bf16 products (and sums) whose rounding is a tie, NaN, overflow: 35 lanes cycling through
    // the pairs, so every vector width (and the scalar tail) sees them
    std::vector<std::pair<uint16_t, uint16_t>> pairs = {
        {0x3F81, 0x3FC0},  // (1 + 2^-7)·1.5 = 1.5 + 3·2^-8: a tie
        {0x3F83, 0x3FC0},  // (1 + 3·2^-7)·1.5: a tie the other way
        {0x7FC1, 0x3F80},  // NaN · 1
        {0x7F7F, 0x4000},  // the largest bf16 · 2: infinity
        {0xFF7F, 0x4000},  // −infinity
        {0x0001, 0x3F00},  // the smallest subnormal · 0.5: a tie at zero, to even (zero)
        {0x8000, 0x3F80},  // −0
        {0x4049, 0x40C9},  // π-ish · 2π-ish
    };
    // sums: 1 + 2^-8 and (1 + 2^-7) + 2^-8 are ties (one rounds down to even, one up), NaN + x,
    // the largest bf16 twice (infinity), −0 + −0 = −0, −0 + 0 = +0
    const std::vector<std::pair<uint16_t, uint16_t>> sums = {
        {0x3F80, 0x3B80}, {0x3F81, 0x3B80}, {0x7FC1, 0x3F80}, {0x7F7F, 0x7F7F}, {0x8000, 0x8000}, {0x8000, 0x0000},
    };
    pairs.insert(pairs.end(), sums.begin(), sums.end());
    // fp32 values: ties to even both ways, a tie past the largest bf16, NaNs of both signs,
    // infinities, a subnormal, −0, and a value that rounds up across the exponent
    const std::vector<uint32_t> edges = {0x3F808000, 0x3F818000, 0x7F7F8000, 0xFFC12345, 0x7F800001, 0x7F800000,
                                         0xFF800000, 0x00008000, 0x80000000, 0x3FFFFFFF, 0x3F807FFF};
    std::vector<uint16_t> s(35, 0x3F80), u(35, 0x3F80);
    for (size_t i = 0; i < 35; ++i) s[i] = pairs[i % pairs.size()].first, u[i] = pairs[i % pairs.size()].second;
    for_each_target([&](const std::string& t) {
        std::vector<uint16_t> y(35);
        gate_mul_row(s.data(), u.data(), 35, y.data());
        bool ok = true;
        for (size_t i = 0; i < 35; ++i) {
            const uint16_t want = float_to_bf16(bf16_to_float(s[i]) * bf16_to_float(u[i]));
            if (y[i] != want) {
                ok = false;
                std::fprintf(stderr, "%s lane %zu: %04x · %04x -> %04x, want %04x\n", t.c_str(), i, s[i], u[i], y[i], want);
            }
        }
        CHECK(ok);
        // the same pairs added, and rounding ties, NaN and overflow straight from fp32
        std::vector<uint16_t> sum(35), rounded(35);
        add_row(s.data(), u.data(), 35, sum.data());
        std::vector<float> f(35);
        for (size_t i = 0; i < 35; ++i) f[i] = from_bits(edges[i % edges.size()]);
        round_row(f.data(), 35, rounded.data());
        bool add_ok = true, round_ok = true;
        for (size_t i = 0; i < 35; ++i) {
            add_ok = add_ok && sum[i] == float_to_bf16(bf16_to_float(s[i]) + bf16_to_float(u[i]));
            round_ok = round_ok && rounded[i] == float_to_bf16(f[i]);
        }
        CHECK(add_ok);
        CHECK(round_ok);
    });
    // float_to_bf16 itself on those fp32 values, against the rule written out
    CHECK(float_to_bf16(from_bits(0x3F808000)) == 0x3F80);  // 1 + 2^-8: a tie, to even (down)
    CHECK(float_to_bf16(from_bits(0x3F818000)) == 0x3F82);  // (1 + 2^-7) + 2^-8: a tie, to even (up)
    CHECK(float_to_bf16(from_bits(0x7F7F8000)) == 0x7F80);  // a tie past the largest bf16: infinity
    CHECK(float_to_bf16(from_bits(0xFFC12345)) == 0x7FC0);  // any NaN: the positive quiet NaN
}

namespace {

// at::argmax's answer written out: the first index whose value is greater than every earlier one,
// a NaN ending the search at its own index
int64_t argmax_reference(const std::vector<float>& x, const std::vector<float>* q) {
    auto value = [&](size_t i) { return q ? x[i] / (*q)[i] : x[i]; };
    int64_t best = 0;
    float top = value(0);
    for (size_t i = 1; i < x.size() && !std::isnan(top); ++i)
        if (const float v = value(i); v > top || std::isnan(v)) top = v, best = int64_t(i);
    return best;
}

}  // namespace

TEST_CASE(argmax_row_matches_the_first_largest_on_every_target) {
    std::mt19937 g(31);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<std::vector<float>> rows;
    for (int64_t n : {1, 7, 16, 33, 100, 4096}) {
        rows.push_back(randn(size_t(n), g));
        std::vector<float> few(static_cast<size_t>(n));  // a handful of values: ties of the largest
        for (float& v : few) v = float(int(g() % 4));
        rows.push_back(few);
        for (int64_t at : {int64_t(0), n / 2, n - 1}) {  // a NaN (and a second one after it)
            std::vector<float> r = randn(size_t(n), g);
            r[size_t(at)] = nan;
            r[size_t(n - 1)] = nan;
            rows.push_back(r);
        }
        std::vector<float> zeros(static_cast<size_t>(n), -inf);  // −0 and +0 as the largest, −inf around
        for (int64_t i = n / 3; i < n; i += 5) zeros[size_t(i)] = (i / 5) % 2 ? 0.0f : -0.0f;
        rows.push_back(zeros);
        rows.push_back(std::vector<float>(static_cast<size_t>(n), -inf));
        std::vector<float> top_at_end = randn(size_t(n), g);  // the largest in the scalar tail
        top_at_end[size_t(n - 1)] = 100.0f;
        rows.push_back(top_at_end);
    }
    for_each_target([&](const std::string& t) {
        bool ok = true;
        for (const std::vector<float>& x : rows) {
            std::vector<float> q = randn(x.size(), g);
            for (float& v : q) v = std::fabs(v) + 0.01f;
            const std::vector<float>* divisors[] = {nullptr, &q};
            for (const std::vector<float>* qq : divisors) {
                const int64_t got = argmax_row(x.data(), qq ? qq->data() : nullptr, int64_t(x.size()));
                const int64_t want = argmax_reference(x, qq);
                if (got != want) {
                    ok = false;
                    std::fprintf(stderr, "%s argmax n=%zu%s: %lld, want %lld\n", t.c_str(), x.size(), qq ? " /q" : "",
                                 (long long)got, (long long)want);
                }
            }
        }
        CHECK(ok);
    });
}

TEST_MAIN()
