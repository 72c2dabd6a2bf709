// Plain value types of the engine's public surface. No torch, no Qt (docs/architecture.md, rule 2).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace reef {

inline constexpr int kSampleRate = 44100;       // codec output rate
inline constexpr int kSamplesPerFrame = 2048;   // one code frame = 2048 samples = 46.44 ms
inline constexpr double kFramesPerSecond = double(kSampleRate) / kSamplesPerFrame;  // 21.533

// Mps: Apple GPUs, on macOS builds of libtorch only (refused elsewhere with the reason).
enum class DeviceKind { Cpu, Cuda, Mps };
enum class Precision { Fp32, Bf16, Fp16 };
enum class CompileMode { Eager, CudaGraph, AotInductor };
// fish-speech: MATH when compiled, automatic when eager (PR #1337's rule). Reef: Reef's own
// one-pass decode attention on the CPU for the decode call sites (nn/reef_attention.h), libtorch's
// automatic choice for every other call; eager only.
enum class SdpaPolicy { Auto, Math, Flash, Efficient, Cudnn, FishSpeech, Reef };
// ActivePrefix: attention over the filled cache prefix only (fish-speech #1312).
// Full: attention over the whole allocated cache with a mask, as fish-speech HEAD does.
enum class KvMode { ActivePrefix, Full };
// The attention call sites whose backend is reported.
enum class CallSite { SlowPrefill, SlowDecode, FastDecode, CodecWindow };
inline constexpr int kNumCallSites = 4;
// What at::_fused_sdp_choice / our own dispatch reports; Manual = explicit matmul+softmax;
// Reef = Reef's own CPU decode attention kernel (the "reef" policy).
enum class SdpaBackend { Unknown, Math, Flash, Efficient, Cudnn, Overrideable, Manual, Reef };
inline constexpr SdpaBackend kLastSdpaBackend = SdpaBackend::Reef;  // for loops over every backend

const char* to_string(DeviceKind v);
const char* to_string(Precision v);
const char* to_string(CompileMode v);
const char* to_string(SdpaPolicy v);
const char* to_string(KvMode v);
const char* to_string(CallSite v);
const char* to_string(SdpaBackend v);
// Parsers accept the names to_string prints (lower-case, e.g. "bf16", "cuda-graph", "fish-speech").
std::optional<DeviceKind> parse_device(const std::string& s);
std::optional<Precision> parse_precision(const std::string& s);
std::optional<CompileMode> parse_compile_mode(const std::string& s);
std::optional<SdpaPolicy> parse_sdpa_policy(const std::string& s);
std::optional<KvMode> parse_kv_mode(const std::string& s);

// One device: "cpu", "cuda:N" (plain "cuda" = cuda:0), "mps". The index matters for CUDA only.
struct DeviceSpec {
    DeviceKind kind = DeviceKind::Cpu;
    int index = 0;
};
std::optional<DeviceSpec> parse_device_spec(const std::string& s);
std::string to_string(const DeviceSpec& d);   // "cpu", "cuda:1", "mps"

struct EngineConfig {
    std::string model_dir;                     // S2-Pro / S1-mini / demo folder (README.md: model folders)
    DeviceKind device = DeviceKind::Cpu;
    int device_index = 0;                      // cuda:N
    Precision precision = Precision::Fp32;
    int cpu_threads = 0;                       // 0 = libtorch default
    // Eager CPU decode frames take fewer of those threads while that measures faster: another
    // program keeping a core busy stalls every parallel region of a frame (the thread governor,
    // docs/decode-performance.md "A busy desktop"). false = every frame uses cpu_threads.
    bool adaptive_threads = true;
    CompileMode compile_mode = CompileMode::Eager;
    SdpaPolicy sdpa_policy = SdpaPolicy::Auto;
    KvMode kv_mode = KvMode::ActivePrefix;
    int kv_margin = 64;                        // extra cache rows beyond prompt + max new frames
    bool load_codec = true;
    // Streaming audio (stream_chunk_frames > 0) decodes on the codec's own worker thread, while
    // generation goes on with the next frames (docs/decode-performance.md, "Codec worker").
    // false = each chunk decodes on the generation thread between frames. Unset (the default) =
    // chosen from the machine (codec_worker_enabled): on with a GPU or with a CPU core free beside
    // generation's threads; off where generation uses every core, since there the worker only
    // competes with it (2-core VM, s1-mini bf16: RTF 2.7 with it against 2.2 inline).
    std::optional<bool> codec_worker;
    int codec_threads = 0;             // the worker's libtorch intra-op threads; 0 = as many as generation's
    // Linux: the worker and its OpenMP team at SCHED_IDLE after the first chunk (which decodes at
    // normal priority, so audio starts early), so the codec only takes cycles generation leaves.
    bool codec_idle_priority = true;
};

