// The decode roofline: every frame must read its weights and its KV rows from memory, so warm
// frames/s can never beat read bandwidth ÷ bytes per frame. reef-cli bench measures the machine's
// read bandwidth with a short probe and reports each arm's frames/s as a share of that limit.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>

#include "reef/engine_types.h"
#include "text2semantic/model_config.h"

namespace reef {

// Read bandwidth in GB/s (1e9 bytes): the best of a few timed reductions over a buffer far larger
// than the caches (512 MiB), on `device` with the current intra-op thread count. ~0.5 s.
double measure_read_bandwidth(at::Device device);

// KV-cache bytes one decode frame reads: the slow stack over kv_len rows, the fast stack over
// its 1..N rows (ActivePrefix) or all N rows (Full). elem_size: bytes per cache element.
int64_t kv_bytes_per_frame(const DualArConfig& c, KvMode mode, int64_t kv_len, int64_t elem_size);

}  // namespace reef
