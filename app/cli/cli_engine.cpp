#include "cli_engine.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

namespace reef::cli {
namespace {
std::atomic<bool> g_interrupted{false};
}

void fail(const EngineError& error, int exit_code) {
    std::cerr << "error: " << error.message << "\n";
    if (!error.hint.empty()) std::cerr << "hint: " << error.hint << "\n";
    throw CLI::RuntimeError(exit_code);
}

void fail(const std::string& message, int exit_code) {
    std::cerr << "error: " << message << "\n";
    throw CLI::RuntimeError(exit_code);
}

ModelInfo load_or_fail(TtsBackend& engine, const EngineConfig& config) {
    auto info = unwrap(engine.load(config));
    if (info.model_type.rfind("remote:", 0) == 0) {
        std::cerr << "connected to " << info.name << "\n";
        return info;
    }
    std::cerr << "loaded " << info.name << " (" << info.model_type << ", " << info.n_parameters / 1e6
              << " M parameters" << (info.codec_parameters ? ", codec " + std::to_string(double(info.codec_parameters) / 1e6) + " M" : "")
              << ") on " << to_string(info.device) << " " << to_string(info.precision)
              << (info.weights.empty() ? "" : " with " + info.weights + " weights") << ", "
              << double(info.weight_bytes) / 1e9 << " GB of weights\n";
    if (!info.codec_dir.empty())
        std::cerr << "note: the codec is " << info.codec_dir << "'s (this folder has no codec.pth; fish-speech's "
                  << "quantize.py leaves it out of its copies, and that folder holds the same config.json)\n";
    if (info.is_demo) std::cerr << "note: this is a demo model with random weights: its audio is noise\n";
    return info;
}

void print_metrics(const RunMetrics& m) {
    if (m.stop_reason == "server") {   // the remote backend: what the client saw of the server
        std::fprintf(stderr,
                     "%.2f s audio | first byte %.1f ms | first audio %.1f ms | total %.1f ms | RTF %.3f (%.2fx real "
                     "time), measured here\n",
                     m.audio_seconds, m.cold_first_frame_ms, m.time_to_first_audio_ms, m.total_ms, m.real_time_factor,
                     m.real_time_factor > 0 ? 1.0 / m.real_time_factor : 0.0);
        return;
    }
    std::fprintf(stderr,
                 "frames %d (%.2f s audio) | prompt %d tokens | prefill %.1f ms | first frame %.1f ms | "
                 "first audio %.1f ms\nwarm %.2f frames/s | decode %.1f ms | codec %.1f ms | total %.1f ms | "
                 "RTF %.3f (%.2fx real time) | peak RSS %.1f MiB | stop: %s\n",
                 m.frames, m.audio_seconds, m.prompt_tokens, m.prefill_ms, m.cold_first_frame_ms,
                 m.time_to_first_audio_ms, m.warm_frames_per_s, m.decode_ms, m.codec_ms, m.total_ms,
                 m.real_time_factor, m.real_time_factor > 0 ? 1.0 / m.real_time_factor : 0.0,
                 double(m.memory.cpu_peak_rss_bytes) / (1024.0 * 1024.0), m.stop_reason.c_str());
    if (!m.compiled_package.empty())
        std::fprintf(stderr, "compiled decode step: %s (%s; package load %.0f ms)\n", m.compiled_package.c_str(),
                     ((m.compile_cached ? "from the cache; compiled in " : "compiled in ") +
                      std::to_string(int(m.compile_s + 0.5)) + " s")
                         .c_str(),
                     m.package_load_ms);
    // Frames over the wall time they really took (first to last frame), codec stalls included:
    // equals the warm rate only when nothing else held up generation.
    if (m.frames > 1 && m.generation_ms > m.cold_first_frame_ms)
        std::fprintf(stderr, "generation %.1f ms (%.2f frames/s wall, first to last frame) | waited for the codec %.1f ms\n",
                     m.generation_ms, double(m.frames - 1) * 1000.0 / (m.generation_ms - m.cold_first_frame_ms),
                     m.codec_wait_ms);
    if (const std::string threads = describe_step_threads(m.step_threads); !threads.empty())
        std::fprintf(stderr, "decode threads: %s (fewer measured faster while other programs kept cores busy)\n",
                     threads.c_str());
    for (const auto& b : m.backends)
        std::fprintf(stderr, "  attention %-13s %-10s x%lld  %s%s\n", to_string(b.site), to_string(b.backend),
                     (long long)b.calls, b.shape.c_str(), b.compiled ? " (read from the compiled package)" : "");
}

std::function<void(const std::string&)> status_printer() {
    struct State {
        std::string last;
        std::chrono::steady_clock::time_point printed{};
    };
    auto st = std::make_shared<State>();
    return [st](const std::string& line) {
        const std::string stem = line.substr(0, line.rfind(" ("));
        const auto now = std::chrono::steady_clock::now();
        if (stem == st->last && now - st->printed < std::chrono::seconds(10)) return;
        st->last = stem;
        st->printed = now;
        std::cerr << line << "\n";
    };
}

bool interrupted() { return g_interrupted.load(std::memory_order_relaxed); }

void install_interrupt_handler() {
    std::signal(SIGINT, [](int) { g_interrupted.store(true); });
}

}  // namespace reef::cli