// Why an engine config's compile mode, SDPA policy and device cannot run together (e.g. Reef's own
// attention kernel runs in eager decoding only), with what to pick instead; empty when they can.
// Engine::load refuses such a config before reading any weights; the settings panel disables the
// items that would make one, with the same reason.
struct ConfigConflict {
    std::string reason;
    std::string hint;
    explicit operator bool() const { return !reason.empty(); }
};
ConfigConflict config_conflict(CompileMode mode, SdpaPolicy policy, DeviceKind device);

// The SDPA policy a config gets when none is chosen (reef-cli without --sdpa, the studio before
// Settings → SDPA policy is set, and after a device or compile-mode change while it was unchanged):
// 'reef', Reef's own decode attention, for eager decoding on a CPU in a build with the CPU kernels
// (the AMX Xeon, bf16 s1-mini: batch 8 +14-17 %, batch 1 +9-18 % against libtorch's flash kernel,
// fp32 greedy codes identical; bench/results/cpu/batch-amx-reef-attention.md); 'auto' (libtorch's
// own choice) everywhere else. EngineConfig's own default stays 'auto'.
SdpaPolicy default_sdpa_policy(DeviceKind device, CompileMode mode);

struct SamplingParams {
    float temperature = 0.8f;   // 0 = greedy
    float top_p = 0.8f;
    int top_k = 30;             // 1 = greedy
    float repetition_penalty = 1.1f;  // S1-mini only (S2 uses RAS)
    int max_new_frames = 1024;  // 0 = up to the model's max_seq_len
    int chunk_length = 200;     // UTF-8 bytes per text batch (speaker-turn batching)
    uint64_t seed = 42;
    bool greedy() const { return temperature <= 0.0f || top_k == 1; }
};

// Codes of one utterance: n_codebooks rows of n_frames, row-major (row 0 = semantic codebook).
struct Codes {
    int n_codebooks = 0;
    int n_frames = 0;
    std::vector<int32_t> data;
    int32_t at(int row, int frame) const { return data[size_t(row) * n_frames + frame]; }
};

struct ReferenceVoice {
    std::string text;           // transcript of the clip
    std::string audio_path;     // encoded by the engine when codes are empty
    Codes codes;                // cached codes (10, T), if already encoded
};

struct SynthesisRequest {
    uint64_t id = 0;
    std::string text;
    std::vector<ReferenceVoice> references;
    SamplingParams sampling;
    bool decode_audio = true;
    int stream_chunk_frames = 16;   // audio chunk size for streaming decode; 0 = decode at the end
    int warmup_frames = 4;          // decode steps excluded from the warm frames/s median
    // false: no one listens to this request's audio while it is made (a line written to a file, a
    // studio batch). Where its chunks would decode on the generation thread between frames (no codec
    // worker), the audio is decoded in one piece after the last frame instead, as with
    // stream_chunk_frames = 0: chunk by chunk the codec costs more and slows the frames between
    // (a 16-line project in batches of 8 on 2 cores: 33.7 s against 41.6 s decoding the same chunks
    // after the frames, 35.5 s between them). The codes are the same; the samples are the whole
    // decode's, which differ from the streamed ones at the codec's rounding. With a codec worker the
    // chunks stream as ever: it overlaps them with generation.
    bool listened_live = true;
};

struct AudioChunk {
    uint64_t request_id = 0;
    int64_t first_sample = 0;   // offset in the utterance
    std::vector<float> samples; // mono, kSampleRate, within [-1, 1]
    bool last = false;
};

