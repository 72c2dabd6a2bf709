// A serving engine measured from the client side: `reef-cli bench --server URL --concurrency 1,4,16`.
// At each concurrency level, that many clients send the same request back to back until the
// level's count is done; what each saw (time to first audio byte, total time, audio length,
// failure) becomes the level's medians and rates. This is how fish-speech's server, SGLang-Omni,
// vLLM-Omni and reef-cli serve compare on one GPU box. No torch, no Qt.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "reef/remote.h"

namespace reef {

struct LoadBenchRequest {
    ServerProfile profile;
    std::vector<int> concurrency = {1, 4};
    int requests_per_level = 0;      // 0 = max(4, 2 x concurrency)
    SynthesisRequest request;        // text, sampling, references
    bool stream = true;              // streamed answers (time to first audio means something)
};

struct LoadBenchLevel {
    int concurrency = 0;
    int requests = 0, ok = 0, failed = 0;
    double wall_s = 0;               // first request sent to last answer complete
    double requests_per_s = 0;       // completed (ok) requests / wall
    double audio_s_per_s = 0;        // seconds of audio delivered per second of wall time
    double ttfa_ms_median = 0, ttfa_ms_p90 = 0;   // time to the first audio byte
    double total_ms_median = 0, total_ms_p90 = 0;
    double rtf_median = 0;           // request time / its audio seconds
    double audio_s_median = 0;
    std::vector<std::string> errors; // distinct failure messages, each once
};

struct LoadBenchReport {
    std::string server, flavour, model;
    std::string reef_version, started_utc, host;
    std::string text;
    int max_new_frames = 0;
    uint64_t seed = 0;
    bool stream = true;
    int references = 0;
    std::vector<LoadBenchLevel> levels;
};

// Fails only when the server cannot be reached or refuses the first check; failed requests are
// counted per level, with their messages.
Result<LoadBenchReport> run_load_bench(const LoadBenchRequest& request,
                                       const std::function<void(const std::string&)>& progress = {},
                                       const std::function<bool()>& should_abort = {});

std::string load_bench_markdown(const LoadBenchReport& report);
std::string load_bench_json(const LoadBenchReport& report);   // schema: docs/bench-schema.md, "remote"

}  // namespace reef
