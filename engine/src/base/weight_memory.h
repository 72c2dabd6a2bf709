// Where the CPU keeps the weights decode streams. A decode frame reads every weight once, so the
// GEMV runs at the speed memory delivers them, and two properties of the memory decide that:
// - alignment: a safetensors file stores tensors at any 8-byte offset (data at 48 mod 64 in ours
//   and in Python's writer, whose header is padded to 8), so read in place every 512-bit load
//   spans two cache lines and every other 256-bit one does;
// - page size: streaming 1-2 GB per frame through 4 KB pages takes a TLB miss every 4 KB, and
//   transparent huge pages (2 MB) take one per 512 of those.
// Measured on a Zen 5 EPYC (gemv rows over 240 MB of s1-mini-shaped matrices, 2 threads): bf16 at
// offset 48 in 4 KB pages 32-39 GB/s, 64-byte aligned 34-36, aligned in huge pages 41-42; fp32
// 30-31 / 40-41 / 55 (docs/cpu-kernels.md).
// The price: the weights are this process's own memory, where a file mapping's pages could be
// shared with another process reading the same model (REEF_WEIGHT_MEMORY=0 keeps that).
#pragma once
#include <ATen/ATen.h>

#include <cstddef>

namespace reef {

// CPU tensors of at least this many bytes get weight memory; smaller ones (norms, biases) stay
// where they are: they are read once per frame in one go and would waste most of a huge page.
inline constexpr size_t kWeightMemoryMinBytes = size_t(1) << 20;

// `t` (contiguous) copied into memory of its own: its start 2 MB aligned (so 64-byte aligned, and
// its rows too when a row is a multiple of 64 bytes) and advised for transparent huge pages
// (MADV_HUGEPAGE: the kernel backs whole 2 MB pieces with huge pages where its settings allow,
// 4 KB pages otherwise). Returns `t` itself when it is not on the CPU, smaller than
// kWeightMemoryMinBytes, already in weight memory, or REEF_WEIGHT_MEMORY=0 (A/B runs).
at::Tensor to_weight_memory(const at::Tensor& t);

// The same for `t` converted to `dtype` (`t.to(dtype)` written straight into weight memory, with no
// intermediate tensor: a freed multi-megabyte temporary would stay in the heap and raise the
// peak resident memory of a load by hundreds of MB).
at::Tensor to_weight_memory(const at::Tensor& t, at::ScalarType dtype);

// An uninitialised CPU tensor in weight memory (at::empty where weight memory does not apply), for
// weights built from parts (w1|w3, wq|wk|wv) in place.
at::Tensor empty_weight_memory(at::IntArrayRef sizes, at::ScalarType dtype);

// `bytes` at `src` as a tensor of `sizes` and `dtype` in weight memory (the safetensors reader
// copies from its mapping with this). Requires bytes == numel · element size.
at::Tensor weight_memory_from(const void* src, size_t bytes, at::IntArrayRef sizes, at::ScalarType dtype);

// A zeroed tensor for a KV cache: on the CPU in the same memory as the weights, since decode
// attention streams a layer's cache every step as the GEMV streams the weights (the same TLB
// misses, and hardware prefetchers stop at every 4 KB page boundary); at::zeros on other devices,
// below kWeightMemoryMinBytes, with REEF_WEIGHT_MEMORY=0 or REEF_KV_MEMORY=0 (A/B runs).
at::Tensor kv_cache_zeros(at::IntArrayRef sizes, const at::TensorOptions& options);

// The tensor's storage was made by to_weight_memory / weight_memory_from.
bool in_weight_memory(const at::Tensor& t);

// REEF_WEIGHT_MEMORY is not "0" and the build can map memory (Linux, macOS).
bool weight_memory_enabled();

}  // namespace reef
