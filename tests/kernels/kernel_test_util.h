// What the kernel tests share (tst_simd_kernels and its other sources): random rows, bf16
// rounding of them, element values, and a loop over every target this CPU runs.
#pragma once
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "kernels/bf16.h"
#include "kernels/cpu_target.h"

namespace reef_test {

inline std::vector<float> randn(size_t n, std::mt19937& g) {
    std::normal_distribution<float> dist;
    std::vector<float> v(n);
    for (float& x : v) x = dist(g);
    return v;
}
inline std::vector<uint16_t> to_bf16(const std::vector<float>& v) {
    std::vector<uint16_t> o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = reef::kernels::float_to_bf16(v[i]);
    return o;
}
// An element's value: fp32 as is, bf16 bits widened.
inline double val(float v) { return v; }
inline double val(uint16_t v) { return reef::kernels::bf16_to_float(v); }

// Runs fn once per runnable target, forced; restores the best target afterwards.
template <typename Fn>
void for_each_target(Fn&& fn) {
    using namespace reef::kernels;
    for (const std::string& t : runnable_targets()) {
        const std::string why = force_target(t);
        CHECK(why.empty());
        if (!why.empty()) std::fprintf(stderr, "%s\n", why.c_str());
        CHECK(current_target() == t);
        fn(t);
    }
    CHECK(force_target("best").empty());
}

}  // namespace reef_test
