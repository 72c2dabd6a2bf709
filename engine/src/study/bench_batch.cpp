#include "study/bench_batch.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <vector>

#include "check.h"
#include "memory_check.h"
#include "nn/gemv.h"
#include "nn/gemv_team.h"
#include "text2semantic/decode_block.h"
#include "runtime/cpu_target_scope.h"
#include "nn/sdpa_policy.h"
#include "reef/cpu_kernels.h"
#include "runtime/device.h"
#include "base/perf.h"
#include "runtime/synthesis.h"
#include "study/bench_runner.h"
#include "text2semantic/batch_generator.h"

namespace reef {
namespace {

// Sentences that follow the bench text, one per member (combined past the fifth), so every
// member has a prompt of its own length.
constexpr const char* kSentences[] = {
    "The first light reached the harbour before the boats went out.",
    "A gull circled twice above the pier and settled on a post.",
    "Nobody in the village remembered a calmer morning than this one.",
    "The keeper of the lighthouse counted the boats, as he always did.",
    "At low tide the coral rose close to the surface and the water turned blue.",
};
constexpr int kNumSentences = int(sizeof kSentences / sizeof kSentences[0]);

// The arm the table runs with: the reference arm when eager, else the first eager arm; -1 = none.
int batch_arm(const BenchReport& report, int reference) {
    auto eager = [&](int i) { return report.arms[size_t(i)].arm.compile_mode == CompileMode::Eager; };
    if (reference >= 0 && reference < int(report.arms.size()) && eager(reference)) return reference;
    for (int i = 0; i < int(report.arms.size()); ++i)
        if (eager(i)) return i;
    return -1;
}

struct BatchRun {
    std::vector<double> warm_ms;  // batch frames after the warm-up
    std::vector<double> prefill_ms;
    int64_t kv_bytes = 0;         // KV rows one batch frame reads, at the run's mean positions
};

BatchRun run_once(Pipeline& p, const BenchRequest& req, const BenchArm& arm, const std::vector<at::Tensor>& prompts,
                  const std::function<bool()>& should_abort) {
    const RunOptions o = run_options(p, req, arm);
    const GemvPause linear(o.libtorch_linear);
    const GemvTeamOn team(o.gemv_team);
    const DecodeBlockOps ops(o.decode_ops);
    const CpuTargetScope target(o.cpu_target);
    check_sdpa_policy(o.policy, o.compile_mode, p.config.device);
    SdpaPolicyGuard sdpa(o.policy, o.compile_mode);
    c10::InferenceMode inference;
    GenerateOptions g = generate_options(p, greedy_request(req), o);
    g.should_abort = should_abort;
    std::vector<BatchItem> items;
    for (size_t i = 0; i < prompts.size(); ++i) {
        BatchItem it;
        it.id = int64_t(i);
        it.prompt = prompts[i];
        it.opts = g;
        it.seed = req.seed;
        items.push_back(std::move(it));
    }
    require_batch_memory(*p.model, items, int(items.size()));
    BatchGenerator batch(*p.model, p.ids, int(items.size()), o.kv_mode);
    for (auto& it : items) batch.add(std::move(it));
    batch.run();
    BatchRun run;
    const auto& c = p.model->config();
    const int64_t elem = int64_t(c10::elementSize(p.model->dtype()));
    for (const BatchItemResult& r : batch.take_finished()) {
        if (r.stats.stop_reason == "cancelled") throw ReefError(ErrorCode::Cancelled, "the bench was cancelled");
        run.prefill_ms.push_back(r.stats.prefill_ms);
        const int64_t kv_len = o.kv_mode == KvMode::Full ? r.stats.kv_capacity : r.stats.prompt_tokens + req.frames / 2;
        run.kv_bytes += kv_bytes_per_frame(c, o.kv_mode, kv_len, elem);
    }
    const auto& frames = batch.frames();
    const size_t skip = std::min(frames.size() > 0 ? frames.size() - 1 : 0, size_t(std::max(req.warmup, 0)));
    for (size_t i = skip; i < frames.size(); ++i) run.warm_ms.push_back(frames[i].ms);
    return run;
}

}  // namespace

std::string batch_member_text(const std::string& base, int i) {
    std::string t = base + " " + kSentences[i % kNumSentences];
    if (i >= kNumSentences) t += std::string(" ") + kSentences[(i / kNumSentences) % kNumSentences];
    return t;
}

void run_batch_table(Pipeline& p, const BenchRequest& req, BenchReport& report, const ReadBandwidth& bw,
                     int64_t head_rows, ArmModel::Spares& spares,
                     const std::function<void(int, const std::string&)>& progress,
                     const std::function<bool()>& should_abort) {
    const int arm_index = batch_arm(report, req.reference_arm);
    for (int b : req.batch_sizes) {
        BatchPoint pt;
        pt.batch = b;
        if (arm_index < 0) {
            pt.error = "batched decode runs eager decode frames, and every arm is compiled (a compiled step decodes "
                       "one sequence: B = 1)";
        } else {
            pt.arm = report.arms[size_t(arm_index)].arm.name();
        }
        report.batch.push_back(pt);
    }
    if (arm_index < 0) return;
    const ArmResult& ran = report.arms[size_t(arm_index)];
    const BenchArm arm = ran.arm;
    const ArmModel weights(p, spares, arm);  // a ":int8" / ":int4" arm batches its quantized weights
    const int64_t weight_bytes = p.model->decode_weight_bytes(head_rows);
    const int64_t pass = p.model->fast_pass_bytes(), reread = int64_t(report.fast_passes) * pass;
    // the re-reads of this arm's fast stack as its repeats probed them (a quantized one is smaller)
    ReadBandwidth arm_bw = bw;
    if (ran.reread_bandwidth_gbps > 0) arm_bw.reread_gbps = ran.reread_bandwidth_gbps;
    // Multiply-adds per sequence and frame: the projections', whatever format holds them.
    const double macs_per_sequence = double(p.model->decode_multiply_adds(head_rows));
    for (BatchPoint& pt : report.batch) {
        if (!pt.error.empty()) continue;
        const int b = pt.batch;
        std::vector<double> agg, per_seq, step, prefill;
        BatchRun last;
        try {
            std::vector<at::Tensor> prompts;
            for (int i = 0; i < b; ++i) {
                SynthesisRequest s = greedy_request(req);
                s.text = batch_member_text(req.text, i);
                prompts.push_back(first_prompt(p, s));
            }
            reset_peak_memory(p.config.device);
            reset_cpu_kernels_ran();
            for (int rep = 0; rep < req.repeats; ++rep) {
                if (progress)
                    progress(arm_index, "batch " + std::to_string(b) + ": repeat " + std::to_string(rep + 1) + "/" +
                                            std::to_string(req.repeats));
                last = run_once(p, req, arm, prompts, should_abort);
                const double ms = median(last.warm_ms);
                if (ms <= 0) continue;
                step.push_back(ms);
                per_seq.push_back(1000.0 / ms);
                agg.push_back(b * 1000.0 / ms);
                prefill.push_back(median(last.prefill_ms));
            }
            pt.memory = query_memory(p.config.device);
            pt.cpu_kernels = cpu_kernels_ran();
        } catch (const ReefError& e) {
            if (e.error().code == ErrorCode::Cancelled) throw;
            pt.error = e.error().message;
            continue;
        }
        if (agg.empty()) {
            pt.error = "no warm batch frames: raise --frames above --warmup";
            continue;
        }
        pt.ran = true;
        pt.aggregate_frames_per_s = median(agg);
        pt.per_sequence_frames_per_s = median(per_seq);
        pt.step_ms = median(step);
        pt.prefill_ms = median(prefill);
        pt.bytes_per_frame = weight_bytes + last.kv_bytes;
        if (arm_bw.memory_gbps > 0)
            pt.roofline_fraction = pt.per_sequence_frames_per_s /
                                   roofline_frames_per_s(arm_bw, pt.bytes_per_frame - reread, pass, report.fast_passes);
        pt.gflops = 2.0 * macs_per_sequence * b * pt.per_sequence_frames_per_s / 1e9;
        {
            const RunOptions o = run_options(p, req, arm);  // the arm's kernels and projection path
            const GemvPause linear(o.libtorch_linear);
            const CpuTargetScope target(o.cpu_target);
            pt.probe_gflops = measure_batched_gemv_gflops(p.model->device(), p.model->dtype(), b, p.model->weight_format());
        }
        if (pt.probe_gflops > 0) pt.compute_fraction = pt.gflops / pt.probe_gflops;
    }
    double base = 0;
    for (const BatchPoint& pt : report.batch)
        if (pt.ran && pt.batch == 1) base = pt.aggregate_frames_per_s;
    for (BatchPoint& pt : report.batch)
        if (pt.ran && base > 0) pt.speedup = pt.aggregate_frames_per_s / base;
}

}  // namespace reef
