// The A/B bench (docs/bench-schema.md): every arm on the same prompt and seed, one report.
#pragma once
#include <string>
#include <vector>

#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef {

struct BenchArm {
    CompileMode compile_mode = CompileMode::Eager;
    SdpaPolicy sdpa_policy = SdpaPolicy::Auto;
    KvMode kv_mode = KvMode::ActivePrefix;
    bool libtorch_linear = false;  // ":linear": every projection through libtorch's linear, the CPU
                                   // GEMV kernels off for this arm (their A/B within one run)
    bool gemv_team = false;        // ":team": decode frames with the GEMV team (nn/gemv_team.h, opt-in:
                                   // libtorch's ops run on one thread inside it, slower at long contexts)
    bool decode_ops = false;       // ":ops": every decode block through ATen's ops, the fused CPU decode
                                   // block off for this arm (its A/B within one run)
    bool int8_weights = false;     // ":int8": the projections' weights quantized to int8 for this arm
                                   // (quantize.py's arithmetic, in memory, issue #44): int8 against
                                   // the loaded precision on the same weights within one run
    int int4_group = 0;            // ":int4" (group 128) or ":int4-g32|64|256": int4 weights (quantize.py
                                   // --mode int4's arithmetic, Reef's layout) for this arm; 0: not int4
    std::string cpu_target;        // "@avx2": the CPU kernels forced to this SIMD target for the arm
                                   // (targets compared within one run); "" = the process's target
    std::string name() const;   // "eager:math", "eager:auto:full", "eager:auto:linear", "eager:auto:int8@avx2", "eager:auto:int4"
};
// "eager:math", "cuda-graph:auto:full", "eager:auto:linear", "eager:auto@avx2" -> arm; error names
// the bad part. A target this CPU cannot run is the arm's error when the bench runs it.
Result<BenchArm> parse_bench_arm(const std::string& spec);
// "128, 512,2048" -> {128, 512, 2048}: the context sweep's prefix lengths; error names the bad item.
Result<std::vector<int>> parse_context_list(const std::string& list);
// "1,4,8" -> {1, 4, 8}: batch sizes from 1 to kMaxBatch; error names the bad item.
inline constexpr int kMaxBatch = 64;
Result<std::vector<int>> parse_batch_list(const std::string& list);

struct BenchRequest {
    std::string model_dir;
    DeviceKind device = DeviceKind::Cpu;
    int device_index = 0;             // cuda:N
    Precision precision = Precision::Fp32;
    int cpu_threads = 0;
    int kv_margin = 64;               // cache rows beyond prompt + frames; a large margin (e.g. 8000)
                                      // reproduces fish-speech's full-length preallocation for :full arms
    std::vector<BenchArm> arms;
    int reference_arm = 0;            // index into arms: the quality yardstick
    std::string text = "Reef measures which attention backend decodes fish-speech fastest.";
    uint64_t seed = 42;
    // 0: greedy decoding, so the arms compare token by token; > 0: sampled as a user's synthesis is
    // (this temperature, top-p 0.8, top-k 30, the seed): the sampler's time counts in the frames, and
    // arms agree in codes only while their logits do
    double temperature = 0;
    int frames = 64;                  // decode steps per repeat (im_end is suppressed)
    int warmup = 4;                   // steps excluded from the warm median
    int repeats = 3;
    int logit_steps = 16;             // K: steps compared for max |Δ logit|
    double logit_tolerance = 0;       // 0 = derived from precision (fp32 1e-3, bf16/fp16 0.25)
    bool decode_audio = true;
    bool profile = false;             // one more run per arm under libtorch's profiler (ArmResult::profile)
    bool frame_probes = false;        // a short bandwidth probe after every frame: % roofline per frame
    // Context sweep (#1337's "representative prefix lengths"): for each length, every arm decodes
    // `frames` frames after a real prompt of about that many tokens (the bench text extended with
    // filler sentences, then prefilled as usual), `sweep_repeats` times. Empty = no sweep.
    std::vector<int> contexts;
    int sweep_repeats = 2;
    // Batched decode (issue #27): for each size B, B different prompts (the bench text with a
    // different sentence after it each) decode `frames` greedy frames together through one batch,
    // `repeats` times, with the reference arm's settings (eager: a compiled step runs B = 1).
    // Empty = no batch table.
    std::vector<int> batch_sizes;
};

