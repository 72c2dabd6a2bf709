// Reef's decode attention kernel (kernels/decode_attention.h) on every target this CPU runs,
// against softmax(q·kᵀ·scale)·v computed in fp64 in plain loops from the same (bf16-rounded) rows:
// GQA groups of 1-5 query rows, head dims with and without a vector tail, key counts around the
// kernel's block of 32 and a long cache, rows read through a stride wider than the head, masks
// that hide whole blocks (the running maximum starts late) and single keys, scores spread wide
// enough that the maximum rises block after block.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_test_util.h"
#include "kernels/bf16.h"
#include "kernels/decode_attention.h"

using namespace reef::kernels;
using reef_test::for_each_target;
using reef_test::randn;
using reef_test::to_bf16;
using reef_test::val;

namespace {

struct Case {
    int64_t g, d, n;
    int mask;  // 0 none, 1 every third key hidden, 2 the first 40 keys hidden, 3 one key kept
};

template <typename T>
bool check_case(const std::string& target, const Case& c, float spread, std::mt19937& gen) {
    const int64_t stride = c.d + 8;  // a view of a wider cache row: nothing assumes packed rows
    std::vector<float> q = randn(size_t(c.g * c.d), gen);
    for (float& x : q) {
        x *= spread;  // larger scores: a sharper softmax, more rescaling
        if constexpr (sizeof(T) == 2) x = bf16_to_float(float_to_bf16(x));  // a bf16 model's query, as callers pass
    }
    std::vector<float> kf = randn(size_t(c.n * stride), gen), vf = randn(size_t(c.n * stride), gen);
    std::vector<T> k, v;
    if constexpr (sizeof(T) == 2)
        k = to_bf16(kf), v = to_bf16(vf);
    else
        k = kf, v = vf;
    // a rising trend in the keys, so later blocks hold larger scores than earlier ones
    for (int64_t i = 0; i < c.n; ++i)
        for (int64_t j = 0; j < c.d; ++j) {
            const float bumped = float(val(k[size_t(i * stride + j)]) + 0.002 * double(i) * (q[size_t(j)] > 0 ? 1 : -1));
            if constexpr (sizeof(T) == 2)
                k[size_t(i * stride + j)] = float_to_bf16(bumped);
            else
                k[size_t(i * stride + j)] = bumped;
        }
    std::vector<uint8_t> keep(size_t(c.n), 1);
    for (int64_t i = 0; i < c.n; ++i) {
        if (c.mask == 1) keep[size_t(i)] = i % 3 != 1;
        if (c.mask == 2) keep[size_t(i)] = i >= 40;
        if (c.mask == 3) keep[size_t(i)] = i == c.n / 2;
    }
    const float scale = 1.0f / std::sqrt(float(c.d));
    std::vector<float> out(size_t(c.g * c.d), 12345.0f);
    const KvRows<T> rows{k.data(), v.data(), stride, stride, c.n, c.mask ? keep.data() : nullptr};
    decode_attention_head(q.data(), c.g, c.d, rows, scale, out.data());

    double worst = 0, v_max = 0;
    for (int64_t i = 0; i < c.n; ++i)
        for (int64_t j = 0; j < c.d && keep[size_t(i)]; ++j) v_max = std::max(v_max, std::fabs(double(val(v[size_t(i * stride + j)]))));
    for (int64_t r = 0; r < c.g; ++r) {
        std::vector<double> s(size_t(c.n));
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t i = 0; i < c.n; ++i) {
            double dot = 0;
            for (int64_t j = 0; j < c.d; ++j) dot += double(q[size_t(r * c.d + j)]) * val(k[size_t(i * stride + j)]);
            s[size_t(i)] = dot * double(scale);
            if (keep[size_t(i)]) mx = std::max(mx, s[size_t(i)]);
        }
        double sum = 0;
        for (int64_t i = 0; i < c.n; ++i) sum += keep[size_t(i)] ? std::exp(s[size_t(i)] - mx) : 0.0;
        for (int64_t j = 0; j < c.d; ++j) {
            double y = 0;
            for (int64_t i = 0; i < c.n; ++i)
                if (keep[size_t(i)]) y += std::exp(s[size_t(i)] - mx) / sum * val(v[size_t(i * stride + j)]);
            worst = std::max(worst, std::fabs(double(out[size_t(r * c.d + j)]) - y));
        }
    }
    // fp32 arithmetic over n terms of size ~1 (sums of up to n terms in one lane on the scalar
    // targets): a few ulps, growing with n. The avx512-bf16 kernel (head dims 32-128 in steps of 32)
    // rounds the softmax numerators to bf16 before the value product, as libtorch's flash and math
    // backends do: each weight off by at most 2^-9 relative, the weights renormalised by their sum,
    // so the output is off by at most 2·2^-9 of the largest value it weighs.
    const bool dp = sizeof(T) == 2 && (target == "avx512-bf16" || target == "amx-bf16") && c.d % 32 == 0 && c.d <= 128;
    const bool ok = worst <= 2e-5 * (1.0 + double(c.n) / 1000.0) + (dp ? std::ldexp(v_max, -8) : 0.0);
    if (!ok)
        std::fprintf(stderr, "%s %s g=%lld d=%lld n=%lld mask=%d spread=%g: worst |error| %.3g\n", target.c_str(),
                     sizeof(T) == 2 ? "bf16" : "fp32", (long long)c.g, (long long)c.d, (long long)c.n, c.mask,
                     double(spread), worst);
    return ok;
}

}  // namespace

TEST_CASE(decode_attention_matches_an_fp64_softmax_on_every_target) {
    std::mt19937 gen(17);
    const Case cases[] = {{1, 64, 1, 0},   {2, 128, 31, 0},  {2, 128, 32, 1}, {2, 128, 33, 2}, {5, 40, 100, 1},
                          {3, 6, 70, 3},   {2, 128, 3000, 0}, {2, 64, 257, 2}, {1, 18, 65, 0}};
    for_each_target([&](const std::string& t) {
        for (const Case& c : cases)
            for (float spread : {1.0f, 6.0f}) {
                CHECK(check_case<float>(t, c, spread, gen));
                CHECK(check_case<uint16_t>(t, c, spread, gen));
            }
    });
}

TEST_CASE(decode_attention_over_only_masked_keys_is_nan) {
    std::mt19937 gen(19);
    const int64_t g = 2, d = 64, n = 40;
    const std::vector<float> q = randn(size_t(g * d), gen), k = randn(size_t(n * d), gen), v = randn(size_t(n * d), gen);
    const std::vector<uint8_t> keep(size_t(n), 0);
    for_each_target([&](const std::string&) {
        std::vector<float> out(size_t(g * d), 0.0f);
        decode_attention_head(q.data(), g, d, KvRows<float>{k.data(), v.data(), d, d, n, keep.data()}, 0.125f, out.data());
        bool all_nan = true;
        for (float x : out) all_nan = all_nan && std::isnan(x);
        CHECK(all_nan);
    });
}
