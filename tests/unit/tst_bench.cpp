// Engine::bench on the tiny demo model: every arm runs or says why not; quality vs the reference.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <ATen/record_function.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <map>
#include <mutex>

#include "check.h"
#include "reef/bench_report.h"
#include "reef/cpu_kernels.h"
#include "reef/engine.h"

using namespace reef;

namespace {

// A bench request on a fresh tiny demo model (layout "s1" or "s2") under the test's temp folder:
// the given arms, frames, warm-up, repeats and logit steps.
BenchRequest tiny_bench(const std::string& folder, const char* layout, const std::vector<std::string>& arms,
                        int frames, int warmup, int repeats, int logit_steps) {
    const auto dir = reef_test::temp_dir(folder) / "tiny";
    std::filesystem::remove_all(dir);
    CHECK(write_demo_model(dir.string(), "tiny", layout).ok());
    BenchRequest req;
    req.model_dir = dir.string();
    for (const std::string& a : arms) req.arms.push_back(*parse_bench_arm(a));
    req.frames = frames;
    req.warmup = warmup;
    req.repeats = repeats;
    req.logit_steps = logit_steps;
    return req;
}

}  // namespace

TEST_CASE(bench_runs_cpu_arms_and_reports_ineligible_ones) {
    BenchRequest req = tiny_bench("bench_model", "s2",
                                  {"eager:math", "eager:flash", "eager:auto:full", "eager:efficient", "cuda-graph:auto"},
                                  12, 2, 2, 4);
    Engine engine;
    std::vector<std::string> progress;
    auto r = engine.bench(req, [&](int, const std::string& m) { progress.push_back(m); }, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK_EQ(int(r->arms.size()), 5);
    for (int i = 0; i < 3; ++i) {
        const ArmResult& a = r->arms[size_t(i)];
        CHECK(a.ran);
        CHECK(a.warm_frames_per_s > 0);
        CHECK(a.cold_first_frame_ms > 0);
        CHECK_EQ(int(a.greedy_tokens.size()), 12);
        CHECK(a.quality.logits_finite);
        CHECK(a.quality.within_tolerance);
        CHECK_EQ(a.quality.greedy_exact_prefix, 12);
        CHECK(!a.audio.empty());
        CHECK(!a.backends.empty());
    }
    CHECK(r->arms[0].backends[0].backend == SdpaBackend::Math);
    // The roofline, recomputed from the report's raw figures: the fast stack's passes at the
    // re-read bandwidth, every other byte at the read bandwidth.
    CHECK(r->read_bandwidth_gbps > 0 && r->reread_bandwidth_gbps >= r->read_bandwidth_gbps);
    CHECK(r->fast_pass_bytes > 0 && r->fast_passes > 0);
    // Each repeat is set against the mean of the probes on either side of it: one probe before the
    // repeats, then one after each arm's repeat (arms 0-2 run, in turn, repeat by repeat).
    const int repeats = int(r->arms[0].repeat_frames_per_s.size());
    CHECK(repeats > 0);
    CHECK_EQ(r->read_bandwidth_probes.size(), size_t(1 + 3 * repeats));
    CHECK_EQ(r->reread_bandwidth_probes.size(), r->read_bandwidth_probes.size());
    for (int i = 0; i < 3; ++i) {
        const ArmResult& a = r->arms[size_t(i)];
        const double reread = double(r->fast_passes) * double(r->fast_pass_bytes);
        CHECK(double(a.bytes_per_frame) > reread);
        auto frame_s = [&](double memory_gbps, double reread_gbps) {
            return (double(a.bytes_per_frame) - reread) / (memory_gbps * 1e9) + reread / (reread_gbps * 1e9);
        };
        // arms in the loaded weights' format re-read a pass of the report's size
        CHECK_EQ(a.reread_bandwidth_gbps, r->reread_bandwidth_gbps);
        CHECK(a.reread_bandwidth_probes == r->reread_bandwidth_probes);
        const double s = frame_s(r->read_bandwidth_gbps, r->reread_bandwidth_gbps);
        CHECK(std::abs(a.roofline_frames_per_s * s - 1.0) < 1e-9);
        CHECK_EQ(int(a.repeat_frames_per_s.size()), repeats);
        std::vector<double> shares;
        for (int rep = 0; rep < repeats; ++rep) {
            const size_t after = size_t(1 + 3 * rep + i);
            const double memory = (r->read_bandwidth_probes[after - 1] + r->read_bandwidth_probes[after]) / 2;
            const double rr = std::max(memory, (r->reread_bandwidth_probes[after - 1] + r->reread_bandwidth_probes[after]) / 2);
            shares.push_back(a.repeat_frames_per_s[size_t(rep)] * frame_s(memory, rr));
        }
        std::sort(shares.begin(), shares.end());
        const double median = repeats % 2 ? shares[size_t(repeats / 2)]
                                          : (shares[size_t(repeats / 2 - 1)] + shares[size_t(repeats / 2)]) / 2;
        CHECK(std::abs(a.roofline_fraction - median) < 1e-9);
        CHECK(std::abs(a.dram_roofline_fraction -
                       a.warm_frames_per_s * double(a.bytes_per_frame) / (r->read_bandwidth_gbps * 1e9)) < 1e-9);
    }
    CHECK(!r->arms[3].ran);
    CHECK(r->arms[3].error.find("efficient") != std::string::npos);
    CHECK(!r->arms[4].ran);
    CHECK(r->arms[4].error.find("cuda-graph") != std::string::npos);
    CHECK(bench_report_markdown(*r).find("eager:auto:full") != std::string::npos);
    CHECK(!progress.empty());
}

// --frame-probes: every warm frame of every repeat gets its share of the roofline of the probes
// around it (12 frames, 2 warm-up: the 9 decode frames after them, twice), and their median is the
// arm's share; a ":team" arm reports that its frames ran with the GEMV team where it can.
TEST_CASE(frame_probes_give_every_warm_frame_a_share) {
    BenchRequest req = tiny_bench("bench_frames_model", "s2", {"eager:auto", "eager:auto:team"}, 12, 2, 2, 4);
    req.decode_audio = false;
    req.frame_probes = true;
    req.cpu_threads = 2;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) return;
    for (const ArmResult& a : r->arms) {
        CHECK(a.ran);
        CHECK_EQ(a.frame_roofline_fractions.size(), size_t(2 * 9));
        std::vector<double> f = a.frame_roofline_fractions;
        std::sort(f.begin(), f.end());
        CHECK(f.front() > 0);
        CHECK(std::abs(a.roofline_fraction - (f[8] + f[9]) / 2) < 1e-12);
    }
    CHECK(r->arms[1].arm.gemv_team && !r->arms[0].arm.gemv_team);
    CHECK(!r->arms[0].gemv_team);  // what ran: the pool, unless asked
    CHECK(r->arms[1].gemv_team);
    CHECK(bench_report_markdown(*r).find("`eager:auto:team`") != std::string::npos);
}

