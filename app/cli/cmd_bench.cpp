// reef-cli bench: the A/B matrix of compile mode x SDPA policy x KV mode on one prompt and seed.
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "cli_engine.h"
#include "reef/bench_report.h"
#ifdef REEF_WITH_REMOTE
#include "cmd_bench_remote.h"
#endif
#ifdef REEF_HAVE_AUDIO
#include "audio/wav_file.h"
#endif

namespace reef::cli {
namespace {

struct BenchOptions {
    EngineFlags engine;
    std::string arms = "eager:math,eager:flash,eager:auto,eager:fish-speech";
    std::string reference;
    std::string json, md, csv, wav_dir, profile, pr_report, contexts, sweep_csv, batch;
    BenchRequest req;
#ifdef REEF_WITH_REMOTE
    RemoteBenchOptions remote;
#endif
};

std::vector<BenchArm> parse_arms(const std::string& list) {
    std::vector<BenchArm> arms;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');) {
        if (item.empty()) continue;
        arms.push_back(unwrap(parse_bench_arm(item)));
    }
    if (arms.empty()) fail("--arms lists no arm");
    return arms;
}



void write_arm_wavs(const BenchReport& report, const std::string& dir) {
#ifdef REEF_HAVE_AUDIO
    std::filesystem::create_directories(dir);
    for (const auto& a : report.arms) {
        if (!a.ran || a.audio.empty()) continue;
        std::string name = a.arm.name();
        for (char& c : name)
            if (c == ':') c = '_';
        const std::string path = (std::filesystem::path(dir) / (name + ".wav")).string();
        try {
            audio::write_wav(path, a.audio, kSampleRate, 1, audio::WavFormat::Pcm16, {"Reef bench " + a.arm.name(), "Reef", ""});
        } catch (const std::exception& e) {
            fail(e.what());
        }
        std::cerr << "wrote " << path << "\n";
    }
#else
    fail("this build cannot write WAV files (REEF_BUILD_AUDIO=OFF); drop --wav-dir");
#endif
}

}  // namespace