struct ArmQuality {
    bool logits_finite = true;
    double max_abs_logit_diff = 0;    // vs the reference arm, first logit_steps steps
    bool within_tolerance = true;
    int greedy_exact_prefix = 0;      // frames identical to the reference from the start
    double greedy_agreement = 1.0;    // fraction of equal main tokens
};

struct ArmResult {
    BenchArm arm;
    bool ran = false;
    std::string error;                // why it could not run (ineligible backend, mode unavailable)
    int prompt_tokens = 0;            // the prompt every repeat prefilled
    double cold_first_frame_ms = 0;   // first repeat, first frame (includes one-time costs)
    double prefill_ms = 0;            // median over repeats
    double warm_frames_per_s = 0;     // median over repeats of per-repeat medians
    double time_to_first_audio_ms = 0;
    double codec_ms = 0;
    double real_time_factor = 0;
    // Roofline: bytes one decode frame reads (weights + KV rows at the run's mean position), the
    // frames/s that the measured bandwidths allow for them (the fast stack's passes at the re-read
    // bandwidth, the rest at memory bandwidth), and warm frames/s ÷ that limit. The DRAM fraction
    // counts every byte at memory bandwidth: an upper bound on traffic that a frame whose fast
    // stack stays in cache can beat (> 1).
    // roofline_fraction pairs each repeat with the bandwidth probed just before and just after it
    // (the median over repeats of frames/s ÷ the roofline of those two probes' mean): a shared
    // machine's bandwidth switches between levels for seconds at a time, and a repeat is compared
    // with the level it ran at. roofline_frames_per_s is the limit at the median of all probes.
    int64_t bytes_per_frame = 0;
    double roofline_frames_per_s = 0;
    double roofline_fraction = 0;
    double dram_roofline_fraction = 0;
    std::vector<double> repeat_frames_per_s;        // warm frames/s of each repeat
    std::vector<double> repeat_roofline_fractions;  // each repeat's share of its own roofline
    // With frame_probes: every warm frame's share of the roofline of the probes right before and
    // after it (one 512 MiB pass each; the re-read bandwidth scaled by the repeat probes' median
    // re-read/read ratio), and their median, which is then the arm's roofline_fraction.
    std::vector<double> frame_roofline_fractions;
    MemoryStats memory;               // peak over the arm
    std::vector<BackendUse> backends;
    std::string cpu_kernels;          // SIMD target the decode GEMV ran (reef/cpu_kernels.h), "" = none: libtorch's linear
    std::string weights;              // the projections' weight format the arm decoded with: "int8", or the dtype's name
    int64_t fast_pass_bytes = 0;      // the fast stack's bytes per pass in this arm's weight format
    // The re-read bandwidth of a pass that size (median over the probes, and each probe's): the
    // roofline's fast-stack term. Equal to the report's for arms in the loaded weights' format.
    double reread_bandwidth_gbps = 0;
    std::vector<double> reread_bandwidth_probes;
    bool gemv_team = false;           // decode frames ran with the GEMV team (last repeat; what ran)
    double decode_blocks_per_frame = 0;  // fused CPU decode blocks per decode frame (last repeat; what ran)
    std::vector<double> step_ms;      // last repeat
    // Compiled arms (aot-inductor): the package's compile time (its own cold cost, in no other
    // figure), whether this bench found it in the cache, its load time and location.
    double compile_s = 0;
    bool compile_cached = false;
    double package_load_ms = 0;
    std::string package_dir;
    ArmQuality quality;
    std::vector<int32_t> greedy_tokens;   // main tokens of the greedy run
    std::vector<float> audio;         // decoded greedy codes, for the per-arm WAV
    std::string profile;              // with BenchRequest::profile: ops by self time (Markdown table)
};

// One arm at one prefix length of the context sweep.
struct SweepPoint {
    int arm = 0;                      // index into BenchReport::arms
    int context = 0;                  // the requested prefix length (tokens)
    int prompt_tokens = 0;            // the real prompt's length, as prefilled
    bool ran = false;
    std::string error;                // why not (longer than max_seq_len, backend refused, ...)
    double warm_frames_per_s = 0;     // median over repeats
    double step_ms = 0;               // median decode step after the warm-up steps
    double prefill_ms = 0;            // median over repeats
    MemoryStats memory;               // peak over the point's repeats
    std::vector<BackendUse> backends; // last repeat
};