// The fused CPU decode block (text2semantic/decode_block.h) and its ":ops" A/B: the `reef` arm runs
// one fused block per slow layer of every decode frame after the first and per fast layer of every
// codebook step, counted from the model's own config.json; ":ops" and the `auto` policy run none.
TEST_CASE(ops_arms_turn_the_fused_decode_block_off) {
    const CpuKernelInfo kernels = cpu_kernel_info();
    if (!kernels.built) return reef_test::skip("built without the SIMD kernels");
    const int frames = 10;
    BenchRequest req = tiny_bench("bench_ops_model", "s2", {"eager:reef", "eager:reef:ops", "eager:auto"}, frames, 2, 2, 4);
    req.decode_audio = false;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) return;
    // fish-speech's S2 config.json: the slow stack in text_config, the fast one in audio_decoder_config
    const auto config = nlohmann::json::parse(std::ifstream(std::filesystem::path(req.model_dir) / "config.json"));
    const int slow = config["text_config"]["n_layer"], fast = config["audio_decoder_config"]["n_layer"],
              codebooks = config["audio_decoder_config"]["num_codebooks"];
    const double expected = double((frames - 1) * slow + frames * fast * codebooks) / frames;
    CHECK(r->arms[1].arm.decode_ops && !r->arms[0].arm.decode_ops);
    CHECK(r->arms[1].arm.name() == "eager:reef:ops");
    for (const ArmResult& a : r->arms) CHECK(a.ran);
    std::printf("fused blocks per frame: reef %g (expected %g), reef:ops %g, auto %g\n", r->arms[0].decode_blocks_per_frame,
                expected, r->arms[1].decode_blocks_per_frame, r->arms[2].decode_blocks_per_frame);
    CHECK(std::abs(r->arms[0].decode_blocks_per_frame - expected) < 1e-9);
    CHECK(r->arms[1].decode_blocks_per_frame == 0);
    CHECK(r->arms[2].decode_blocks_per_frame == 0);
    // the same greedy tokens either way (the fused block gives the ops' bits)
    CHECK(r->arms[0].greedy_tokens == r->arms[1].greedy_tokens);
    CHECK(bench_report_markdown(*r).find("`eager:reef` " + kernels.target) != std::string::npos);
    CHECK(bench_report_json(*r).find("\"decode_blocks_per_frame\"") != std::string::npos);
}

