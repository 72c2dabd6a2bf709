// The decode roofline: the two-level limit (bytes read once at memory bandwidth, the fast stack's
// passes at the re-read bandwidth), the KV bytes a frame reads, and the probe's sanity.
#include <cmath>

#include "check.h"
#include "study/roofline.h"
#include "text2semantic/model_config.h"

using namespace reef;

TEST_CASE(roofline_adds_the_time_of_each_part) {
    const ReadBandwidth bw{20.0, 50.0};
    // 1 GB once at 20 GB/s = 50 ms; 10 passes of 0.1 GB at 50 GB/s = 20 ms; 70 ms a frame
    CHECK_NEAR(roofline_frames_per_s(bw, 1'000'000'000, 100'000'000, 10), 1000.0 / 70.0, 1e-9);
    // no re-read part: bandwidth / bytes, the single-level roofline
    CHECK_NEAR(roofline_frames_per_s(bw, 2'000'000'000, 0, 0), 10.0, 1e-9);
    CHECK_NEAR(roofline_frames_per_s(bw, 0, 500'000'000, 4), 25.0, 1e-9);
    // re-reads as fast as memory: the same as counting every byte once
    const ReadBandwidth flat{20.0, 20.0};
    CHECK_NEAR(roofline_frames_per_s(flat, 1'000'000'000, 100'000'000, 10), 10.0, 1e-9);
    // nothing measured, nothing claimed
    CHECK_EQ(roofline_frames_per_s(ReadBandwidth{}, 1000, 10, 2), 0.0);
}

TEST_CASE(kv_bytes_count_the_rows_each_stack_attends) {
    DualArConfig c;
    c.n_layer = 3, c.n_local_heads = 2, c.head_dim = 8, c.num_codebooks = 4;
    c.n_fast_layer = 2, c.fast_n_local_heads = 1, c.fast_head_dim = 4;
    // slow: K and V, 3 layers, 2 heads, 8 dims, 10 rows; fast: positions 0..3 attend 1+2+3+4 rows
    // (active) or 4 rows each (full)
    CHECK_EQ(kv_bytes_per_frame(c, KvMode::ActivePrefix, 10, 2), (2 * 3 * 2 * 8 * 10 + 2 * 2 * 1 * 4 * 10) * 2);
    CHECK_EQ(kv_bytes_per_frame(c, KvMode::Full, 10, 4), (2 * 3 * 2 * 8 * 10 + 2 * 2 * 1 * 4 * 16) * 4);
}

TEST_CASE(probe_measures_plausible_bandwidths) {
    const ReadBandwidth bw = measure_read_bandwidth(at::kCPU, 8 << 20, 4);
    // Any machine this runs on reads between 100 MB/s and 10 TB/s; the re-read figure is floored
    // at the memory figure (a probe dominated by call overhead must not lower the roofline).
    CHECK(bw.memory_gbps > 0.1 && bw.memory_gbps < 10000);
    CHECK(std::isfinite(bw.reread_gbps) && bw.reread_gbps >= bw.memory_gbps);
    const ReadBandwidth none = measure_read_bandwidth(at::kCPU, 0, 0);
    CHECK_EQ(none.reread_gbps, none.memory_gbps);
}

TEST_MAIN()
