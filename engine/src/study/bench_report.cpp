// The bench report in three formats. The JSON is the contract (docs/bench-schema.md); Markdown
// and CSV are views of the same fields.
#include "reef/bench_report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "checkpoint/atomic_file.h"
#include "base/facade_guard.h"
#include "study/report_format.h"

namespace reef {
namespace {

using nlohmann::json;

json memory_json(const MemoryStats& m) {
    json j{{"cpu_rss_bytes", m.cpu_rss_bytes}, {"cpu_peak_rss_bytes", m.cpu_peak_rss_bytes}};
    if (m.cuda_allocated_bytes >= 0) {
        j["cuda_allocated_bytes"] = m.cuda_allocated_bytes;
        j["cuda_reserved_bytes"] = m.cuda_reserved_bytes;
        j["cuda_peak_allocated_bytes"] = m.cuda_peak_allocated_bytes;
    } else {
        j["cuda_allocated_bytes"] = nullptr;
        j["cuda_reserved_bytes"] = nullptr;
        j["cuda_peak_allocated_bytes"] = nullptr;
    }
    return j;
}

json backends_json(const std::vector<BackendUse>& uses) {
    json a = json::array();
    for (const auto& u : uses)
        a.push_back({{"call_site", to_string(u.site)}, {"backend", to_string(u.backend)}, {"calls", u.calls},
                     {"shape", u.shape}, {"kv_len_min", u.kv_len_min}, {"kv_len_max", u.kv_len_max},
                     {"source", u.compiled ? "compiled-package" : "dispatcher"}});
    return a;
}

json sweep_json(const BenchReport& r) {
    json a = json::array();
    for (const auto& pt : r.sweep) {
        json j{{"arm", r.arms[size_t(pt.arm)].arm.name()}, {"context", pt.context}, {"prompt_tokens", pt.prompt_tokens},
               {"ran", pt.ran}, {"error", pt.ran ? json(nullptr) : json(pt.error)}};
        if (pt.ran) {
            j["warm_frames_per_s"] = pt.warm_frames_per_s;
            j["step_ms"] = pt.step_ms;
            j["prefill_ms"] = pt.prefill_ms;
            j["memory"] = memory_json(pt.memory);
            j["backends"] = backends_json(pt.backends);
        }
        a.push_back(std::move(j));
    }
    return a;
}

json batch_json(const BenchReport& r) {
    json a = json::array();
    for (const auto& pt : r.batch) {
        json j{{"batch", pt.batch}, {"arm", pt.arm}, {"ran", pt.ran}, {"error", pt.ran ? json(nullptr) : json(pt.error)}};
        if (pt.ran) {
            j["aggregate_frames_per_s"] = pt.aggregate_frames_per_s;
            j["per_sequence_frames_per_s"] = pt.per_sequence_frames_per_s;
            j["step_ms"] = pt.step_ms;
            j["speedup"] = pt.speedup > 0 ? json(pt.speedup) : json(nullptr);
            j["prefill_ms"] = pt.prefill_ms;
            j["bytes_per_frame"] = pt.bytes_per_frame;
            j["roofline_fraction"] = pt.roofline_fraction;
            j["gflops"] = pt.gflops;
            j["probe_gflops"] = pt.probe_gflops > 0 ? json(pt.probe_gflops) : json(nullptr);
            j["compute_fraction"] = pt.probe_gflops > 0 ? json(pt.compute_fraction) : json(nullptr);
            j["memory"] = memory_json(pt.memory);
            j["cpu_kernels"] = pt.cpu_kernels.empty() ? json(nullptr) : json(pt.cpu_kernels);
        }
        a.push_back(std::move(j));
    }
    return a;
}

json host_json(const HostInfo& h) {
    auto or_null = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
    return {{"cpu_model", h.cpu_model}, {"cpu_cores", h.cpu_cores}, {"memory_bytes", h.memory_bytes}, {"os", h.os},
            {"gpu_name", or_null(h.gpu_name)}, {"cuda_driver", or_null(h.cuda_driver)},
            {"cuda_runtime", or_null(h.cuda_runtime)}, {"cudnn", or_null(h.cudnn)}};
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string bench_report_json(const BenchReport& r) {
    json arms = json::array();
    for (const auto& a : r.arms) {
        json j{{"arm", a.arm.name()},
               {"compile_mode", to_string(a.arm.compile_mode)},
               {"sdpa_policy", to_string(a.arm.sdpa_policy)},
               {"kv_mode", to_string(a.arm.kv_mode)},
               {"libtorch_linear", a.arm.libtorch_linear},
               {"gemv_team", a.gemv_team},
               {"decode_blocks_per_frame", a.decode_blocks_per_frame},
               {"cpu_target", a.arm.cpu_target.empty() ? json(nullptr) : json(a.arm.cpu_target)},
               {"ran", a.ran},
               {"error", a.ran ? json(nullptr) : json(a.error)},
               {"cpu_kernels", a.cpu_kernels.empty() ? json(nullptr) : json(a.cpu_kernels)},
               {"int8_weights", a.arm.int8_weights},
               {"int4_group", a.arm.int4_group},
               {"weights", a.weights.empty() ? json(nullptr) : json(a.weights)}};
        if (a.ran) {
            j["prompt_tokens"] = a.prompt_tokens;
            j["cold_first_frame_ms"] = a.cold_first_frame_ms;
            j["prefill_ms"] = a.prefill_ms;
            j["warm_frames_per_s"] = a.warm_frames_per_s;
            j["time_to_first_audio_ms"] = a.time_to_first_audio_ms;
            j["codec_ms"] = a.codec_ms;
            j["real_time_factor"] = a.real_time_factor;
            j["bytes_per_frame"] = a.bytes_per_frame;
            j["fast_pass_bytes"] = a.fast_pass_bytes;
            j["reread_bandwidth_gbps"] = a.reread_bandwidth_gbps;
            j["reread_bandwidth_probes_gbps"] = a.reread_bandwidth_probes;
            j["roofline_frames_per_s"] = a.roofline_frames_per_s;
            j["roofline_fraction"] = a.roofline_fraction;
            j["dram_roofline_fraction"] = a.dram_roofline_fraction;
            j["repeat_frames_per_s"] = a.repeat_frames_per_s;
            j["repeat_roofline_fractions"] = a.repeat_roofline_fractions;
            j["frame_roofline_fractions"] = a.frame_roofline_fractions;
            j["memory"] = memory_json(a.memory);
            j["backends"] = backends_json(a.backends);
            j["step_ms"] = a.step_ms;
            if (!a.package_dir.empty())
                j["compiled"] = {{"compile_s", a.compile_s}, {"cached", a.compile_cached},
                                 {"package_load_ms", a.package_load_ms}, {"package_dir", a.package_dir}};
            else
                j["compiled"] = nullptr;
            j["quality"] = {{"logits_finite", a.quality.logits_finite},
                            {"max_abs_logit_diff", a.quality.max_abs_logit_diff},
                            {"within_tolerance", a.quality.within_tolerance},
                            {"greedy_exact_prefix", a.quality.greedy_exact_prefix},
                            {"greedy_agreement", a.quality.greedy_agreement}};
        }
        arms.push_back(std::move(j));
    }
    const BenchRequest& q = r.request;
    json root{{"schema", "reef-bench/14"},
              {"reef_version", r.reef_version},
              {"libtorch_version", r.libtorch_version},
              {"device", r.device_name},
              {"model", {{"name", r.model_name}, {"dir", r.model_dir}}},
              {"precision", r.precision},
              {"cpu_threads", r.cpu_threads},
              {"cpu_kernels_best", r.cpu_kernels_best.empty() ? json(nullptr) : json(r.cpu_kernels_best)},
              {"cpu_target_requested", r.cpu_target_requested.empty() ? json(nullptr) : json(r.cpu_target_requested)},
              {"weight_pages", r.weight_pages.empty() ? json(nullptr) : json(r.weight_pages)},
              {"started_at", r.started_at},
              {"request",
               {{"text", q.text},
                {"seed", q.seed},
                {"temperature", q.temperature},
                {"frames", q.frames},
                {"warmup", q.warmup},
                {"repeats", q.repeats},
                {"frame_probes", q.frame_probes},
                {"logit_steps", q.logit_steps},
                {"kv_margin", q.kv_margin},
                {"contexts", q.contexts},
                {"sweep_repeats", q.sweep_repeats},
                {"batch_sizes", q.batch_sizes},
                {"reference_arm", q.reference_arm < int(r.arms.size()) ? r.arms[size_t(q.reference_arm)].arm.name()
                                                                      : std::string()}}},
              {"logit_tolerance", r.logit_tolerance},
              {"roofline", {{"read_bandwidth_gbps", r.read_bandwidth_gbps},
                            {"read_bandwidth_probes_gbps", r.read_bandwidth_probes},
                            {"reread_bandwidth_probes_gbps", r.reread_bandwidth_probes},
                            {"reread_bandwidth_gbps", r.reread_bandwidth_gbps},
                            {"weight_bytes_per_frame", r.weight_bytes_per_frame},
                            {"fast_pass_bytes", r.fast_pass_bytes},
                            {"fast_passes", r.fast_passes}}},
              {"host", host_json(r.host)},
              {"arms", arms},
              {"sweep", sweep_json(r)},
              {"batch", batch_json(r)}};
    return root.dump(2) + "\n";
}

std::string bench_arms_table_markdown(const BenchReport& r) {
    std::ostringstream s;
    s << "| arm | warm frames/s | % roofline | % DRAM roofline | cold first frame ms | compile s | prefill ms | first audio ms | RTF | "
         "peak RSS MiB | peak CUDA MiB | finite | max Δlogit | greedy prefix | agreement | backends |\n";
    s << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|\n";
    for (const auto& a : r.arms) {
        if (!a.ran) {
            s << "| `" << a.arm.name() << "` | not run: " << md_cell(a.error) << " ||||||||||||||\n";
            continue;
        }
        s << "| `" << a.arm.name() << "` | " << fmt(a.warm_frames_per_s) << " | "
          << (a.roofline_fraction > 0 ? fmt(100.0 * a.roofline_fraction, 1) + "%" : std::string("-")) << " | "
          << (a.dram_roofline_fraction > 0 ? fmt(100.0 * a.dram_roofline_fraction, 1) + "%" : std::string("-")) << " | "
          << fmt(a.cold_first_frame_ms, 1) << " | "
          << (a.package_dir.empty() ? std::string("-")
                                    : fmt(a.compile_s, 1) + (a.compile_cached ? " (cached)" : std::string()))
          << " | " << fmt(a.prefill_ms, 1) << " | " << fmt(a.time_to_first_audio_ms, 1) << " | "
          << fmt(a.real_time_factor, 3) << " | " << mib(a.memory.cpu_peak_rss_bytes) << " | "
          << mib(a.memory.cuda_peak_allocated_bytes) << " | " << (a.quality.logits_finite ? "yes" : "**NO**") << " | "
          << fmt(a.quality.max_abs_logit_diff, 6) << (a.quality.within_tolerance ? "" : " **over**") << " | "
          << a.quality.greedy_exact_prefix << " | " << fmt(100.0 * a.quality.greedy_agreement, 1) << "% | "
          << backends_text(a.backends) << " |\n";
    }
    return s.str();
}

// What the decode GEMV ran per arm (the kernels record it), beside this CPU's best and what
// REEF_CPU_TARGET asked for.
// ", median of 6 probes, 28.1-52.3 GB/s" where the probe ran more than once
static std::string probe_range(const BenchReport& r) {
    if (r.read_bandwidth_probes.size() < 2) return {};
    const auto [lo, hi] = std::minmax_element(r.read_bandwidth_probes.begin(), r.read_bandwidth_probes.end());
    return "; median of " + std::to_string(r.read_bandwidth_probes.size()) +
           " probes, one before the repeats and one after each arm's repeat: " + fmt(*lo, 1) + "–" + fmt(*hi, 1) + " GB/s";
}

// BenchReport::weight_pages in words: the page size decides up to ~9 % of a memory-bound frame.
static std::string weight_pages_prose(const std::string& w) {
    if (w == "huge") return "huge pages where the kernel grants them";
    if (w == "4k-dear") return "4 KB pages (huge pages were found dear to fault in at load: REEF_HUGE_PAGES=1 forces them)";
    if (w == "4k") return "4 KB pages (REEF_HUGE_PAGES=0)";
    if (w == "mapping") return "the file's mapping (REEF_WEIGHT_MEMORY=0)";
    return w;
}

static std::string cpu_kernels_line(const BenchReport& r) {
    std::ostringstream s;
    s << "CPU kernels (decode GEMV, what ran):";
    for (size_t i = 0; i < r.arms.size(); ++i)
        s << (i ? ", " : " ") << "`" << r.arms[i].arm.name() << "` "
          << (r.arms[i].cpu_kernels.empty() ? "none (libtorch's linear)" : r.arms[i].cpu_kernels)
          << (r.arms[i].gemv_team ? " with the GEMV team" : "")
          << (r.arms[i].decode_blocks_per_frame > 0 ? " in fused decode blocks" : "")
          << (r.arms[i].weights.empty() ? "" : " on " + r.arms[i].weights + " weights");
    s << "; this CPU's best: " << (r.cpu_kernels_best.empty() ? "none (built without the kernels)" : r.cpu_kernels_best)
      << "; REEF_CPU_TARGET " << (r.cpu_target_requested.empty() ? "unset" : "= " + r.cpu_target_requested);
    if (!r.weight_pages.empty()) s << "; weights in " << weight_pages_prose(r.weight_pages);
    return s.str();
}

std::string bench_report_markdown(const BenchReport& r) {
    std::ostringstream s;
    const BenchRequest& q = r.request;
    s << "# Reef A/B bench: " << r.model_name << "\n\n";
    s << "- Reef " << r.reef_version << ", libtorch " << r.libtorch_version << ", device: " << r.device_name
      << ", precision: " << r.precision << ", CPU threads: " << r.cpu_threads << "\n";
    s << "- " << cpu_kernels_line(r) << "\n";
    s << "- " << r.started_at << "; text: \"" << q.text << "\"; seed " << q.seed << "; "
      << (q.temperature > 0 ? "sampled (temperature " + fmt(q.temperature, 2) + ", top-p 0.8, top-k 30)" : std::string("greedy"))
      << "; " << q.frames
      << " frames per repeat (im_end suppressed), " << q.warmup << " warm-up steps, " << q.repeats
      << " repeats, KV margin " << q.kv_margin << " rows\n";
    s << "- Warm frames/s = median over repeats of the per-repeat median step rate after the warm-up steps; repeats "
         "interleave the arms after one untimed warm-up run; cold first frame = prefill + first frame of the arm's first "
         "repeat, from empty KV caches.\n";
    if (q.reference_arm < int(r.arms.size()))
        s << "- Quality reference: `" << r.arms[size_t(q.reference_arm)].arm.name()
          << "`; max |Δ logit| over the first " << q.logit_steps << " decode steps, tolerance "
          << fmt(r.logit_tolerance, 4) << "\n";
    if (r.read_bandwidth_gbps > 0) {
        const double pass_mb = double(r.fast_pass_bytes) / 1e6;
        s << "- Roofline: read bandwidth " << fmt(r.read_bandwidth_gbps, 1) << " GB/s (bench probe: best of 5 sums over "
          << "512 MiB" << probe_range(r) << "), and " << fmt(r.reread_bandwidth_gbps, 1) << " GB/s for " << r.fast_passes << " passes over "
          << fmt(pass_mb, 1) << " MB right after it (the fast stack's re-reads, partly from cache); a decode frame reads "
          << fmt(double(r.weight_bytes_per_frame) / 1e6 - r.fast_passes * pass_mb, 1) << " MB of weights once, "
          << r.fast_passes << " × " << fmt(pass_mb, 1)
          << " MB of fast stack, and its KV rows; the roofline frame time is once-read bytes ÷ read bandwidth + "
             "fast-stack bytes ÷ re-read bandwidth; % roofline = the median over repeats of a repeat's warm frames/s ÷ "
             "the roofline of the two probes on either side of it (the bandwidth it ran at)"
          << (q.frame_probes ? ", here of a warm frame's frames/s ÷ the roofline of one-pass probes right before and "
                               "after that frame (the re-read bandwidth at the repeat probes' re-read/read ratio)"
                             : "")
          << "; % DRAM roofline "
             "counts every byte at the read bandwidth (an upper bound on memory traffic: above 100 % where the fast "
             "stack stays in cache)\n";
        // arms whose fast stack is another size (quantized weights): its own re-read bandwidth
        std::vector<std::pair<int64_t, std::string>> other;  // size -> the line's part
        for (const ArmResult& a : r.arms) {
            if (!a.ran || a.fast_pass_bytes <= 0 || a.fast_pass_bytes == r.fast_pass_bytes) continue;
            auto at = std::find_if(other.begin(), other.end(), [&](const auto& o) { return o.first == a.fast_pass_bytes; });
            if (at == other.end())
                other.emplace_back(a.fast_pass_bytes, fmt(a.reread_bandwidth_gbps, 1) + " GB/s for passes over " +
                                                          fmt(double(a.fast_pass_bytes) / 1e6, 1) + " MB (`" +
                                                          a.arm.name() + "`");
            else
                at->second += ", `" + a.arm.name() + "`";
        }
        if (!other.empty()) {
            s << "- Re-reads of the quantized arms' smaller fast stacks, probed in the same probes (a smaller pass "
                 "re-reads faster; each arm's roofline counts its own): ";
            for (size_t i = 0; i < other.size(); ++i) s << (i ? "; " : "") << other[i].second << ")";
            s << "\n";
        }
    }
    s << "\n" << bench_arms_table_markdown(r);
    if (!r.sweep.empty()) s << "\n" << bench_sweep_markdown(r);
    if (!r.batch.empty()) s << "\n" << bench_batch_markdown(r);
    return s.str();
}

std::string bench_batch_markdown(const BenchReport& r) {
    std::ostringstream s;
    const BenchRequest& q = r.request;
    const std::string arm = r.batch.empty() ? std::string() : r.batch.front().arm;
    s << "## Batched decode\n\nB different prompts (the bench text, each with its own sentence after it) decode "
      << q.frames << " greedy frames together through one batch (`" << arm << "`), " << q.repeats
      << " repeats; the first " << q.warmup
      << " batch frames are warm-up. Aggregate = frames of all sequences per second of warm batch frames (median over "
         "repeats); per sequence = batch frames per second; speed-up against B = 1 of this run; % roofline = batch "
         "frames/s ÷ what the read bandwidth allows for the weights read once plus every sequence's KV rows; GFLOP/s = 2 "
         "× weights read × B per second (what the cores computed); probe GFLOP/s = what the same batched projection "
         "reaches at this B on weights held in cache (the compute limit, measured in this run), % compute = GFLOP/s ÷ "
         "probe; bound = the limit the frame is closer to.\n\n"
         "| B | aggregate frames/s | per sequence frames/s | speed-up | batch frame ms | prefill ms | % roofline | GFLOP/s | "
         "probe GFLOP/s | % compute | bound | peak RSS MiB | kernels |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n";
    for (const auto& pt : r.batch) {
        if (!pt.ran) {
            s << "| " << pt.batch << " | not run: " << md_cell(pt.error) << " | | | | | | | | | | | |\n";
            continue;
        }
        s << "| " << pt.batch << " | " << fmt(pt.aggregate_frames_per_s) << " | " << fmt(pt.per_sequence_frames_per_s)
          << " | " << (pt.speedup > 0 ? fmt(pt.speedup) + "×" : std::string("-")) << " | " << fmt(pt.step_ms, 1) << " | "
          << fmt(pt.prefill_ms, 1) << " | " << fmt(100 * pt.roofline_fraction, 0) << " % | " << fmt(pt.gflops, 1) << " | "
          << (pt.probe_gflops > 0 ? fmt(pt.probe_gflops, 1) + " | " + fmt(100 * pt.compute_fraction, 0) + " % | " +
                                        (pt.compute_fraction > pt.roofline_fraction ? "compute" : "bytes")
                                  : std::string("- | - | -"))
          << " | " << mib(pt.memory.cpu_peak_rss_bytes) << " | " << (pt.cpu_kernels.empty() ? "libtorch" : pt.cpu_kernels)
          << " |\n";
    }
    return s.str();
}

std::string bench_sweep_markdown(const BenchReport& r) {
    std::ostringstream s;
    const BenchRequest& q = r.request;
    s << "## Context sweep\n\nWarm frames/s (median decode step ms) after a real prompt of about each length: the "
         "bench text extended with filler sentences and prefilled, then " << q.frames << " greedy frames, "
      << q.sweep_repeats << " repeats per arm, arms interleaved.\n\n| prompt tokens |";
    std::vector<int> arms_in_sweep;
    for (const auto& pt : r.sweep)
        if (std::find(arms_in_sweep.begin(), arms_in_sweep.end(), pt.arm) == arms_in_sweep.end()) arms_in_sweep.push_back(pt.arm);
    for (int a : arms_in_sweep) s << " `" << r.arms[size_t(a)].arm.name() << "` |";
    s << " peak RSS MiB |\n|---:|";
    for (size_t i = 0; i < arms_in_sweep.size(); ++i) s << "---:|";
    s << "---:|\n";
    for (int context : q.contexts) {
        std::vector<const SweepPoint*> row;
        for (const auto& pt : r.sweep)
            if (pt.context == context) row.push_back(&pt);
        if (row.empty()) continue;
        int64_t peak = -1;
        int tokens = 0;
        for (const SweepPoint* pt : row) tokens = std::max(tokens, pt->prompt_tokens);
        s << "| " << (tokens > 0 ? std::to_string(tokens) : std::string("-")) << " (asked " << context << ") |";
        for (int a : arms_in_sweep) {
            const auto it = std::find_if(row.begin(), row.end(), [a](const SweepPoint* pt) { return pt->arm == a; });
            if (it == row.end()) {
                s << " |";
                continue;
            }
            const SweepPoint& pt = **it;
            if (pt.ran) {
                s << " " << fmt(pt.warm_frames_per_s) << " (" << fmt(pt.step_ms, 1) << ") |";
                peak = std::max(peak, pt.memory.cpu_peak_rss_bytes);
            } else {
                s << " not run: " << md_cell(pt.error) << " |";
            }
        }
        s << " " << mib(peak) << " |\n";
    }
    return s.str();
}

std::string bench_sweep_csv(const BenchReport& r) {
    std::ostringstream s;
    s << "arm,context,prompt_tokens,ran,error,warm_frames_per_s,step_ms,prefill_ms,cpu_peak_rss_bytes,"
         "cuda_peak_allocated_bytes,backends\n";
    for (const auto& pt : r.sweep)
        s << csv_field(r.arms[size_t(pt.arm)].arm.name()) << "," << pt.context << "," << pt.prompt_tokens << ","
          << (pt.ran ? 1 : 0) << "," << csv_field(pt.error) << "," << fmt(pt.warm_frames_per_s, 4) << ","
          << fmt(pt.step_ms, 3) << "," << fmt(pt.prefill_ms, 3) << "," << pt.memory.cpu_peak_rss_bytes << ","
          << pt.memory.cuda_peak_allocated_bytes << "," << csv_field(backends_text(pt.backends)) << "\n";
    return s.str();
}

std::string bench_report_csv(const BenchReport& r) {
    std::ostringstream s;
    s << "arm,compile_mode,sdpa_policy,kv_mode,ran,error,warm_frames_per_s,cold_first_frame_ms,prefill_ms,"
         "time_to_first_audio_ms,codec_ms,real_time_factor,cpu_peak_rss_bytes,cuda_peak_allocated_bytes,"
         "logits_finite,max_abs_logit_diff,within_tolerance,greedy_exact_prefix,greedy_agreement,backends,"
         "bytes_per_frame,roofline_frames_per_s,roofline_fraction,dram_roofline_fraction\n";
    for (const auto& a : r.arms) {
        s << csv_field(a.arm.name()) << "," << to_string(a.arm.compile_mode) << "," << to_string(a.arm.sdpa_policy)
          << "," << to_string(a.arm.kv_mode) << "," << (a.ran ? 1 : 0) << "," << csv_field(a.error) << ","
          << fmt(a.warm_frames_per_s, 4) << "," << fmt(a.cold_first_frame_ms, 3) << "," << fmt(a.prefill_ms, 3)
          << "," << fmt(a.time_to_first_audio_ms, 3) << "," << fmt(a.codec_ms, 3) << ","
          << fmt(a.real_time_factor, 5) << "," << a.memory.cpu_peak_rss_bytes << ","
          << a.memory.cuda_peak_allocated_bytes << "," << (a.quality.logits_finite ? 1 : 0) << ","
          << fmt(a.quality.max_abs_logit_diff, 8) << "," << (a.quality.within_tolerance ? 1 : 0) << ","
          << a.quality.greedy_exact_prefix << "," << fmt(a.quality.greedy_agreement, 4) << ","
          << csv_field(backends_text(a.backends)) << "," << a.bytes_per_frame << ","
          << fmt(a.roofline_frames_per_s, 4) << "," << fmt(a.roofline_fraction, 4) << ","
          << fmt(a.dram_roofline_fraction, 4) << "\n";
    }
    return s.str();
}

Status write_text_file_atomic(const std::string& path, const std::string& text) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    if (target.has_parent_path() && !fs::is_directory(target.parent_path()))
        return EngineError{ErrorCode::Io, "cannot write " + path + ": folder does not exist", {}};
    return guarded("write", [&]() -> Status {
        AtomicFileWriter out(path);  // temp file + fsync + rename; removed again on any failure
        out.write(text.data(), text.size());
        out.commit();
        return Ok{};
    });
}

Status write_bench_json(const BenchReport& r, const std::string& path) {
    return write_text_file_atomic(path, bench_report_json(r));
}
Status write_bench_markdown(const BenchReport& r, const std::string& path) {
    return write_text_file_atomic(path, bench_report_markdown(r));
}
Status write_bench_csv(const BenchReport& r, const std::string& path) {
    return write_text_file_atomic(path, bench_report_csv(r));
}

}  // namespace reef