// --temperature: the decode is sampled as a synthesis is (the seed's stream), so its tokens are not
// the greedy run's, the same seed gives the same tokens again, and the report says it sampled.
TEST_CASE(temperature_samples_the_decode) {
    const int frames = 16;
    BenchRequest req = tiny_bench("bench_temperature_model", "s2", {"eager:math"}, frames, 2, 1, 0);
    req.decode_audio = false;
    Engine engine;
    auto greedy = engine.bench(req, {}, {});
    req.temperature = 0.8;
    auto sampled = engine.bench(req, {}, {});
    auto again = engine.bench(req, {}, {});
    req.seed += 1;
    auto other_seed = engine.bench(req, {}, {});
    CHECK(greedy.ok() && sampled.ok() && again.ok() && other_seed.ok());
    if (!greedy || !sampled || !again || !other_seed) return;
    const auto& g = greedy->arms[0].greedy_tokens;
    const auto& s = sampled->arms[0].greedy_tokens;
    CHECK_EQ(int(s.size()), frames);
    CHECK(s != g);
    CHECK(s == again->arms[0].greedy_tokens);
    CHECK(s != other_seed->arms[0].greedy_tokens);
    CHECK(nlohmann::json::parse(bench_report_json(*sampled))["request"]["temperature"] == 0.8);
    CHECK(bench_report_markdown(*sampled).find("sampled (temperature 0.80") != std::string::npos);
    CHECK(bench_report_markdown(*greedy).find("; greedy; ") != std::string::npos);
    req.temperature = 2.5;
    CHECK(!engine.bench(req, {}, {}).ok());
}

// "@<target>" arms: each arm runs the SIMD target it names (the kernels record what ran, an
// observation independent of the bench's bookkeeping), a target this CPU lacks leaves its arm not
// run with the reason, and afterwards the process runs the target it ran before.
TEST_CASE(cpu_target_arms_run_the_target_they_name) {
    const CpuKernelInfo before = cpu_kernel_info();
    if (!before.built) return reef_test::skip("built without the SIMD kernels");
    const std::string best = before.runnable.front(), lowest = before.runnable.back();
    BenchRequest req = tiny_bench("bench_target_model", "s2",
                                  {"eager:auto@" + best, "eager:auto@" + lowest, "eager:auto@no-such-target"}, 8, 2, 2, 4);
    req.decode_audio = false;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK(r->arms[0].ran && r->arms[1].ran);
    CHECK(r->arms[0].cpu_kernels == best);
    CHECK(r->arms[1].cpu_kernels == lowest);
    CHECK(r->arms[1].quality.within_tolerance);
    CHECK(!r->arms[2].ran);
    CHECK(r->arms[2].error.find("no-such-target") != std::string::npos);
    CHECK(r->arms[2].error.find(best) != std::string::npos);  // names what this CPU runs
    CHECK(cpu_kernel_info().target == before.target);  // the last arm that ran forced the lowest
}

