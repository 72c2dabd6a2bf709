// The sampler's random numbers on the CPU, drawn in bulk from the request's generator (issue #44:
// a sampled frame's speed). fish-speech's race draws U = rand_like(probs) over every vocab id: S2's
// main token draws 155,776 numbers twice a frame and each codebook 4,096, ~350,000 a frame, where
// CPUGeneratorImpl::random() cost an exported call per number (~4.5 ns, ~1.6 ms of a frame on the
// Zen 4 VM).
#pragma once
#include <ATen/CPUGeneratorImpl.h>

#include <cstdint>

namespace reef {

// n numbers as at::rand's CPU fp32 kernel draws them from `cpu` (one 32-bit mt19937 output each, its
// low 24 bits as k·2^-24), leaving the generator where n calls of cpu->random() leave it. The
// caller holds the generator's lock.
void uniform_into(at::CPUGeneratorImpl* cpu, int64_t n, float* out);

}  // namespace reef