// One batch size of the batch table (BenchRequest::batch_sizes).
struct BatchPoint {
    int batch = 0;                    // sequences decoding together
    bool ran = false;
    std::string error;                // why not (a compiled arm, memory, ...)
    std::string arm;                  // the settings it ran with (the reference arm's name)
    double aggregate_frames_per_s = 0;    // frames of all sequences per second of warm batch frames, median over repeats
    double per_sequence_frames_per_s = 0; // what each sequence sees: batch frames per second
    double step_ms = 0;               // median warm batch frame
    double speedup = 0;               // aggregate ÷ the B = 1 point's in this run (0 without one)
    double prefill_ms = 0;            // median prefill of one sequence (they prefill one by one)
    // Bytes one batch frame reads: the weights once, every sequence's KV rows; the bandwidth
    // roofline for those bytes in batch frames/s, and the measured batch frames/s as a share of it.
    int64_t bytes_per_frame = 0;
    double roofline_fraction = 0;
    // Multiply-adds per batch frame (weights read × B) and what they reached in GFLOP/s (2 per
    // multiply-add): once the weights are read once for several sequences, compute binds.
    double gflops = 0;
    // The compute limit: what the batched projection reaches on cache-resident weights at this B
    // (a probe in the same run, study/roofline.h), and gflops as a share of it. Whichever of
    // roofline_fraction and compute_fraction is larger names the bound that holds. 0 = no probe.
    double probe_gflops = 0;
    double compute_fraction = 0;
    MemoryStats memory;               // peak over the point's repeats
    std::string cpu_kernels;          // SIMD target the batched GEMV ran ("" = libtorch)
};

// The machine the bench ran on, for reports that leave it (hardware and driver versions).
struct HostInfo {
    std::string cpu_model;            // /proc/cpuinfo "model name"
    int cpu_cores = 0;                // logical CPUs online
    int64_t memory_bytes = 0;         // physical memory
    std::string os;                   // PRETTY_NAME of /etc/os-release
    std::string gpu_name;             // empty without CUDA
    std::string cuda_driver;          // e.g. "13.0" (driver API version), empty without CUDA
    std::string cuda_runtime, cudnn;  // versions libtorch reports, empty without CUDA
};

struct BenchReport {
    std::string reef_version, libtorch_version, device_name, model_name, model_dir;
    std::string precision;
    std::string started_at;           // ISO 8601
    int cpu_threads = 0;
    std::string cpu_kernels_best;     // the best SIMD target this CPU runs ("" without the kernels)
    std::string cpu_target_requested; // REEF_CPU_TARGET
    // Where a CPU model's weights live (docs/cpu-kernels.md, "Weight memory"): "huge" (huge pages
    // where the kernel grants them), "4k-dear" (4 KB pages: huge pages were found dear to fault in at
    // load), "4k" (REEF_HUGE_PAGES=0), "mapping" (REEF_WEIGHT_MEMORY=0: the file's pages); "" off the CPU.
    std::string weight_pages;
    BenchRequest request;
    double logit_tolerance = 0;
    double read_bandwidth_gbps = 0;   // the bench's probe (GB/s, 1e9 bytes) on the bench device: memory
    double reread_bandwidth_gbps = 0; // the same probe's fast_passes passes over fast_pass_bytes
    std::vector<double> read_bandwidth_probes;  // every probe's memory GB/s (before the repeats, after
                                                // each arm's repeat); the two figures above are medians
    std::vector<double> reread_bandwidth_probes;  // the same probes' re-read GB/s
    int64_t weight_bytes_per_frame = 0;  // weights one decode frame reads (head rows as sampled)
    int64_t fast_pass_bytes = 0;      // of which one fast-stack pass; a frame makes fast_passes of them
    int fast_passes = 0;              // num_codebooks
    std::vector<ArmResult> arms;
    std::vector<SweepPoint> sweep;    // arm-major, contexts in request order
    std::vector<BatchPoint> batch;    // batch sizes in request order
    HostInfo host;
};

}  // namespace reef