// ":int8" arms (issue #44) decode with the weights quantized in memory: the report names the format
// each arm decoded with, the int8 arm reads fewer bytes per frame and still runs the SIMD kernels,
// and its greedy tokens are measured against the float reference (finite logits); the names parse
// back, suffixes in any combination.
TEST_CASE(int8_arms_decode_with_int8_weights) {
    for (const char* spec : {"eager:auto:int8", "eager:math:full:int8", "eager:auto:linear:int8@avx2"}) {
        auto arm = parse_bench_arm(spec);
        CHECK(arm.ok() && arm->int8_weights && arm->name() == spec);
    }
    CHECK(!parse_bench_arm("eager:int8").ok());
    BenchRequest req = tiny_bench("bench_int8_model", "s1", {"eager:auto", "eager:auto:int8", "eager:auto:linear:int8"}, 8, 2, 2, 4);
    req.decode_audio = false;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    for (const auto& a : r->arms) CHECK(a.ran);
    CHECK(r->arms[0].weights == "Float");
    CHECK(r->arms[1].weights == "int8" && r->arms[2].weights == "int8");
    CHECK(r->arms[1].bytes_per_frame < r->arms[0].bytes_per_frame);
    CHECK(r->arms[1].fast_pass_bytes < r->arms[0].fast_pass_bytes);
    // The int8 arms' roofline counts their smaller fast stack at the re-read bandwidth probed for a
    // pass of that size, in every probe of the run (recomputed here from the raw figures)
    for (size_t i = 1; i < 3; ++i) {
        const ArmResult& a = r->arms[i];
        CHECK_EQ(a.reread_bandwidth_probes.size(), r->read_bandwidth_probes.size());
        CHECK(a.reread_bandwidth_gbps >= r->read_bandwidth_gbps);
        const double reread = double(r->fast_passes) * double(a.fast_pass_bytes);
        const double s = (double(a.bytes_per_frame) - reread) / (r->read_bandwidth_gbps * 1e9) +
                         reread / (a.reread_bandwidth_gbps * 1e9);
        CHECK(std::abs(a.roofline_frames_per_s * s - 1.0) < 1e-9);
    }
    CHECK(bench_report_markdown(*r).find("Re-reads of the quantized arms' smaller fast stacks") != std::string::npos);
    if (cpu_kernel_info().built) CHECK(!r->arms[1].cpu_kernels.empty());
    CHECK(r->arms[1].quality.logits_finite && r->arms[2].quality.logits_finite);
    // the kernel and libtorch's linear on the same int8 weights: the same greedy tokens
    CHECK(r->arms[1].greedy_tokens == r->arms[2].greedy_tokens);
    CHECK(bench_report_markdown(*r).find("on int8 weights") != std::string::npos);
}

// ":int4" arms: int4 weights in memory (group 128, or ":int4-gN"); the report names the format and
// group, the int4 arm reads fewer bytes per frame than the int8 one, and a group that does not
// divide the model's widths is that arm's error, the other arms still running.
TEST_CASE(int4_arms_decode_with_int4_weights) {
    for (const char* spec : {"eager:auto:int4", "eager:auto:int4-g32", "eager:auto:linear:int4-g256@avx2"}) {
        auto arm = parse_bench_arm(spec);
        CHECK(arm.ok() && arm->int4_group > 0 && arm->name() == spec);
    }
    CHECK(parse_bench_arm("eager:auto:int4-g128")->name() == "eager:auto:int4");
    CHECK(!parse_bench_arm("eager:auto:int4-g48").ok());
    BenchRequest req = tiny_bench("bench_int4_model", "s2", {"eager:auto:int8", "eager:auto:int4-g32", "eager:auto:int4"},
                                  8, 2, 2, 4);
    req.decode_audio = false;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK(r->arms[0].ran && r->arms[1].ran);
    CHECK(r->arms[1].weights == "int4-g32");
    CHECK(r->arms[1].bytes_per_frame < r->arms[0].bytes_per_frame);
    CHECK(r->arms[1].quality.logits_finite);
    if (cpu_kernel_info().built) CHECK(!r->arms[1].cpu_kernels.empty());
    CHECK(!r->arms[2].ran && r->arms[2].error.find("does not divide") != std::string::npos);
}

