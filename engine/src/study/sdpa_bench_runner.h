// The SDPA bench's loop: model dims, validation, the memory guard, then every (width, mask,
// backend) cell and the fast decoder's per-frame attention. Throws ReefError; the facade wraps it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "reef/sdpa_bench.h"

namespace reef {

// The dims of exactly one of model_dir / preset / model; throws ReefError naming the problem.
SdpaBenchModel resolve_sdpa_bench_model(const SdpaBenchRequest& request);

// Bytes one width needs at its peak for `rows` cache rows (random draws in fp32, the cache, and
// MATH's fp32 copies of K/V plus its [Hq, L] scores, the largest of the backends' workspaces).
int64_t sdpa_bench_bytes(const AttentionDims& dims, int64_t rows, int64_t element_size);

SdpaBenchReport run_sdpa_bench(const SdpaBenchRequest& request, const std::function<void(const std::string&)>& progress,
                               const std::function<bool()>& should_abort);

}  // namespace reef
