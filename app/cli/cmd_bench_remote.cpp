// reef-cli bench --server URL --concurrency 1,4,16: a serving engine measured from the client
// (engine/remote/load_bench.h). The local A/B matrix is cmd_bench.cpp.
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "cli_engine.h"
#include "cli_profiles.h"
#include "cmd_bench_remote.h"
#include "reef/bench_report.h"
#include "remote/load_bench.h"

namespace reef::cli {

void RemoteBenchOptions::add_to(CLI::App* cmd) {
    cmd->add_option("--server", server,
                    "measure a server instead (fish-speech's api_server, SGLang-Omni, vLLM-Omni, reef-cli serve): "
                    "its URL or a profile saved in the studio; then --concurrency, --requests, --text, --frames, --seed, --md and --json apply");
    cmd->add_option("--flavour", flavour, "the server's protocol: auto, fish-speech, sglang-omni, vllm-omni, openai")
        ->check(CLI::IsMember({"auto", "fish-speech", "sglang-omni", "vllm-omni", "openai"}))
        ->capture_default_str();
    cmd->add_option("--api-key", api_key, "the server's key (Bearer); default: $REEF_API_KEY")->envname("REEF_API_KEY");
    cmd->add_option("--server-model", model, "OpenAI-compatible servers: the model name");
    cmd->add_option("--concurrency", concurrency, "with --server: clients at once, per level, comma-separated")
        ->capture_default_str();
    cmd->add_option("--requests", requests, "with --server: requests per level (0 = max(4, 2 x concurrency))")
        ->capture_default_str();
    cmd->add_option("--reference-clip", reference, "with --server: clone this clip's voice in every request");
    cmd->add_option("--reference-clip-text", reference_text, "the clip's transcript");
    cmd->add_flag("!--no-stream", stream, "with --server: ask for whole answers instead of streams");
}

void run_remote_bench(const RemoteBenchOptions& o, const std::string& text, int frames, uint64_t seed,
                      const std::string& md_path, const std::string& json_path) {
    LoadBenchRequest req;
    req.profile = server_from_flags(o.server, o.flavour, o.api_key, o.model);
    req.requests_per_level = o.requests;
    req.stream = o.stream;
    req.request.text = text;
    req.request.sampling.max_new_frames = frames;
    req.request.sampling.seed = seed;
    if (!o.reference.empty()) {
        if (o.reference_text.empty()) fail("--reference-clip needs --reference-clip-text");
        req.request.references.push_back({o.reference_text, o.reference, {}});
    }
    req.concurrency.clear();
    std::stringstream ss(o.concurrency);
    for (std::string item; std::getline(ss, item, ',');) {
        try {
            size_t used = 0;
            const int c = std::stoi(item, &used);
            if (used != item.size()) throw std::invalid_argument(item);
            req.concurrency.push_back(c);
        } catch (const std::exception&) {
            fail("--concurrency: \"" + item + "\" is not a whole number");
        }
    }
    install_interrupt_handler();
    const LoadBenchReport report = unwrap(run_load_bench(
        req, [](const std::string& line) { std::cerr << line << "\n"; }, [] { return interrupted(); }));
    const std::string md = load_bench_markdown(report);
    std::cout << md;
    for (const auto& [path, text_out] : {std::pair{md_path, md}, std::pair{json_path, load_bench_json(report)}}) {
        if (path.empty()) continue;
        if (auto st = write_text_file_atomic(path, text_out); !st) fail(st.error());
        std::cerr << "wrote " << path << "\n";
    }
    int failed = 0;
    for (const LoadBenchLevel& l : report.levels) failed += l.failed;
    if (failed) {
        std::cerr << "error: " << failed << " request(s) failed (see the report)\n";
        throw CLI::RuntimeError(3);
    }
}

}  // namespace reef::cli