struct BackendUse {
    CallSite site = CallSite::SlowDecode;
    SdpaBackend backend = SdpaBackend::Unknown;
    int64_t calls = 0;
    std::string shape;          // e.g. "q[1,32,1,128] k[1,8,235,128] bf16"
    // Key rows the calls attended over, smallest and largest seen: with the active prefix the
    // slow decode's grow by one row per frame; with the full cache they stay at its capacity.
    int64_t kv_len_min = 0, kv_len_max = 0;
    // Compiled call sites (aot-inductor): the backend was fixed when the package was compiled and
    // is read from the package (the SDPA kernel shims its generated code calls), since compiled
    // code bypasses the dispatcher. false = observed at libtorch's dispatcher.
    bool compiled = false;
};

struct MemoryStats {
    int64_t cpu_rss_bytes = 0;
    int64_t cpu_peak_rss_bytes = 0;
    int64_t cuda_allocated_bytes = -1;   // -1 where there is no CUDA
    int64_t cuda_reserved_bytes = -1;
    int64_t cuda_peak_allocated_bytes = -1;
};

// One live sample for the charts, sent at most every few frames.
struct PerfSample {
    uint64_t request_id = 0;
    int frame = 0;
    double t_ms = 0;                // since the request started
    double step_ms = 0;             // last decode step
    double frames_per_s = 0;        // recent window
    MemoryStats memory;
    SdpaBackend backend[kNumCallSites] = {};
    // CPU decode: the threads the last frame ran with, of the most it may use (fewer while the
    // thread governor measures other programs crowding the cores); 0 where not known (a GPU, a server).
    int threads = 0;
    int max_threads = 0;
};

struct RunMetrics {
    double load_ms = 0;
    double prefill_ms = 0;
    double cold_first_frame_ms = 0;   // request start to first generated frame
    double time_to_first_audio_ms = 0;
    double decode_ms = 0;
    double codec_ms = 0;               // the codec's own time (on its worker: overlapping generation)
    // Request start to the last generated frame: includes the codec's chunks when they decode on
    // the generation thread (codec_worker off), so frames / this is the rate audio really got.
    double generation_ms = 0;
    // After the last frame, waiting for complete audio: the final chunk plus any backlog on the
    // codec worker, or the whole-utterance decode when not streaming.
    double codec_wait_ms = 0;
    double total_ms = 0;
    int prompt_tokens = 0;
    // Prompt tokens of a voice prefix (system message with the references) whose KV rows came from
    // an earlier request instead of being prefilled again.
    int prefix_tokens_reused = 0;
    int frames = 0;
    double warm_frames_per_s = 0;     // median over steps after warm-up
    double audio_seconds = 0;
    double real_time_factor = 0;      // generation time / audio duration
    MemoryStats memory;
    std::vector<double> step_ms;      // per decode step
    std::vector<int> step_threads;    // the CPU threads each decode step ran with (adaptive_threads)
    std::vector<BackendUse> backends; // which backend ran at each call site
    std::string stop_reason;          // "im_end", "max_new_frames", "cancelled"
    int batch = 1;                    // the most sequences it decoded together with (synthesize_batch), itself included
    // Compile mode aot-inductor: the export + Inductor compile of the package (measured when it was
    // built), whether this request found it in the cache instead of waiting for it, loading it, and
    // where it is. Never part of the request's own times above.
    double compile_s = 0;
    bool compile_cached = false;
    double package_load_ms = 0;
    std::string compiled_package;
};

// How the decode steps' thread counts went (RunMetrics::step_threads), most used first, e.g.
// "1 thread for 312 frames, 2 for 88"; empty when every step had the same count.
std::string describe_step_threads(const std::vector<int>& step_threads);

struct SynthesisResult {
    uint64_t request_id = 0;
    Codes codes;                      // all batches concatenated
    std::vector<float> audio;         // mono 44.1 kHz
    RunMetrics metrics;
};

