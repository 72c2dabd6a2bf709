#include "runtime/roofline.h"

#include <algorithm>
#include <chrono>

#include "check.h"

namespace reef {

double measure_read_bandwidth(at::Device device) {
    constexpr int64_t kBytes = int64_t(512) << 20;
    const at::Tensor buf = at::ones({kBytes / int64_t(sizeof(float))}, at::TensorOptions().dtype(at::kFloat).device(device));
    double best_s = 1e30;
    for (int i = 0; i < 6; ++i) {  // the first pass is an untimed warm-up
        const auto t0 = std::chrono::steady_clock::now();
        const double total = buf.sum().item<double>();  // reads every byte; item() waits for a GPU
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        REEF_CHECK(total > 0, "bandwidth probe: the buffer sum is wrong");
        if (i > 0) best_s = std::min(best_s, dt);
    }
    return double(kBytes) / best_s / 1e9;
}

int64_t kv_bytes_per_frame(const DualArConfig& c, KvMode mode, int64_t kv_len, int64_t elem_size) {
    REEF_CHECK(kv_len >= 0 && elem_size > 0, "kv_bytes_per_frame: bad sizes");
    const int64_t slow = 2 * c.n_layer * c.n_local_heads * c.head_dim * kv_len;
    const int64_t n = c.num_codebooks;
    const int64_t fast_rows = mode == KvMode::Full ? n * n : n * (n + 1) / 2;  // positions 0..N-1
    const int64_t fast = 2 * c.n_fast_layer * c.fast_n_local_heads * c.fast_head_dim * fast_rows;
    return (slow + fast) * elem_size;
}

}  // namespace reef