// The context sweep: each point prefills a real prompt of at most its length, and the attention
// calls the dispatcher saw (an observation independent of the sweep's own bookkeeping) start one
// row past that prompt. A length the model cannot hold is refused with its reason.
TEST_CASE(context_sweep_prefills_each_length) {
    BenchRequest req = tiny_bench("bench_sweep", "s2", {"eager:math", "eager:auto:full"}, 8, 1, 1, 2);
    req.decode_audio = false;
    req.contexts = {150, 400, 1 << 20};
    req.sweep_repeats = 1;
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK_EQ(int(r->sweep.size()), 6);
    for (const SweepPoint& pt : r->sweep) {
        if (pt.context == (1 << 20)) {
            CHECK(!pt.ran);
            CHECK(pt.error.find("max_seq_len") != std::string::npos);
            continue;
        }
        CHECK(pt.ran);
        CHECK(pt.warm_frames_per_s > 0);
        // the longest prompt that fits: at most the length, and within a few words of it
        CHECK(pt.prompt_tokens <= pt.context);
        CHECK(pt.prompt_tokens > pt.context - 12);
        const BackendUse* decode = nullptr;
        for (const auto& u : pt.backends)
            if (u.site == CallSite::SlowDecode) decode = &u;
        CHECK(decode != nullptr);
        if (!decode) continue;
        if (pt.arm == 0) {  // active prefix: first decode step attends over prompt + 1 rows
            CHECK_EQ(decode->kv_len_min, int64_t(pt.prompt_tokens) + 1);
            CHECK_EQ(decode->kv_len_max, int64_t(pt.prompt_tokens) + req.frames - 1);
        } else {  // full cache: one constant length past everything used
            CHECK_EQ(decode->kv_len_min, decode->kv_len_max);
            CHECK(decode->kv_len_max >= int64_t(pt.prompt_tokens) + req.frames - 1);
        }
    }
    // a longer requested length really gives a longer prompt
    CHECK(r->sweep[2].prompt_tokens > r->sweep[0].prompt_tokens + 200);
}

namespace {

// Quantized GEMV calls (the ops the int8 and int4 kernels record, any thread) per bench phase, the
// phase named by the bench's own progress messages: "<arm> @ N tokens: ..." for the context sweep,
// "batch B: ..." for the batch table, anything else for the matrix.
struct QuantizedCalls {
    static inline std::mutex mutex;
    static inline std::string phase;
    static inline std::map<std::string, int> calls;  // phase -> quantized GEMV calls
    static std::unique_ptr<at::ObserverContext> on_op(const at::RecordFunction& fn) {
        if (std::strcmp(fn.name(), "reef::gemv_int4") != 0 && std::strcmp(fn.name(), "reef::gemv_int8") != 0) return nullptr;
        std::lock_guard lock(mutex);
        ++calls[phase];
        return nullptr;
    }
    at::CallbackHandle handle =
        at::addGlobalCallback(at::RecordFunctionCallback(&on_op).scopes({at::RecordScope::FUNCTION}));
    QuantizedCalls() { calls.clear(); }
    ~QuantizedCalls() { at::removeCallback(handle); }
    static void progress(int, const std::string& m) {
        std::lock_guard lock(mutex);
        const size_t at = m.find(" @ ");
        phase = at != std::string::npos ? "sweep " + m.substr(0, at) : m.rfind("batch ", 0) == 0 ? "batch" : "matrix";
    }
    static int in(const std::string& p) {
        std::lock_guard lock(mutex);
        return calls.count(p) ? calls.at(p) : 0;
    }
};

}  // namespace

