#include "study/bench_runner.h"

#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>

#include "check.h"
#include "nn/gemv_team.h"
#include "text2semantic/decode_block.h"
#include "study/arm_model.h"
#include "study/bench_batch.h"
#include "study/bench_sweep.h"
#include "runtime/device.h"
#include "reef/cpu_kernels.h"
#include "study/host_info.h"
#include "study/op_profile.h"
#include "base/huge_page_advice.h"
#include "base/perf.h"
#include "base/weight_memory.h"
#include "study/roofline.h"
#include "runtime/synthesis.h"
#include "text2semantic/kv_cache.h"

namespace reef {
namespace {

std::string iso_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

void validate(const BenchRequest& r) {
    auto bad = [](const std::string& m) { throw ReefError(ErrorCode::InvalidArgument, "bench: " + m); };
    if (r.arms.empty()) bad("no arms");
    if (r.reference_arm < 0 || r.reference_arm >= int(r.arms.size())) bad("the reference arm is not one of the arms");
    if (r.frames < 1) bad("frames must be >= 1");
    if (r.repeats < 1) bad("repeats must be >= 1");
    if (r.warmup < 0 || r.warmup >= r.frames) bad("warmup must be in [0, frames)");
    if (r.logit_steps < 0) bad("logit_steps must be >= 0");
    if (!(r.temperature >= 0 && r.temperature <= 2)) bad("temperature must be in [0, 2]");
    if (!r.contexts.empty() && r.sweep_repeats < 1) bad("sweep_repeats must be >= 1");
    for (int c : r.contexts)
        if (c < 1) bad("context lengths must be >= 1 token, got " + std::to_string(c));
    for (int b : r.batch_sizes)
        if (b < 1 || b > kMaxBatch)
            bad("batch sizes must be from 1 to " + std::to_string(kMaxBatch) + ", got " + std::to_string(b));
}

// What one arm produced for the quality comparison: raw logits of the first frames and all codes.
struct ArmTrace {
    std::vector<at::Tensor> logits;
    std::vector<int32_t> main_tokens;
    Codes codes;
};

MemoryStats peak_of(const MemoryStats& a, const MemoryStats& b) {
    MemoryStats m = b;
    m.cpu_peak_rss_bytes = std::max(a.cpu_peak_rss_bytes, b.cpu_peak_rss_bytes);
    m.cuda_peak_allocated_bytes = std::max(a.cuda_peak_allocated_bytes, b.cuda_peak_allocated_bytes);
    return m;
}

// Output-head rows a decode frame multiplies by: the sampleable rows where generate restricts the
// head (S2 decoding), else the whole vocabulary.
int64_t sampled_head_rows(const Pipeline& p) {
    return p.caches.head_ids.defined() ? p.caches.head_ids.numel() : p.model->config().vocab_size;
}

}  // namespace

RunOptions run_options(const Pipeline& p, const BenchRequest& req, const BenchArm& arm) {
    RunOptions o;
    o.policy = arm.sdpa_policy;
    o.compile_mode = arm.compile_mode;
    o.kv_mode = arm.kv_mode;
    o.libtorch_linear = arm.libtorch_linear;
    o.gemv_team = arm.gemv_team;
    o.decode_ops = arm.decode_ops;
    o.cpu_target = arm.cpu_target;
    o.kv_margin = p.config.kv_margin;
    o.suppress_im_end = true;
    o.capture_logits_frames = req.logit_steps + 1;  // frame 0 = the prefill's logits
    return o;
}

SynthesisRequest greedy_request(const BenchRequest& req) {
    SynthesisRequest s;
    s.text = req.text;
    s.sampling.temperature = float(req.temperature);  // 0, greedy: the arms compare token by token
    s.sampling.seed = req.seed;
    s.sampling.max_new_frames = req.frames;
    s.sampling.chunk_length = 0;  // no length limit: the text is one batch
    s.decode_audio = false;
    s.warmup_frames = req.warmup;
    return s;
}

namespace {

// One timed repeat of one arm. The first repeat starts from empty caches, so the arm's cache
// allocation belongs to its own cold latency, and records the quality trace.
// A warm frame's time and the memory bandwidth probed right before and after it (mean, GB/s).
struct FrameSample {
    double ms = 0, memory_gbps = 0;
};

void run_repeat(Pipeline& p, const BenchRequest& req, int rep, ArmResult& a, ArmTrace& trace, std::vector<double>& fps,
                std::vector<double>& prefill, const Callbacks& cb, const MemoryProbe* frame_probe,
                std::vector<FrameSample>& frames) {
    if (rep == 0) p.caches = Text2SemanticCaches{};
    RunCapture cap;
    reset_cpu_kernels_ran();
    const int64_t team_steps = gemv_team_steps(), blocks = decode_blocks_run();
    Callbacks probing = cb;
    std::vector<double> after_frame;  // GB/s probed after each frame, the prefill's first
    if (frame_probe)
        probing.on_frame = [&, inner = cb.on_frame](uint64_t id, int frame, const std::vector<int32_t>& column) {
            if (inner) inner(id, frame, column);
            after_frame.push_back(frame_probe->gbps());  // outside the frame's own time (step_ms)
        };
    SynthesisResult res =
        run_synthesis(p, greedy_request(req), probing, run_options(p, req, a.arm), rep == 0 ? &cap : nullptr);
    const std::vector<double>& step_ms = res.metrics.step_ms;  // decode frames 1.., as warm_frames_per_s reads them
    if (frame_probe && after_frame.size() == step_ms.size() + 1)
        for (size_t k = size_t(std::max(req.warmup, 0)); k < step_ms.size(); ++k)
            frames.push_back({step_ms[k], (after_frame[k] + after_frame[k + 1]) / 2});
    if (rep == 0) {
        // KV rows read per frame: the prefix at the run's mean position, or the whole cache (full)
        const int64_t prompt = res.metrics.prompt_tokens, frames = req.frames;
        const int64_t kv_len = a.arm.kv_mode == KvMode::Full
                                   ? kv_capacity_for(prompt, frames, p.config.kv_margin, p.model->config().max_seq_len)
                                   : prompt + frames / 2;
        a.bytes_per_frame = p.model->decode_weight_bytes(sampled_head_rows(p)) +
                            kv_bytes_per_frame(p.model->config(), a.arm.kv_mode, kv_len,
                                               int64_t(c10::elementSize(p.model->dtype())));
        a.cold_first_frame_ms = res.metrics.cold_first_frame_ms;
        a.prompt_tokens = res.metrics.prompt_tokens;
        trace = {std::move(cap.logits), std::move(cap.main_tokens), res.codes};
        a.weights = p.model->quantized() ? p.model->weight_format().name() : std::string(c10::toString(p.model->dtype()));
        a.greedy_tokens = trace.main_tokens;
    }
    fps.push_back(res.metrics.warm_frames_per_s);
    prefill.push_back(res.metrics.prefill_ms);
    a.step_ms = res.metrics.step_ms;
    a.backends = res.metrics.backends;
    a.cpu_kernels = cpu_kernels_ran();
    a.gemv_team = gemv_team_steps() > team_steps;
    // frame 0 (the prefill's) and the decode frames 1.. that step_ms times
    a.decode_blocks_per_frame = double(decode_blocks_run() - blocks) / double(step_ms.size() + 1);
    if (!res.metrics.compiled_package.empty()) {
        a.compile_s = res.metrics.compile_s;
        if (rep == 0) a.compile_cached = res.metrics.compile_cached;
        a.package_dir = res.metrics.compiled_package;
        a.package_load_ms = std::max(a.package_load_ms, res.metrics.package_load_ms);
    }
    a.memory = peak_of(a.memory, res.metrics.memory);
}

// One more run with streaming decode: time to first audio, codec time, RTF and the arm's WAV.
void run_audio(Pipeline& p, const BenchRequest& req, ArmResult& a, const Callbacks& cb) {
    SynthesisRequest s = greedy_request(req);
    s.decode_audio = true;
    s.stream_chunk_frames = 16;
    SynthesisResult res = run_synthesis(p, s, cb, run_options(p, req, a.arm));
    a.time_to_first_audio_ms = res.metrics.time_to_first_audio_ms;
    a.codec_ms = res.metrics.codec_ms;
    a.real_time_factor = res.metrics.real_time_factor;
    a.audio = std::move(res.audio);
    a.memory = peak_of(a.memory, res.metrics.memory);
}

// One more greedy run under libtorch's profiler: where the arm's time goes, op by op.
void run_profile(Pipeline& p, const BenchRequest& req, ArmResult& a, const Callbacks& cb) {
    OpProfile profile;
    run_synthesis(p, greedy_request(req), cb, run_options(p, req, a.arm));
    a.profile = op_profile_markdown(profile.stop(), req.frames);
}

void compare(const ArmTrace& ref, const ArmTrace& t, int logit_steps, double tolerance, ArmQuality& q) {
    q.logits_finite = std::all_of(t.logits.begin(), t.logits.end(), [](const at::Tensor& l) { return at::isfinite(l).all().item<bool>(); });
    // Frames are identical inputs up to the first column (any codebook) that differs.
    const int n = std::min(ref.codes.n_frames, t.codes.n_frames);
    int prefix = 0;
    for (; prefix < n; ++prefix) {
        bool same = ref.main_tokens[size_t(prefix)] == t.main_tokens[size_t(prefix)];
        for (int r = 0; same && r < ref.codes.n_codebooks; ++r) same = ref.codes.at(r, prefix) == t.codes.at(r, prefix);
        if (!same) break;
    }
    q.greedy_exact_prefix = prefix;
    int equal = 0;
    const size_t m = std::min(ref.main_tokens.size(), t.main_tokens.size());
    for (size_t i = 0; i < m; ++i) equal += ref.main_tokens[i] == t.main_tokens[i];
    q.greedy_agreement = m ? double(equal) / double(m) : 0;
    // Logits of frame j depend on frames < j: compare while the inputs were identical.
    const int steps = std::min({int(ref.logits.size()), int(t.logits.size()), logit_steps + 1, prefix + 1});
    double worst = 0;
    for (int j = 0; j < steps; ++j) worst = std::max(worst, (ref.logits[size_t(j)] - t.logits[size_t(j)]).abs().max().item<double>());
    q.max_abs_logit_diff = worst;
    q.within_tolerance = q.logits_finite && worst <= tolerance;
}

}  // namespace

double default_logit_tolerance(Precision precision) {
    switch (precision) {
    case Precision::Fp32: return 1e-3;
    case Precision::Fp16: return 0.25;
    case Precision::Bf16: return 0.5;
    }
    return 1e-3;
}

BenchReport run_bench(Pipeline& p, const BenchRequest& req, const std::function<void(int, const std::string&)>& progress,
                      const std::function<bool()>& should_abort) {
    validate(req);
    BenchReport report;
    report.reef_version = REEF_VERSION;
    report.libtorch_version = TORCH_VERSION;
    const DeviceCaps caps = query_device_caps(req.device);
    report.device_name = req.device == DeviceKind::Cuda ? (caps.cuda_device_name.empty() ? "cuda" : caps.cuda_device_name) : "cpu";
    report.model_name = p.info.name;
    report.model_dir = p.info.model_dir;
    report.precision = to_string(req.precision);
    report.started_at = iso_now();
    report.cpu_threads = at::get_num_threads();
    const CpuKernelInfo kernels = cpu_kernel_info();
    report.cpu_kernels_best = kernels.runnable.empty() ? std::string() : kernels.runnable.front();
    report.cpu_target_requested = kernels.requested;
    if (req.device == DeviceKind::Cpu)
        report.weight_pages = !weight_memory_enabled()                            ? "mapping"
                              : huge_pages_setting() == HugePages::Never         ? "4k"
                              : huge_pages_setting() == HugePages::Always        ? "huge"
                              : huge_pages_found_dear()                          ? "4k-dear"
                                                                                 : "huge";
    report.request = req;
    report.logit_tolerance = req.logit_tolerance > 0 ? req.logit_tolerance : default_logit_tolerance(req.precision);
    report.host = query_host_info(req.device == DeviceKind::Cuda ? report.device_name : std::string());

    const size_t n = req.arms.size();
    std::vector<ArmTrace> traces(n);
    std::vector<std::vector<double>> fps(n), prefill(n);
    report.arms.resize(n);
    Callbacks cb;
    cb.should_abort = should_abort;
    int current_arm = 0;  // whose compile the status lines belong to
    if (progress) cb.on_status = [&](const std::string& s) { progress(current_arm, report.arms[size_t(current_arm)].arm.name() + ": " + s); };
    auto attempt = [&](size_t i, const std::function<void()>& fn) {
        ArmResult& a = report.arms[i];
        current_arm = int(i);
        try {
            fn();
        } catch (const ReefError& e) {
            if (e.error().code == ErrorCode::Cancelled) throw;
            a.error = e.error().message;
            if (progress) progress(int(i), a.arm.name() + " not run: " + a.error);
        }
    };
    for (size_t i = 0; i < n; ++i) report.arms[i].arm = req.arms[i];

    // Untimed warm-up: pages the weights in and lets the allocator settle, so the first arm is not
    // penalised for going first.
    try {
        BenchRequest w = req;
        w.frames = std::min(req.frames, 4);
        w.warmup = 0;
        run_synthesis(p, greedy_request(w), cb, run_options(p, w, BenchArm{}));
    } catch (const ReefError& e) {
        if (e.error().code == ErrorCode::Cancelled) throw;
    }
    const int64_t head_rows = sampled_head_rows(p);  // the same rows whichever weights an arm decodes with
    report.weight_bytes_per_frame = p.model->decode_weight_bytes(head_rows);
    report.fast_pass_bytes = p.model->fast_pass_bytes();
    report.fast_passes = int(p.model->config().num_codebooks);
    // The bandwidth probe runs before the repeats and again after each arm's repeat: a shared
    // machine's bandwidth drifts (this VM's switches between ~33 and ~55 GB/s for seconds at a
    // time), so each repeat is set against the probes on either side of it, the roofline of the
    // table uses the median of all probes, and the report gives their range.
    // Each arm's fast-stack pass in its own weight format (the quantized arms' weights are made
    // here, once, and kept for the run), and every probe measures the re-reads of each size: a
    // smaller pass re-reads faster, and an arm's roofline is the one of the bytes it reads.
    ArmModel::Spares quantized_models;  // the ":int8" and ":int4" arms' weights (ArmModel)
    std::vector<int64_t> pass_sizes{report.fast_pass_bytes};  // [0]: the loaded weights' pass
    std::vector<size_t> arm_size(n, 0);                      // arm -> its index in pass_sizes
    for (size_t i = 0; i < n; ++i) attempt(i, [&] {
        const ArmModel weights(p, quantized_models, report.arms[i].arm);
        const int64_t pass = report.arms[i].fast_pass_bytes = p.model->fast_pass_bytes();
        const auto at = std::find(pass_sizes.begin(), pass_sizes.end(), pass);
        arm_size[i] = size_t(at - pass_sizes.begin());
        if (at == pass_sizes.end()) pass_sizes.push_back(pass);
    });
    std::vector<ReadBandwidths> probes;
    auto probe = [&] { probes.push_back(measure_read_bandwidths(p.model->device(), pass_sizes, report.fast_passes)); };
    std::vector<std::vector<std::pair<ReadBandwidth, ReadBandwidth>>> around(n);  // per arm, per repeat, at its size
    std::vector<std::vector<FrameSample>> frames(n);
    const std::unique_ptr<MemoryProbe> frame_probe =
        req.frame_probes ? std::make_unique<MemoryProbe>(p.model->device()) : nullptr;
    probe();
    // Repeats interleave the arms (arm 1, 2, ..., then again) so slow drifts of the machine hit
    // every arm alike; each arm's figures are medians over its repeats.
    for (int rep = 0; rep < req.repeats; ++rep) {
        for (size_t i = 0; i < n; ++i) {
            ArmResult& a = report.arms[i];
            if (!a.error.empty()) continue;
            if (progress) progress(int(i), a.arm.name() + ": repeat " + std::to_string(rep + 1) + "/" + std::to_string(req.repeats));
            const size_t ran = fps[i].size();
            attempt(i, [&] {
                const ArmModel weights(p, quantized_models, a.arm);
                run_repeat(p, req, rep, a, traces[i], fps[i], prefill[i], cb, frame_probe.get(), frames[i]);
            });
            if (fps[i].size() == ran) continue;  // failed: the arm's error says why
            probe();
            around[i].emplace_back(probes[probes.size() - 2].at(arm_size[i]), probes.back().at(arm_size[i]));
        }
    }
    // the medians over all probes, the re-reads per size: bw_at(k) for pass_sizes[k]
    std::vector<double> memory;
    std::vector<std::vector<double>> reread_probes(pass_sizes.size());
    for (const ReadBandwidths& b : probes) {
        memory.push_back(b.memory_gbps);
        for (size_t k = 0; k < pass_sizes.size(); ++k) reread_probes[k].push_back(b.reread_gbps[k]);
    }
    const double memory_median = median(memory);
    auto bw_at = [&](size_t k) { return ReadBandwidth{memory_median, std::max(median(reread_probes[k]), memory_median)}; };
    const ReadBandwidth bw = bw_at(0);
    report.read_bandwidth_gbps = bw.memory_gbps;
    report.reread_bandwidth_gbps = bw.reread_gbps;
    report.read_bandwidth_probes = memory;
    report.reread_bandwidth_probes = reread_probes[0];
    for (size_t i = 0; i < n; ++i) {
        ArmResult& a = report.arms[i];
        if (!a.error.empty()) continue;
        if (req.decode_audio && p.codec) attempt(i, [&] {
            const ArmModel weights(p, quantized_models, a.arm);
            run_audio(p, req, a, cb);
        });
        if (req.profile && a.error.empty()) attempt(i, [&] {
            const ArmModel weights(p, quantized_models, a.arm);
            run_profile(p, req, a, cb);
        });
        if (!a.error.empty()) continue;
        a.ran = true;
        a.warm_frames_per_s = median(fps[i]);
        a.prefill_ms = median(prefill[i]);
        if (a.bytes_per_frame > 0 && bw.memory_gbps > 0) {
            // the fast stack's bytes in this arm's own weight format (quantized arms read fewer), at
            // the re-read bandwidth probed for that size
            const int64_t pass = a.fast_pass_bytes;
            const int64_t reread = report.fast_passes * pass;
            const ReadBandwidth arm_bw = bw_at(arm_size[i]);
            a.reread_bandwidth_gbps = arm_bw.reread_gbps;
            a.reread_bandwidth_probes = reread_probes[arm_size[i]];
            auto limit = [&](const ReadBandwidth& b) {
                return roofline_frames_per_s(b, a.bytes_per_frame - reread, pass, report.fast_passes);
            };
            a.roofline_frames_per_s = limit(arm_bw);
            a.repeat_frames_per_s = fps[i];
            for (size_t r = 0; r < around[i].size(); ++r) {
                const auto& [before, after] = around[i][r];
                ReadBandwidth mean;
                mean.memory_gbps = (before.memory_gbps + after.memory_gbps) / 2;
                mean.reread_gbps = std::max((before.reread_gbps + after.reread_gbps) / 2, mean.memory_gbps);
                a.repeat_roofline_fractions.push_back(fps[i][r] / limit(mean));
            }
            a.roofline_fraction = median(a.repeat_roofline_fractions);
            // per frame: the re-read bandwidth as the repeat probes' ratio to the read bandwidth
            const double ratio = arm_bw.reread_gbps / arm_bw.memory_gbps;
            for (const FrameSample& f : frames[i]) {
                ReadBandwidth at_frame;
                at_frame.memory_gbps = f.memory_gbps;
                at_frame.reread_gbps = f.memory_gbps * ratio;
                a.frame_roofline_fractions.push_back(1000.0 / f.ms / limit(at_frame));
            }
            if (!a.frame_roofline_fractions.empty()) a.roofline_fraction = median(a.frame_roofline_fractions);
            a.dram_roofline_fraction = a.warm_frames_per_s / roofline_frames_per_s(bw, a.bytes_per_frame, 0, 0);
        }
        if (progress) progress(int(i), a.arm.name() + ": " + std::to_string(a.warm_frames_per_s) + " warm frames/s");
    }
    const ArmResult& ref = report.arms[size_t(req.reference_arm)];
    for (size_t i = 0; i < report.arms.size(); ++i) {
        ArmResult& a = report.arms[i];
        if (!a.ran) continue;
        if (!ref.ran) {
            a.quality.within_tolerance = false;
            continue;
        }
        compare(traces[size_t(req.reference_arm)], traces[i], req.logit_steps, report.logit_tolerance, a.quality);
    }
    if (!req.contexts.empty()) run_context_sweep(p, req, report, quantized_models, progress, cb);
    if (!req.batch_sizes.empty())
        run_batch_table(p, req, report, bw, head_rows, quantized_models, progress, should_abort);
    return report;
}

}  // namespace reef