// All but on_audio_chunk are called on the thread that called the engine. on_audio_chunk comes
// from the request's codec worker thread when audio streams with EngineConfig::codec_worker on:
// in order, never two at once, and never after the call returned (the worker is joined first).
struct Callbacks {
    std::function<void(uint64_t request_id, int frame, const std::vector<int32_t>& column)> on_frame;
    std::function<void(const AudioChunk&)> on_audio_chunk;
    std::function<void(const PerfSample&)> on_perf;
    std::function<bool()> should_abort;   // checked before each frame and streamed chunk (and while compiling)
    // One-line status of long preparations, e.g. "compiling the decode step: ... (41 s)".
    std::function<void(const std::string&)> on_status;
};

struct ModelInfo {
    std::string model_dir;
    std::string model_type;   // "fish_qwen3_omni" (S2) or "dual_ar" (S1)
    std::string name;         // e.g. "S2-Pro", "S1-mini", "demo tiny"
    bool is_demo = false;     // random weights: the audio is noise
    int64_t n_parameters = 0;
    int64_t codec_parameters = 0;
    // The folder the codec was read from where the model folder has none: the one fish-speech's
    // tools/llama/quantize.py copied it from (it leaves codec.pth out of its copy); "" otherwise.
    std::string codec_dir;
    int max_seq_len = 0;
    int num_codebooks = 0;
    DeviceKind device = DeviceKind::Cpu;
    Precision precision = Precision::Fp32;
    std::string weights;      // the projections' stored format when it is not `precision`: "int8"; "" otherwise
    int64_t weight_bytes = 0; // the text2semantic weights as held in memory
    int cpu_threads = 0;      // libtorch intra-op threads this load set (its request, or the default)
    // A server's own account of how it runs the model ("cpu · fp32 · eager · auto"); empty for this
    // computer's engine, and for a server that does not say (then nothing local stands in for it).
    std::string served_with;
};

// What this build and machine can run, with a reason for everything it cannot.
struct Capability {
    bool available = false;
    std::string reason;        // why not, when unavailable
    bool needs_setup = false;  // unavailable until a one-time set-up has run (aot-inductor: `reef-cli
                               // compile --setup`, Settings > Set up…), which the reason names
};
// One device this build could run on, as libtorch sees it.
struct DeviceInfo {
    std::string id;                 // "cpu", "cuda:0", "mps": what --device takes
    std::string name;               // CPU model or GPU name
    int64_t memory_bytes = -1;      // RAM or GPU memory in all; -1 = unknown
    bool available = false;
    std::string reason;             // why not, when unavailable
};
struct DeviceCaps {
    std::vector<DeviceInfo> device_list;             // every device, with cpu first
    bool cuda_compiled = false;
    bool cuda_available = false;
    int cuda_device_count = 0;
    std::string cuda_device_name;
    std::map<std::string, Capability> devices;       // "cpu", "cuda", "mps"
    std::map<std::string, Capability> precisions;    // per current device
    std::map<std::string, Capability> compile_modes;
    std::map<std::string, Capability> sdpa_policies;
    int cpu_cores = 0;               // CPU cores this process may use (affinity and cgroup quota)
    int default_cpu_threads = 0;     // libtorch's thread count on a fresh start: what "default" means
};

// What `reef-cli compile` / Engine::compile_decode_step made or found (compile mode aot-inductor).
struct CompiledPackageInfo {
    std::string package_dir;          // the cache entry: slow.pt2, fast.pt2, manifest.json
    double compile_s = 0;             // the compile that built it (now, or earlier when from_cache)
    bool from_cache = false;
    double load_ms = 0;               // libtorch loading both packages
    SdpaPolicy sdpa_policy = SdpaPolicy::Math;  // exported under (resolved: fish-speech -> math)
    KvMode kv_mode = KvMode::ActivePrefix;
    // Per compiled call site (slow-decode, fast-decode): the backend read from the package and why
    std::vector<std::pair<CallSite, SdpaBackend>> backends;
    std::vector<std::string> evidence;
};

struct VersionInfo {
    std::string reef;
    std::string libtorch;
    bool cuda_compiled = false;
    bool cuda_available = false;
    std::string cuda_version;
    std::string cudnn_version;
};

}  // namespace reef
