// threads_reload MODEL_DIR COUNTS [FRAMES [REPEATS [PRECISION]]]: loads one model again and again in
// one process, once per CPU thread count in COUNTS ("99,0": 99 threads, then libtorch's default),
// and measures decoding at each: a warm-up synthesis, then REPEATS of FRAMES frames. A reload must
// put the new count in effect in both directions (issue #47), so "99,0" ends at the speed of a fresh
// "0". bench/threads_reload.sh compares the two; this program only measures. One line per count:
//   threads=99 in_effect=99 frames_per_s=9.1 process_threads=103
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "reef/engine.h"

namespace {

int process_threads() {
    std::error_code ec;
    int n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec))
        ++n;
    return n;
}

bool whole(const char* text, long lo, long hi, long* out) {
    char* end = nullptr;
    *out = std::strtol(text, &end, 10);
    return end != text && *end == '\0' && *out >= lo && *out <= hi;
}

}  // namespace

int main(int argc, char** argv) {
    long frames = 64, repeats = 3;
    if (argc < 3 || argc > 6 || (argc > 3 && !whole(argv[3], 1, 100000, &frames)) ||
        (argc > 4 && !whole(argv[4], 1, 1000, &repeats))) {
        std::cerr << "usage: " << argv[0] << " MODEL_DIR COUNTS [FRAMES [REPEATS [fp32|bf16|fp16]]]  (COUNTS: e.g. 99,0)\n";
        return 2;
    }
    reef::EngineConfig config;
    config.model_dir = argv[1];
    if (argc > 5) {
        const auto precision = reef::parse_precision(argv[5]);
        if (!precision) {
            std::cerr << "unknown precision '" << argv[5] << "' (fp32, bf16, fp16)\n";
            return 2;
        }
        config.precision = *precision;
    }
    std::vector<int> counts;
    std::stringstream list(argv[2]);
    for (std::string part; std::getline(list, part, ',');) {
        long n = 0;
        if (!whole(part.c_str(), 0, 4096, &n)) {
            std::cerr << "COUNTS: whole numbers from 0 (libtorch's default) to 4096, comma-separated\n";
            return 2;
        }
        counts.push_back(int(n));
    }

    reef::Engine engine;
    reef::SynthesisRequest request;
    request.text = "The same words at every thread count, so that only the threads differ.";
    request.sampling.seed = 7;
    request.sampling.max_new_frames = int(frames);
    request.stream_chunk_frames = 16;  // as the studio plays: the codec decodes while generation goes on
    for (int n : counts) {
        config.cpu_threads = n;
        const reef::Result<reef::ModelInfo> info = engine.load(config);
        if (!info) {
            std::cerr << "cannot load " << config.model_dir << " with " << n << " threads: " << info.error().to_string() << "\n";
            return 1;
        }
        std::vector<double> rates;
        for (long r = 0; r <= repeats; ++r) {  // run 0 warms up
            const reef::Result<reef::SynthesisResult> result = engine.synthesize(request, {});
            if (!result) {
                std::cerr << "synthesis failed: " << result.error().to_string() << "\n";
                return 1;
            }
            const reef::RunMetrics& m = result->metrics;
            if (r > 0 && m.generation_ms > 0) rates.push_back(1000.0 * m.frames / m.generation_ms);
        }
        std::sort(rates.begin(), rates.end());
        std::cout << "threads=" << n << " in_effect=" << info->cpu_threads << " frames_per_s=" << rates[rates.size() / 2]
                  << " process_threads=" << process_threads() << std::endl;
    }
    return 0;
}
