// The SDPA kernel bench (issue #15, fish-speech PR #1337's table for any machine): one decode
// attention call per backend at a model's real attention dimensions, for a list of key widths,
// with the two masks decode really uses. Plain types only (no torch), so the desktop app can call it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef {

// One transformer stack's attention as decode calls it.
struct AttentionDims {
    int64_t n_head = 0;       // query heads (Hq)
    int64_t n_kv_heads = 0;   // KV heads (Hkv), Hq % Hkv == 0
    int64_t head_dim = 0;     // D
    int64_t n_layer = 0;      // attention calls per decode step
};

// The dimensions the bench needs from a model: nothing else (no weights).
struct SdpaBenchModel {
    std::string name;           // "S2-Pro (preset s2-pro)", "config.json in /models/s2-pro"
    AttentionDims slow;         // the slow (text) transformer
    AttentionDims fast;         // the fast (codebook) decoder; n_layer 0 = leave it out
    int64_t max_seq_len = 0;    // the slow cache's full length (the `full` mask's capacity)
    int64_t num_codebooks = 0;  // fast decode positions per frame (its cache length)
};

// active: fish-speech #1312's active-prefix decode: k/v are the first W cache rows, no mask.
// full:   pre-#1312 full-cache decode: k/v are all max(W, max_seq_len) rows, a bool mask admits
//         the first W.
enum class SdpaBenchMask { Active, Full };
const char* to_string(SdpaBenchMask v);
std::optional<SdpaBenchMask> parse_sdpa_bench_mask(const std::string& s);

struct SdpaBenchRequest {
    // Exactly one source of dimensions: a model folder (reads only config.json), a preset
    // ("s1-mini", "s2-pro", "tiny"), or explicit dims (tests, the GUI).
    std::string model_dir;
    std::string preset;
    std::optional<SdpaBenchModel> model;

    DeviceKind device = DeviceKind::Cpu;
    int device_index = 0;                         // cuda:N
    Precision precision = Precision::Bf16;
    int cpu_threads = 0;                          // 0 = libtorch's default
    std::vector<int64_t> widths = {128, 512, 2048, 8192, 32768};
    std::vector<SdpaBenchMask> masks = {SdpaBenchMask::Active, SdpaBenchMask::Full};
    // Backends to force one at a time: Math, Flash, Efficient, Cudnn.
    std::vector<SdpaBackend> backends = {SdpaBackend::Math, SdpaBackend::Flash, SdpaBackend::Efficient,
                                         SdpaBackend::Cudnn};
    int iters = 10;                               // timed calls per cell (median reported)
    int warmup = 3;                               // untimed calls before them
    uint64_t seed = 1;                            // q/k/v ~ N(0, 1)
    bool include_fast = true;                     // also time the fast decoder's attention per frame
    // Tests: return q, k, v and every backend's output (only for configurations up to 1M elements).
    bool capture_tensors = false;
};

struct SdpaBenchCell {
    SdpaBackend requested = SdpaBackend::Math;
    bool ran = false;
    std::string reason;                // why it did not run: libtorch's own words, or the memory guard
    SdpaBackend observed = SdpaBackend::Unknown;  // the kernel op the dispatcher ran (RecordFunction)
    double ms_per_call = 0;            // median of the timed calls
    double ms_min = 0, ms_max = 0;
    double max_abs_diff_vs_math = -1;  // fp32 max |out - math out|; -1 = no math reference
    std::vector<float> output;         // capture_tensors: [Hq, D] fp32
};

struct SdpaBenchRow {
    SdpaBenchMask mask = SdpaBenchMask::Active;
    int64_t width = 0;                 // W: the keys the query attends to
    int64_t kv_rows = 0;               // rows handed to SDPA: W (active) or the cache capacity (full)
    int64_t estimated_bytes = 0;       // the memory guard's estimate for the worst backend
    std::string skipped;               // the memory guard's reason when nothing ran
    std::vector<SdpaBenchCell> cells;  // one per requested backend, in request order
    // capture_tensors: q [Hq, D]; k, v [Hkv, kv_rows, D], all fp32 (values as the device saw them)
    std::vector<float> q, k, v;
};

// The fast decoder's attention over one frame: num_codebooks positions × n_layer calls, each
// position p over p+1 keys (active) or over the num_codebooks-row cache with a mask (full).
struct SdpaBenchFastCell {
    SdpaBackend requested = SdpaBackend::Math;
    bool ran = false;
    std::string reason;
    SdpaBackend observed = SdpaBackend::Unknown;
    double ms_per_frame = 0;           // Σ over positions of the median call × n_layer
};
struct SdpaBenchFastRow {
    SdpaBenchMask mask = SdpaBenchMask::Active;
    std::vector<SdpaBenchFastCell> cells;
};

struct SdpaBenchReport {
    std::string reef_version, libtorch_version, precision, started_at;
    DeviceKind device = DeviceKind::Cpu;
    std::string device_name;                 // CPU model (/proc/cpuinfo) or GPU name
    int cpu_threads = 0;
    std::string load_before, load_after;     // /proc/loadavg around the run (others share the CPU)
    int iters = 0, warmup = 0;
    SdpaBenchModel model;
    std::vector<SdpaBackend> backends;
    std::vector<SdpaBenchRow> rows;          // widths × masks, widths outer
    std::vector<SdpaBenchFastRow> fast;      // one per mask; empty when the fast decoder is left out
};

// The dimensions of a model folder (config.json only) or a preset; InvalidArgument / ModelNotFound.
Result<SdpaBenchModel> sdpa_bench_model(const std::string& model_dir, const std::string& preset);

std::string sdpa_bench_markdown(const SdpaBenchReport& report);
std::string sdpa_bench_json(const SdpaBenchReport& report);   // schema "reef-sdpa-bench/1"
Status write_sdpa_bench_markdown(const SdpaBenchReport& report, const std::string& path);  // atomic
Status write_sdpa_bench_json(const SdpaBenchReport& report, const std::string& path);      // atomic

}  // namespace reef