// The context sweep and the batch table run a quantized arm with its quantized weights, as the
// matrix does: the int4 kernels run in the int4 arm's sweep points and in a batch table whose arm is
// int4 (seen by the kernels' own op records, not the bench's bookkeeping), never in the float
// arm's; and the batch frame's bytes are the int4 weights', below the float model's.
TEST_CASE(sweep_and_batch_decode_quantized_arms_with_their_weights) {
    BenchRequest req = tiny_bench("bench_quantized_sweep", "s2", {"eager:auto", "eager:auto:int4-g32"}, 8, 2, 1, 2);
    req.decode_audio = false;
    req.reference_arm = 1;
    req.contexts = {150};
    req.sweep_repeats = 1;
    req.batch_sizes = {2};
    Engine engine;
    QuantizedCalls seen;
    auto r = engine.bench(req, &QuantizedCalls::progress, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK(QuantizedCalls::in("matrix") > 0);
    CHECK_EQ(QuantizedCalls::in("sweep eager:auto"), 0);
    CHECK(QuantizedCalls::in("sweep eager:auto:int4-g32") > 0);
    CHECK(QuantizedCalls::in("batch") > 0);
    CHECK_EQ(int(r->sweep.size()), 2);
    for (const SweepPoint& pt : r->sweep) CHECK(pt.ran);
    CHECK_EQ(int(r->batch.size()), 1);
    CHECK(r->batch[0].ran);
    CHECK(r->batch[0].arm == "eager:auto:int4-g32");
    // the bytes a batch frame reads are the int4 weights (and two sequences' KV rows), not the float model's
    CHECK(r->batch[0].bytes_per_frame < r->weight_bytes_per_frame);
    CHECK(r->batch[0].bytes_per_frame > r->arms[1].bytes_per_frame - r->arms[1].fast_pass_bytes);
}

// The batch table (issue #27): every size runs with the reference arm's settings; a batch frame of
// B sequences moves B frames (aggregate = B x per sequence) and reads every member's KV rows, so
// its bytes grow with B. Timings are not asserted.
TEST_CASE(batch_table_runs_each_size_with_the_reference_arm) {
    BenchRequest req = tiny_bench("bench_batch", "s1", {"eager:math", "eager:auto"}, 8, 2, 2, 2);
    req.reference_arm = 1;
    req.decode_audio = false;
    req.batch_sizes = {1, 3, 2};
    Engine engine;
    auto r = engine.bench(req, {}, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK_EQ(int(r->batch.size()), 3);
    for (const BatchPoint& pt : r->batch) {
        CHECK(pt.ran);
        CHECK(pt.arm == "eager:auto");
        CHECK(pt.per_sequence_frames_per_s > 0);
        CHECK(std::abs(pt.aggregate_frames_per_s - pt.batch * pt.per_sequence_frames_per_s) < 1e-6 * pt.aggregate_frames_per_s);
        CHECK(pt.bytes_per_frame > r->weight_bytes_per_frame);
        CHECK(pt.speedup > 0);
    }
    CHECK(r->batch[1].bytes_per_frame > r->batch[2].bytes_per_frame);  // three members' KV rows against two
    CHECK(r->batch[2].bytes_per_frame > r->batch[0].bytes_per_frame);
    CHECK(bench_report_markdown(*r).find("## Batched decode") != std::string::npos);
    CHECK(bench_report_json(*r).find("\"aggregate_frames_per_s\"") != std::string::npos);
    req.batch_sizes = {0};
    CHECK(!engine.bench(req, {}, {}).ok());  // refused before any work
}

TEST_CASE(batch_lists_parse_or_name_the_bad_item) {
    auto ok = parse_batch_list("1, 4,8");
    CHECK(ok.ok());
    if (ok) CHECK(*ok == std::vector<int>({1, 4, 8}));
    for (const char* bad : {"0", "65", "4,x", ""}) CHECK(!parse_batch_list(bad).ok());
    CHECK(parse_batch_list("4,x").error().message.find("'x'") != std::string::npos);
}

TEST_CASE(context_lists_parse_or_name_the_bad_item) {
    auto ok = parse_context_list(" 128, 512,2048 ");
    CHECK(ok.ok());
    if (ok) CHECK(*ok == std::vector<int>({128, 512, 2048}));
    for (const char* bad : {"128,abc", "0", "-5", "12x", ""}) {
        auto r = parse_context_list(bad);
        CHECK(!r.ok());
    }
    CHECK(parse_context_list("128,abc").error().message.find("abc") != std::string::npos);
}

TEST_MAIN()