void register_bench(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    auto* cmd = app.add_subcommand("bench", "A/B bench: warm frames/s, cold latency, memory, backend per call site, quality");
    cmd->footer("Exit status: 0 when every arm ran, 3 when some arm could not run (its reason is in the report), "
                "1 on other errors.");
    cmd->add_option("--model,-m", o->engine.model_dir, "model folder (or --server)");
    cmd->add_option("--device", o->engine.device, "cpu | cuda[:N] | mps")->capture_default_str();
    cmd->add_option("--precision", o->engine.precision, "fp32 | bf16 | fp16")->capture_default_str();
    cmd->add_option("--threads", o->engine.threads, "CPU threads (0 = libtorch default)");
    cmd->add_option("--kv-margin", o->req.kv_margin,
                    "KV cache rows beyond prompt + frames (large = fish-speech's full-length cache for :full arms)")
        ->capture_default_str();
    cmd->add_option("--arms", o->arms, "comma-separated arms: <compile>:<sdpa>[:<kv>][:linear][@<cpu target>], e.g. eager:auto:full, eager:auto@avx2")->capture_default_str();
    cmd->add_option("--reference", o->reference, "the quality reference arm (default: the first)");
    cmd->add_option("--text", o->req.text, "prompt text")->capture_default_str();
    cmd->add_option("--seed", o->req.seed, "seed")->capture_default_str();
    cmd->add_option("--temperature", o->req.temperature,
                    "0 = greedy decoding (arms compare token by token); > 0 = sampled as a synthesis is (top-p 0.8, "
                    "top-k 30, --seed): the sampler's time counts")
        ->check(CLI::Range(0.0, 2.0))
        ->capture_default_str();
    cmd->add_option("--frames", o->req.frames, "decode steps per repeat")->capture_default_str();
    cmd->add_option("--warmup", o->req.warmup, "steps excluded from the warm median")->capture_default_str();
    cmd->add_option("--repeats", o->req.repeats, "repeats per arm")->capture_default_str();
    cmd->add_option("--logit-steps", o->req.logit_steps, "decode steps compared for max |Δ logit|")->capture_default_str();
    cmd->add_option("--tolerance", o->req.logit_tolerance, "max |Δ logit| tolerance (0 = by precision)");
    cmd->add_flag("!--no-audio", o->req.decode_audio, "skip the codec (no WAVs, no time to first audio)");
    cmd->add_flag("--frame-probes", o->req.frame_probes,
                  "probe the read bandwidth after every frame too (~15 ms each) and set each frame against the "
                  "probes on either side of it: % roofline on a machine whose bandwidth switches within seconds");
    cmd->add_option("--json", o->json, "write the JSON report (schema: docs/bench-schema.md)");
    cmd->add_option("--md", o->md, "write the Markdown report");
    cmd->add_option("--csv", o->csv, "write the CSV report");
    cmd->add_option("--wav-dir", o->wav_dir, "write one WAV per arm here");
    cmd->add_option("--context", o->contexts,
                    "context sweep: prefix lengths in tokens, e.g. 128,512,2048,8192 (a real prompt of about each length "
                    "is prefilled, then --frames frames decoded per arm)");
    cmd->add_option("--sweep-repeats", o->req.sweep_repeats, "repeats per arm and context length")->capture_default_str();
    cmd->add_option("--sweep-csv", o->sweep_csv, "write the context sweep as CSV (one row per arm x length)");
    cmd->add_option("--batch", o->batch,
                    "batch table: batch sizes, e.g. 1,4,8 (B different prompts decode --frames greedy frames together, "
                    "with the reference arm's settings; aggregate and per-sequence frames/s, speed-up against B = 1)");
    cmd->add_option("--pr-report", o->pr_report,
                    "write the Markdown report for fish-speech PR #1337 (hardware, software, command, tables, quality, "
                    "WAV links, confirmations)");
    cmd->add_option("--profile", o->profile,
                    "run each arm once more under libtorch's profiler and write its ops by self time here (Markdown)");
#ifdef REEF_WITH_REMOTE
    o->remote.add_to(cmd);
#endif
    cmd->callback([o] {
#ifdef REEF_WITH_REMOTE
        if (!o->remote.server.empty())
            return run_remote_bench(o->remote, o->req.text, o->req.frames, o->req.seed, o->md, o->json);
#endif
        if (o->engine.model_dir.empty()) fail("give --model DIR (or --server URL)");
        install_interrupt_handler();
        const EngineConfig c = o->engine.to_config();
        BenchRequest req = o->req;
        req.model_dir = c.model_dir;
        req.device = c.device;
        req.device_index = c.device_index;
        req.precision = c.precision;
        req.cpu_threads = c.cpu_threads;
        req.arms = parse_arms(o->arms);
        // An arm whose compile mode cannot run on this machine is refused before any work (no model
        // load, warm-up or probe), with the engine's reason.
        const DeviceCaps caps = Engine::capabilities(req.device);
        for (const BenchArm& arm : req.arms) {
            const auto mode = caps.compile_modes.find(to_string(arm.compile_mode));
            if (mode != caps.compile_modes.end() && !mode->second.available)
                fail("arm " + arm.name() + " cannot run here: compile mode '" + mode->first + "': " + mode->second.reason);
        }
        req.profile = !o->profile.empty();
        if (!o->contexts.empty()) req.contexts = unwrap(parse_context_list(o->contexts));
        if (!o->sweep_csv.empty() && req.contexts.empty()) fail("--sweep-csv needs --context");
        if (!o->batch.empty()) req.batch_sizes = unwrap(parse_batch_list(o->batch));
        if (!o->reference.empty()) {
            const BenchArm ref = unwrap(parse_bench_arm(o->reference));
            req.reference_arm = -1;
            for (size_t i = 0; i < req.arms.size(); ++i)
                if (req.arms[i].name() == ref.name()) req.reference_arm = int(i);
            if (req.reference_arm < 0) fail("--reference " + o->reference + " is not one of --arms");
        }
        Engine engine;
        auto report = unwrap(engine.bench(
            req, [](int arm, const std::string& msg) { std::cerr << "[arm " << arm + 1 << "] " << msg << "\n"; },
            [] { return interrupted(); }));
        std::cout << bench_report_markdown(report);
        for (auto [path, writer] : {std::pair{o->json, &write_bench_json}, std::pair{o->md, &write_bench_markdown},
                                    std::pair{o->csv, &write_bench_csv}}) {
            if (path.empty()) continue;
            auto st = writer(report, path);
            if (!st) fail(st.error());
            std::cerr << "wrote " << path << "\n";
        }
        if (!o->wav_dir.empty()) write_arm_wavs(report, o->wav_dir);
        if (!o->sweep_csv.empty()) {
            auto st = write_text_file_atomic(o->sweep_csv, bench_sweep_csv(report));
            if (!st) fail(st.error());
            std::cerr << "wrote " << o->sweep_csv << "\n";
        }
        if (!o->pr_report.empty()) {
            PrReportOptions pr;
            pr.command = typed_command_line();
            if (!o->wav_dir.empty()) {  // links relative to the report's own folder
                namespace fs = std::filesystem;
                const fs::path base = fs::absolute(o->pr_report).parent_path();
                pr.wav_dir = fs::absolute(o->wav_dir).lexically_relative(base).generic_string();
            }
            auto st = write_bench_pr_report(report, pr, o->pr_report);
            if (!st) fail(st.error());
            std::cerr << "wrote " << o->pr_report << "\n";
        }
        if (!o->profile.empty()) {
            std::string text = "# Op profile: " + report.model_name + ", " + report.precision + ", " + report.device_name +
                               ", " + std::to_string(report.cpu_threads) + " threads, libtorch " +
                               report.libtorch_version + "\n\nOne greedy run per arm (prefill included) under " +
                               "libtorch's profiler; self time excludes the ops an op called.\n";
            for (const auto& a : report.arms)
                if (!a.profile.empty()) text += "\n## `" + a.arm.name() + "`\n\n" + a.profile;
            auto st = write_text_file_atomic(o->profile, text);
            if (!st) fail(st.error());
            std::cerr << "wrote " << o->profile << "\n";
        }
        int refused = 0;
        for (const auto& a : report.arms) refused += a.ran ? 0 : 1;
        for (const auto& pt : report.batch)
            if (!pt.ran) std::cerr << "error: batch " << pt.batch << " could not run: " << pt.error << "\n";
        if (refused) {  // the report is written; the exit code tells scripts that the matrix is incomplete
            std::cerr << "error: " << refused << " of " << report.arms.size() << " arms could not run (see the report)\n";
            throw CLI::RuntimeError(3);
        }
    });
}

}  // namespace reef::cli
