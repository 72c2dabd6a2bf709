#include "study/roofline.h"

#include <algorithm>
#include <chrono>

#include <c10/core/InferenceMode.h>

#include "check.h"
#include "base/weight_memory.h"
#include "nn/gemv.h"
#include "nn/linear.h"
#include "text2semantic/dual_ar_model.h"

namespace reef {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A probe buffer of `bytes`, all ones. On the CPU it lies in memory like the weights'
// (base/weight_memory.h: 2 MB aligned, huge pages where granted), so the bandwidth measured is the one
// the weights can be read at: a buffer in 4 KB pages read slower than the GEMV read its huge-page
// weights, and frames ran at up to 110 % of that "limit" (Zen 5 VM, fp32).
at::Tensor probe_buffer(int64_t bytes, const at::TensorOptions& opts) {
    const int64_t n = bytes / int64_t(sizeof(float));
    if (!opts.device().is_cpu()) return at::ones({n}, opts);
    return empty_weight_memory({n}, at::kFloat).fill_(1);
}

}  // namespace

ReadBandwidths measure_read_bandwidths(at::Device device, const std::vector<int64_t>& reread_bytes, int passes) {
    REEF_CHECK(passes >= 0 && std::all_of(reread_bytes.begin(), reread_bytes.end(), [](int64_t b) { return b >= 0; }),
               "bandwidth probe: bad sizes");
    constexpr int64_t kLarge = int64_t(512) << 20;
    const auto opts = at::TensorOptions().dtype(at::kFloat).device(device);
    const at::Tensor large = probe_buffer(kLarge, opts);
    // Below ~1 MiB a sum times its own launch, not the memory it reads.
    std::vector<size_t> order(reread_bytes.size());  // largest first
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return reread_bytes[a] > reread_bytes[b]; });
    std::vector<int64_t> small_bytes(reread_bytes.size());
    std::vector<at::Tensor> small(reread_bytes.size());
    for (size_t i = 0; i < small.size(); ++i) {
        small_bytes[i] = std::clamp<int64_t>(reread_bytes[i], int64_t(1) << 20, kLarge);
        small[i] = probe_buffer(small_bytes[i], opts);
    }
    double best_large = 1e30;
    std::vector<double> best_small(small.size(), 1e30);
    for (int round = 0; round < 6; ++round) {  // the first round is an untimed warm-up
        // One frame's pattern: the large pass streams from memory and leaves the caches holding
        // only its tail, then the fast stack's passes follow. item() waits for a GPU.
        auto t0 = std::chrono::steady_clock::now();
        REEF_CHECK(large.sum().item<double>() > 0, "bandwidth probe: the buffer sum is wrong");
        const double dt_large = seconds_since(t0);
        if (round > 0) best_large = std::min(best_large, dt_large);
        for (size_t i : order) {
            t0 = std::chrono::steady_clock::now();
            at::Tensor total = at::zeros({}, opts);
            for (int p = 0; p < passes; ++p) total.add_(small[i].sum());
            REEF_CHECK(passes == 0 || total.item<double>() > 0, "bandwidth probe: the buffer sum is wrong");
            if (round > 0) best_small[i] = std::min(best_small[i], seconds_since(t0));
        }
    }
    ReadBandwidths bw;
    bw.memory_gbps = double(kLarge) / best_large / 1e9;
    for (size_t i = 0; i < small.size(); ++i)
        bw.reread_gbps.push_back(passes > 0 ? std::max(bw.memory_gbps, double(passes) * double(small_bytes[i]) / best_small[i] / 1e9)
                                            : bw.memory_gbps);
    return bw;
}

ReadBandwidth measure_read_bandwidth(at::Device device, int64_t reread_bytes, int passes) {
    return measure_read_bandwidths(device, {reread_bytes}, passes).at(0);
}

MemoryProbe::MemoryProbe(at::Device device)
    : m_buffer(probe_buffer(int64_t(512) << 20, at::TensorOptions().dtype(at::kFloat).device(device))) {}

double MemoryProbe::gbps() const {
    const auto t0 = std::chrono::steady_clock::now();
    REEF_CHECK(m_buffer.sum().item<double>() > 0, "bandwidth probe: the buffer sum is wrong");
    return double(m_buffer.nbytes()) / seconds_since(t0) / 1e9;
}

double roofline_frames_per_s(const ReadBandwidth& bw, int64_t once_bytes, int64_t reread_bytes, int passes) {
    if (bw.memory_gbps <= 0 || bw.reread_gbps <= 0 || once_bytes < 0 || reread_bytes < 0 || passes < 0) return 0;
    const double seconds = double(once_bytes) / (bw.memory_gbps * 1e9) +
                           double(passes) * double(reread_bytes) / (bw.reread_gbps * 1e9);
    return seconds > 0 ? 1.0 / seconds : 0;
}

int64_t kv_bytes_per_frame(const DualArConfig& c, KvMode mode, int64_t kv_len, int64_t elem_size) {
    REEF_CHECK(kv_len >= 0 && elem_size > 0, "kv_bytes_per_frame: bad sizes");
    const int64_t slow = 2 * c.n_layer * c.n_local_heads * c.head_dim * kv_len;
    const int64_t n = c.num_codebooks;
    const int64_t fast_rows = mode == KvMode::Full ? n * n : n * (n + 1) / 2;  // positions 0..N-1
    const int64_t fast = 2 * c.n_fast_layer * c.fast_n_local_heads * c.fast_head_dim * fast_rows;
    return (slow + fast) * elem_size;
}

double measure_batched_gemv_gflops(at::Device device, at::ScalarType dtype, int64_t batch, WeightFormat format) {
    if (!device.is_cpu() || !gemv_supported(dtype) || batch < 1) return 0;
    c10::InferenceMode guard;
    // [1024, 1024]: 2 MiB of bf16 (less quantized) shared by the threads, in their L2 caches after
    // the first call, and as wide as the s1-mini projections' rows
    constexpr int64_t kRows = 1024, kCols = 1024;
    const auto opts = at::TensorOptions().dtype(dtype);
    Linear w{at::randn({kRows, kCols}, opts.dtype(at::kFloat)).mul_(0.02).to(dtype).contiguous(), {}, {}, {}};
    if (format.bits) w = quantized_linear(w, format);  // the arm's own format through its own kernels
    const at::Tensor x = at::randn({batch, 1, kCols}, opts.dtype(at::kFloat)).to(dtype).contiguous();
    for (int i = 0; i < 8; ++i) project_rows(x, w);  // warm: caches, threads
    double best = 0;
    for (int round = 0; round < 5; ++round) {
        int calls = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double s = 0;
        while ((s = seconds_since(t0)) < 0.03 || calls < 4) {
            project_rows(x, w);
            ++calls;
        }
        best = std::max(best, 2.0 * double(kRows * kCols * batch) * calls / s / 1e9);
    }
    return best;
}

}  // namespace reef
