// Which SIMD code Reef's CPU kernels run. One kernel source (Google Highway) is compiled for every
// target of the build's architecture and the best one this CPU has is chosen at run time; on x86 an
// AVX-512 BF16 CPU additionally gets the hand-written bf16 dot-product GEMV (gemv_avx512_bf16.cpp),
// and one with AMX the tile GEMV for bf16 weights (gemv_amx_bf16.cpp).
// REEF_CPU_TARGET=<name> forces a lower target for tests and benchmarks; reports name the target
// the kernels actually ran (ran_target), not the one asked for.
//
// Reef's names: "amx-bf16" (avx512-bf16 with AMX tiles for the bf16 GEMV rows, one input or a
// batch), "avx512-bf16" (AVX-512 + the bf16 dot GEMV), "avx512", "avx2", "sse4", "ssse3",
// "emu128" (portable C++, no SIMD) on x86; "sve2", "sve", "neon", ... on Arm: Highway's target
// names in lower case, AVX3 called avx512.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace reef::kernels {

// The targets this CPU can run, best first (REEF_CPU_TARGET does not change this list).
std::vector<std::string> runnable_targets();

// The target the next kernel call uses.
std::string current_target();

// Use `name` (one of runnable_targets(); "" or "best" for the best) from now on. Returns why it
// cannot ("" when done). Call it before kernel work starts, not while kernels run on other threads.
std::string force_target(const std::string& name);

// REEF_CPU_TARGET, applied once on first use of any function here (or of a kernel). Returns why
// the environment's choice could not be applied ("" when it was, or none was set); the kernels
// then run the best target, and the engine refuses to load a model with this message.
std::string env_target_error();

// The target the GEMV kernels last ran, "" if none ran since reset_ran_target() (e.g. every
// projection went to libtorch). Benchmarks read it after an arm.
std::string ran_target();
void reset_ran_target();

// For the kernels: REEF_CPU_TARGET applied before the first dispatch; record what ran; and whether
// the hand-written AVX-512 BF16 GEMV, or the AMX one, is selected. hand_written_target() is what a
// kernel that runs Highway's code under such a target records (kRanAmxBf16, kRanAvx512Bf16 or 0):
// a target is a set of kernels, and a report names the one that was chosen.
void ensure_target_chosen();
void note_ran(int64_t hwy_target);
constexpr int64_t kRanAvx512Bf16 = -1;
constexpr int64_t kRanAmxBf16 = -2;
bool use_avx512_bf16_gemv();
// An AMD x86 CPU: the kernels whose software prefetch was measured to help on Intel and to cost on
// AMD (gemv_int8_simd.cpp) leave it out there.
bool cpu_is_amd();
bool use_amx_bf16_gemv();
int64_t hand_written_target();

}  // namespace reef::kernels
