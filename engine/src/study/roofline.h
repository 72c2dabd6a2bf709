// The decode roofline: every frame must read its weights and its KV rows, so warm frames/s can
// never beat what the memory system delivers for those bytes. reef-cli bench measures the
// machine's read bandwidth with a short probe and reports each arm's frames/s as a share of that
// limit.
//
// A frame reads the slow stack once and the fast stack once per codebook, back to back. The slow
// stack (hundreds of MB) streams from memory and evicts the caches; the fast stack's N passes
// over the same tens of MB can be served from the last-level cache after the first. Counting
// every byte at memory bandwidth (the "DRAM roofline") is then not a limit at all: a bf16 s1-mini
// frame beat it by up to 16 % on this machine's 300 MiB L3. So the probe times both: one pass over a
// buffer far larger than the caches, then N passes over a buffer the fast stack's size.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "reef/engine_types.h"
#include "text2semantic/model_config.h"
#include "text2semantic/model_weights.h"

namespace reef {

// GB/s (1e9 bytes), each the best of five timed rounds after one untimed one, on one device with
// the current intra-op thread count.
struct ReadBandwidth {
    double memory_gbps = 0;   // one pass over 512 MiB: what the slow stack gets
    double reread_gbps = 0;   // `passes` passes over `reread_bytes` right after the large pass: what
                              // the fast stack gets (never below memory_gbps: a floor for probes so
                              // small that the reduction's call overhead dominates)
};

// ~0.5 s on a CPU. reread_bytes: one fast-stack pass (at least 1 MiB is probed); passes: N.
ReadBandwidth measure_read_bandwidth(at::Device device, int64_t reread_bytes, int passes);

// The same probe for several fast-stack sizes at once: the arms of one bench read different ones
// (an int4 fast stack is a quarter of a bf16 one), and a smaller pass re-reads from the caches
// faster (this Xeon VM: ~1.4x at 29 MB against 109 MB), so each arm's roofline takes the re-read
// bandwidth of its own size. Each round: the large pass, then the sizes largest first, `passes`
// passes each (each smaller buffer starts where the larger one before it left the caches).
// -> reread_gbps[i] for reread_bytes[i], in the order given.
struct ReadBandwidths {
    double memory_gbps = 0;
    std::vector<double> reread_gbps;
    ReadBandwidth at(size_t i) const { return {memory_gbps, reread_gbps.at(i)}; }
};
ReadBandwidths measure_read_bandwidths(at::Device device, const std::vector<int64_t>& reread_bytes, int passes);

// One pass over a 512 MiB buffer (allocated once) -> GB/s: the bench's probe between frames
// (~15 ms on a CPU), where the full probe's rounds and re-read passes would take ~0.5 s.
class MemoryProbe {
public:
    explicit MemoryProbe(at::Device device);
    double gbps() const;

private:
    at::Tensor m_buffer;
};

// The most frames/s those bandwidths allow a frame that reads `once_bytes` once and `reread_bytes`
// `passes` times: 1 / (once / memory + passes * reread / reread bandwidth).
double roofline_frames_per_s(const ReadBandwidth& bw, int64_t once_bytes, int64_t reread_bytes, int passes);

// KV-cache bytes one decode frame reads: the slow stack over kv_len rows, the fast stack over
// its 1..N rows (ActivePrefix) or all N rows (Full). elem_size: bytes per cache element.
int64_t kv_bytes_per_frame(const DualArConfig& c, KvMode mode, int64_t kv_len, int64_t elem_size);

// The compute limit of batched decode (issue #45): GFLOP/s (2 per multiply-add) of the batched
// projection decode uses (nn/gemv.h project_rows, the current CPU kernels and thread count) for
// `batch` inputs against a cache-resident weight of `dtype`, best of five ~30 ms rounds. Once the
// weights are read once for several sequences, this and not the read bandwidth may bind a frame.
// 0 where the CPU kernels do not run (a GPU, a build without them, fp16). format: the weights in
// int8 or int4 as a quantized arm holds them (float: as `dtype`).
double measure_batched_gemv_gflops(at::Device device, at::ScalarType dtype, int64_t batch, WeightFormat format = {});

}  // namespace reef
