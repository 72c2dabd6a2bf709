#include "remote/load_bench.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <mutex>
#include <set>
#include <thread>

namespace reef {
namespace {

using Clock = std::chrono::steady_clock;

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double at = p * double(v.size() - 1);
    const size_t lo = size_t(std::floor(at)), hi = size_t(std::ceil(at));
    return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string hostname() {
    char buf[256] = {};
    gethostname(buf, sizeof buf - 1);
    return buf;
}

struct Sample {
    bool ok = false;
    double ttfa_ms = 0, total_ms = 0, audio_s = 0;
    std::string error;
};

LoadBenchLevel run_level(const LoadBenchRequest& req, int concurrency, const std::function<bool()>& should_abort) {
    LoadBenchLevel level;
    level.concurrency = concurrency;
    level.requests = req.requests_per_level > 0 ? req.requests_per_level : std::max(4, 2 * concurrency);
    std::atomic<int> next{0};
    std::mutex mutex;
    std::vector<Sample> samples;
    const Clock::time_point t0 = Clock::now();
    std::vector<std::thread> clients;
    for (int c = 0; c < concurrency; ++c)
        clients.emplace_back([&] {
            // Each client its own backend: its own connection, as separate users would have.
            std::unique_ptr<TtsBackend> backend = make_remote_backend(req.profile);
            const Result<ModelInfo> loaded = backend->load(EngineConfig{});
            while (next.fetch_add(1) < level.requests) {
                Sample s;
                if (!loaded) {
                    s.error = loaded.error().message;
                } else {
                    SynthesisRequest r = req.request;
                    Callbacks cb;
                    if (req.stream) cb.on_audio_chunk = [](const AudioChunk&) {};
                    cb.should_abort = should_abort;
                    const Clock::time_point start = Clock::now();
                    const Result<SynthesisResult> out = backend->synthesize(r, cb);
                    s.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                    if (out) {
                        s.ok = true;
                        s.ttfa_ms = out->metrics.time_to_first_audio_ms;
                        s.audio_s = out->metrics.audio_seconds;
                    } else {
                        s.error = out.error().message;
                    }
                }
                std::lock_guard lock(mutex);
                samples.push_back(std::move(s));
            }
        });
    for (auto& t : clients) t.join();
    level.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::vector<double> ttfa, total, rtf, audio;
    double audio_sum = 0;
    std::set<std::string> errors;
    for (const Sample& s : samples) {
        if (!s.ok) {
            ++level.failed;
            errors.insert(s.error);
            continue;
        }
        ++level.ok;
        ttfa.push_back(s.ttfa_ms);
        total.push_back(s.total_ms);
        audio.push_back(s.audio_s);
        audio_sum += s.audio_s;
        if (s.audio_s > 0) rtf.push_back(s.total_ms / 1000.0 / s.audio_s);
    }
    level.errors.assign(errors.begin(), errors.end());
    level.requests_per_s = level.wall_s > 0 ? level.ok / level.wall_s : 0;
    level.audio_s_per_s = level.wall_s > 0 ? audio_sum / level.wall_s : 0;
    level.ttfa_ms_median = percentile(ttfa, 0.5);
    level.ttfa_ms_p90 = percentile(ttfa, 0.9);
    level.total_ms_median = percentile(total, 0.5);
    level.total_ms_p90 = percentile(total, 0.9);
    level.rtf_median = percentile(rtf, 0.5);
    level.audio_s_median = percentile(audio, 0.5);
    return level;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace

Result<LoadBenchReport> run_load_bench(const LoadBenchRequest& req, const std::function<void(const std::string&)>& progress,
                                       const std::function<bool()>& should_abort) {
    if (req.concurrency.empty()) return EngineError{ErrorCode::InvalidArgument, "no concurrency level given", {}};
    for (int c : req.concurrency)
        if (c < 1 || c > 256)
            return EngineError{ErrorCode::InvalidArgument, "concurrency " + std::to_string(c) + " is outside 1..256", {}};
    // The server is asked once first: an unreachable one is one clear error, not N failed requests.
    std::unique_ptr<TtsBackend> probe = make_remote_backend(req.profile);
    const Result<ModelInfo> info = probe->load(EngineConfig{});
    if (!info) return info.error();
    LoadBenchReport report;
    report.server = req.profile.display_name();
    report.flavour = info->model_type.substr(info->model_type.find(':') + 1);
    report.model = info->name;
    report.reef_version = REEF_VERSION;
    report.started_utc = utc_now();
    report.host = hostname();
    report.text = req.request.text;
    report.max_new_frames = req.request.sampling.max_new_frames;
    report.seed = req.request.sampling.seed;
    report.stream = req.stream;
    report.references = int(req.request.references.size());
    for (int c : req.concurrency) {
        if (should_abort && should_abort()) return EngineError{ErrorCode::Cancelled, "bench cancelled", {}};
        if (progress) progress("concurrency " + std::to_string(c) + " …");
        report.levels.push_back(run_level(req, c, should_abort));
        const LoadBenchLevel& l = report.levels.back();
        if (progress)
            progress("concurrency " + std::to_string(c) + ": " + std::to_string(l.ok) + "/" + std::to_string(l.requests) +
                     " ok, " + fixed(l.requests_per_s, 2) + " req/s, " + fixed(l.audio_s_per_s, 2) + " audio-s/s");
    }
    return report;
}

std::string load_bench_markdown(const LoadBenchReport& r) {
    std::string md = "# Serving bench: " + r.server + "\n\n";
    md += "Measured from the client (Reef " + r.reef_version + " on " + r.host + ", " + r.started_utc + ") against a " +
          r.flavour + " server (" + r.model + "). Every request: the same text (" + std::to_string(r.text.size()) +
          " bytes), max " + std::to_string(r.max_new_frames) + " new frames, seed " + std::to_string(r.seed) + ", " +
          (r.stream ? "streamed" : "not streamed") +
          (r.references ? ", with " + std::to_string(r.references) + " reference clip(s)" : std::string()) + ".\n\n";
    md += "| concurrency | requests | ok | failed | req/s | audio-s/s | TTFA median (ms) | TTFA p90 (ms) | "
          "request median (ms) | request p90 (ms) | RTF median | audio per request (s) |\n";
    md += "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const LoadBenchLevel& l : r.levels)
        md += "| " + std::to_string(l.concurrency) + " | " + std::to_string(l.requests) + " | " + std::to_string(l.ok) +
              " | " + std::to_string(l.failed) + " | " + fixed(l.requests_per_s, 3) + " | " + fixed(l.audio_s_per_s, 2) +
              " | " + fixed(l.ttfa_ms_median, 0) + " | " + fixed(l.ttfa_ms_p90, 0) + " | " + fixed(l.total_ms_median, 0) +
              " | " + fixed(l.total_ms_p90, 0) + " | " + fixed(l.rtf_median, 3) + " | " + fixed(l.audio_s_median, 2) + " |\n";
    md += "\nTTFA: request sent to the first audio byte. RTF: request time over its audio length (below 1 = faster than "
          "real time). req/s and audio-s/s: over the level's wall time, first request to last answer.\n";
    for (const LoadBenchLevel& l : r.levels)
        for (const std::string& e : l.errors)
            md += "\n- failures at concurrency " + std::to_string(l.concurrency) + ": " + e;
    if (!md.empty() && md.back() != '\n') md += "\n";
    return md;
}

std::string load_bench_json(const LoadBenchReport& r) {
    nlohmann::json j = {{"kind", "remote"},         {"server", r.server},   {"flavour", r.flavour},
                        {"model", r.model},         {"reef", r.reef_version}, {"started_utc", r.started_utc},
                        {"host", r.host},           {"text", r.text},       {"max_new_frames", r.max_new_frames},
                        {"seed", r.seed},           {"stream", r.stream},   {"references", r.references}};
    nlohmann::json levels = nlohmann::json::array();
    for (const LoadBenchLevel& l : r.levels)
        levels.push_back({{"concurrency", l.concurrency},     {"requests", l.requests},
                          {"ok", l.ok},                       {"failed", l.failed},
                          {"wall_s", l.wall_s},               {"requests_per_s", l.requests_per_s},
                          {"audio_s_per_s", l.audio_s_per_s}, {"ttfa_ms_median", l.ttfa_ms_median},
                          {"ttfa_ms_p90", l.ttfa_ms_p90},     {"total_ms_median", l.total_ms_median},
                          {"total_ms_p90", l.total_ms_p90},   {"rtf_median", l.rtf_median},
                          {"audio_s_median", l.audio_s_median}, {"errors", l.errors}});
    j["levels"] = std::move(levels);
    return j.dump(2) + "\n";
}

}  // namespace reef
