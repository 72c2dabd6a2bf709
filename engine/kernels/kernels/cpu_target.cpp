#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu_target.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
// The target HWY_DYNAMIC_DISPATCH picks now: the kernels' dispatch goes through the same table.
int64_t DispatchedTarget() { return HWY_TARGET; }
}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

namespace reef::kernels {
HWY_EXPORT(DispatchedTarget);

bool cpu_is_amd() {
#if defined(__x86_64__) && defined(__GNUC__)
    static const bool amd = [] {
        __builtin_cpu_init();
        return __builtin_cpu_is("amd") != 0;
    }();
    return amd;
#else
    return false;
#endif
}

namespace {

bool cpu_has_avx512_bf16() {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
#else
    return false;
#endif
}

// Highway's name in lower case, AVX3 (AVX-512 F/BW/DQ/VL) called avx512 as users know it.
std::string hwy_name(int64_t target) {
    std::string n = hwy::TargetName(target);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::replace(n.begin(), n.end(), '_', '-');
    if (n.rfind("avx3", 0) == 0) n = "avx512" + n.substr(4);
    return n;
}

struct State {
    std::vector<int64_t> targets;  // Highway targets this CPU runs and this build compiled, best first
    bool avx512_bf16 = false;      // the CPU has it (the hand-written GEMV can run)
    bool amx_bf16 = false;         // the CPU has AMX-BF16 and Linux granted the tile state
    std::atomic<bool> use_bf16_gemv{false};
    std::atomic<bool> use_amx_gemv{false};
    std::string env_error;
};

std::atomic<int64_t> g_ran{0};  // 0: nothing ran

std::string apply(State& s, const std::string& name);

State& state() {
    static State s;
    static std::once_flag once;
    std::call_once(once, [] {
        hwy::DisableTargets(0);
        const int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
        for (int64_t bit = 1; bit > 0 && bit <= supported; bit <<= 1)
            if (supported & bit) s.targets.push_back(bit);  // lower bits are better targets
        s.avx512_bf16 = cpu_has_avx512_bf16() && !s.targets.empty() && s.targets.front() <= HWY_AVX3;
        s.amx_bf16 = s.avx512_bf16 && amx_bf16_permitted();
        s.use_bf16_gemv = s.avx512_bf16;
        s.use_amx_gemv = s.amx_bf16;
        const char* env = std::getenv("REEF_CPU_TARGET");
        if (env && *env) {
            const std::string why = apply(s, env);
            if (!why.empty()) s.env_error = "REEF_CPU_TARGET=" + std::string(env) + ": " + why;
        }
    });
    return s;
}

std::vector<std::string> names(const State& s) {
    std::vector<std::string> out;
    if (s.amx_bf16) out.push_back("amx-bf16");
    if (s.avx512_bf16) out.push_back("avx512-bf16");
    for (int64_t t : s.targets) out.push_back(hwy_name(t));
    return out;
}

std::string apply(State& s, const std::string& name) {
    const std::vector<std::string> all = names(s);
    if (name.empty() || name == "best") {
        hwy::DisableTargets(0);
        s.use_bf16_gemv = s.avx512_bf16;
        s.use_amx_gemv = s.amx_bf16;
        return {};
    }
    if (std::find(all.begin(), all.end(), name) == all.end()) {
        std::string list;
        for (const std::string& n : all) list += (list.empty() ? "" : ", ") + n;
        return "this CPU cannot run \"" + name + "\" (it runs: " + list + ")";
    }
    // amx-bf16 is avx512-bf16 with the AMX rows for bf16 GEMV; both on Highway's best target
    const bool amx = name == "amx-bf16", bf16 = amx || name == "avx512-bf16";
    for (int64_t t : s.targets) {
        if (!bf16 && hwy_name(t) != name) continue;
        // Everything better than t off: DisableTargets takes the bits, and lower bits are better.
        hwy::DisableTargets(t - 1);
        s.use_bf16_gemv = bf16;
        s.use_amx_gemv = amx;
        if (HWY_DYNAMIC_DISPATCH(DispatchedTarget)() != t) {
            hwy::DisableTargets(0);
            s.use_bf16_gemv = s.avx512_bf16;
            s.use_amx_gemv = s.amx_bf16;
            return "Highway did not switch to \"" + name + "\"";
        }
        return {};
    }
    return "no such target in this build";
}

}  // namespace

std::vector<std::string> runnable_targets() { return names(state()); }

std::string current_target() {
    State& s = state();
    if (s.use_amx_gemv) return "amx-bf16";
    if (s.use_bf16_gemv) return "avx512-bf16";
    return hwy_name(HWY_DYNAMIC_DISPATCH(DispatchedTarget)());
}

std::string force_target(const std::string& name) { return apply(state(), name); }

std::string env_target_error() { return state().env_error; }

std::string ran_target() {
    const int64_t ran = g_ran.load(std::memory_order_relaxed);
    if (ran == 0) return {};
    if (ran == kRanAmxBf16) return "amx-bf16";
    return ran == kRanAvx512Bf16 ? "avx512-bf16" : hwy_name(ran);
}

void reset_ran_target() { g_ran.store(0, std::memory_order_relaxed); }

void note_ran(int64_t hwy_target) {
    if (g_ran.load(std::memory_order_relaxed) != hwy_target) g_ran.store(hwy_target, std::memory_order_relaxed);
}

void ensure_target_chosen() { state(); }

bool use_avx512_bf16_gemv() { return state().use_bf16_gemv.load(std::memory_order_relaxed); }

bool use_amx_bf16_gemv() { return state().use_amx_gemv.load(std::memory_order_relaxed); }

int64_t hand_written_target() {
    if (use_amx_bf16_gemv()) return kRanAmxBf16;
    return use_avx512_bf16_gemv() ? kRanAvx512Bf16 : 0;
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
