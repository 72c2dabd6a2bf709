// reef-cli soak: many syntheses in one process (issue #13). After each one the process's RSS is
// read from /proc/self/status; every Nth synthesis is cancelled from another thread at a varied
// point inside a frame, and the time from that request to synthesize() returning is measured.
// Fails (exit 3) when RSS grew by the limit or more after the warm-up, when a synthesis failed,
// or when a cancelled synthesis decoded more than one frame after the cancel was asked for.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "cli_common.h"
#include "cli_engine.h"

namespace reef::cli {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// VmRSS of /proc/self/status in KiB; -1 where there is no /proc.
long rss_kib() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct SoakOptions {
    EngineFlags engine;
    std::string text = "Reef keeps speaking, run after run, and stops when it is asked to.";
    std::string csv;
    int runs = 200, frames = 32, cancel_every = 10, warmup = 20, stream_chunk = 16;
    double max_growth_pct = 5.0;
    uint64_t seed = 1;
};

// One synthesis's frame times and, when it is to be cancelled, the cancel made from another
// thread: once cancel_after frames have been decoded, the canceller waits a random part of the last
// frame's length (so requests land anywhere inside a frame) and raises the flag.
struct Run {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Clock::time_point> frame_times;  // when each on_frame arrived
    bool done = false;
    std::atomic<bool> requested{false};
    Clock::time_point t_request{};    // written before `requested` is raised
    std::atomic<bool> seen{false};
    Clock::time_point t_seen{};       // should_abort's first true (engine thread)
    std::vector<Clock::time_point> checks;  // should_abort's false answers (engine thread only)
};

struct Row {
    int run = 0;
    std::string outcome;  // finished | cancelled | finished-before-cancel | failed
    int frames = 0;
    double wall_ms = 0;
    long rss = 0;
    int cancel_after = -1;
    double latency_ms = -1, latency_from_abort_ms = -1, frame_ms = 0;
    // The stretch of engine work the request landed in: from the last should_abort check before
    // the request to the first one after it (a decode step, or a streamed audio chunk's decode).
    double inflight_ms = -1;
    int frames_after_request = -1;
    std::string error;
};

Row run_one(Engine& engine, const SoakOptions& o, int index, int cancel_after, double delay_fraction) {
    SynthesisRequest req;
    req.id = uint64_t(index) + 1;
    req.text = o.text;
    req.sampling.max_new_frames = o.frames;
    req.sampling.seed = o.seed + uint64_t(index);
    req.stream_chunk_frames = o.stream_chunk;
    Run st;
    Callbacks cb;
    cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) {
        std::lock_guard lock(st.mu);
        st.frame_times.push_back(Clock::now());
        st.cv.notify_all();
    };
    cb.should_abort = [&] {
        if (!st.requested.load(std::memory_order_acquire)) {
            st.checks.push_back(Clock::now());
            return false;
        }
        if (!st.seen.load(std::memory_order_relaxed)) {
            st.t_seen = Clock::now();
            st.seen.store(true, std::memory_order_relaxed);
        }
        return true;
    };
    std::thread canceller;
    if (cancel_after >= 0)
        canceller = std::thread([&] {
            std::unique_lock lock(st.mu);
            st.cv.wait(lock, [&] { return st.done || int(st.frame_times.size()) >= cancel_after; });
            if (st.done) return;
            const size_t n = st.frame_times.size();
            const double last_ms = n >= 2 ? ms_between(st.frame_times[n - 2], st.frame_times[n - 1]) : 0;
            lock.unlock();
            std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(delay_fraction * last_ms));
            st.t_request = Clock::now();
            st.requested.store(true, std::memory_order_release);
        });
    const auto t0 = Clock::now();
    Result<SynthesisResult> r = engine.synthesize(req, cb);
    const auto t_return = Clock::now();
    {
        std::lock_guard lock(st.mu);
        st.done = true;
        st.cv.notify_all();
    }
    if (canceller.joinable()) canceller.join();

    Row row;
    row.run = index + 1;
    row.wall_ms = ms_between(t0, t_return);
    row.frames = int(st.frame_times.size());
    row.cancel_after = cancel_after;
    std::vector<double> steps;
    for (size_t i = 1; i < st.frame_times.size(); ++i) steps.push_back(ms_between(st.frame_times[i - 1], st.frame_times[i]));
    row.frame_ms = median(steps);
    if (r.ok()) {
        row.outcome = cancel_after >= 0 ? "finished-before-cancel" : "finished";
    } else if (r.error().code == ErrorCode::Cancelled && st.requested.load()) {
        row.outcome = "cancelled";
        row.latency_ms = ms_between(st.t_request, t_return);
        row.latency_from_abort_ms = st.seen ? ms_between(st.t_seen, t_return) : -1;
        row.frames_after_request =
            int(std::count_if(st.frame_times.begin(), st.frame_times.end(), [&](auto t) { return t > st.t_request; }));
        const auto after = std::find_if(st.checks.begin(), st.checks.end(), [&](auto t) { return t > st.t_request; });
        if (after != st.checks.begin() && st.seen) row.inflight_ms = ms_between(*std::prev(after), st.t_seen);
    } else {
        row.outcome = "failed";
        row.error = r.error().to_string();
    }
    row.rss = rss_kib();
    return row;
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
    std::ofstream out(path + ".part");
    out << "run,outcome,frames,wall_ms,rss_kib,cancel_after_frame,frame_ms,latency_ms,latency_from_abort_ms,"
           "frames_after_request,inflight_ms\n";
    for (const Row& r : rows)
        out << r.run << "," << r.outcome << "," << r.frames << "," << r.wall_ms << "," << r.rss << ","
            << r.cancel_after << "," << r.frame_ms << "," << r.latency_ms << "," << r.latency_from_abort_ms << ","
            << r.frames_after_request << "," << r.inflight_ms << "\n";
    out.close();
    if (!out || std::rename((path + ".part").c_str(), path.c_str()) != 0) fail("cannot write " + path);
}

void soak(const SoakOptions& o) {
    if (o.runs < 1 || o.frames < 4) fail("give --runs >= 1 and --frames >= 4");
    Engine engine;
    const ModelInfo info = load_or_fail(engine, o.engine.to_config());
    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> part(0.0, 1.0);
    std::vector<Row> rows;
    int cancels = 0;
    const auto start = Clock::now();
    for (int i = 0; i < o.runs; ++i) {
        const bool cancel = o.cancel_every > 0 && (i + 1) % o.cancel_every == 0;
        // Varied points: after frame 2, 7, 12, ... wrapping inside the run's frames (two frames at
        // least, so the canceller knows a frame's length).
        const int after = cancel ? 2 + (5 * cancels++) % std::max(1, o.frames - 4) : -1;
        rows.push_back(run_one(engine, o, i, after, part(rng)));
        const Row& r = rows.back();
        std::fprintf(stderr, "run %3d %-22s frames %3d  %7.1f ms  RSS %.1f MiB", r.run, r.outcome.c_str(), r.frames,
                     r.wall_ms, double(r.rss) / 1024.0);
        if (r.outcome == "cancelled")
            std::fprintf(stderr,
                         "  cancel after frame %d: %.2f ms (%.2f frames of %.2f ms; the step it landed in: %.2f ms), "
                         "%d frame(s) after",
                         r.cancel_after, r.latency_ms, r.frame_ms > 0 ? r.latency_ms / r.frame_ms : 0.0, r.frame_ms,
                         r.inflight_ms, r.frames_after_request);
        if (!r.error.empty()) std::fprintf(stderr, "  %s", r.error.c_str());
        std::fprintf(stderr, "\n");
    }
    const double total_s = ms_between(start, Clock::now()) / 1000.0;
    if (!o.csv.empty()) write_csv(o.csv, rows);

    auto count = [&](const char* what) {
        return std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r.outcome == what; });
    };
    std::printf("soak: %s (%s), %d syntheses of up to %d frames in %.1f s\n", info.name.c_str(),
                to_string(info.precision), o.runs, o.frames, total_s);
    std::printf("outcomes: %ld finished, %ld cancelled, %ld finished before the cancel, %ld failed\n",
                long(count("finished")), long(count("cancelled")), long(count("finished-before-cancel")),
                long(count("failed")));
    bool ok = count("failed") == 0;
    const long first = rows.front().rss, last = rows.back().rss;
    std::printf("RSS: after run 1 %.1f MiB", double(first) / 1024.0);
    if (o.runs > o.warmup && o.warmup >= 1) {
        const long base = rows[size_t(o.warmup - 1)].rss;
        const double growth = base > 0 ? 100.0 * double(last - base) / double(base) : 0.0;
        std::printf(", after run %d %.1f MiB, after run %d %.1f MiB: growth after warm-up %+.2f %% (limit %.1f %%)\n",
                    o.warmup, double(base) / 1024.0, o.runs, double(last) / 1024.0, growth, o.max_growth_pct);
        if (growth >= o.max_growth_pct) ok = false;
    } else {
        std::printf(", after run %d %.1f MiB (no growth figure: --runs must exceed --warmup)\n", o.runs,
                    double(last) / 1024.0);
    }
    std::vector<double> lat, lat_abort, lat_frames, frame_ms, lat_inflight;
    int worst_after = 0;
    for (const Row& r : rows) {
        if (r.outcome != "cancelled") continue;
        lat.push_back(r.latency_ms);
        if (r.latency_from_abort_ms >= 0) lat_abort.push_back(r.latency_from_abort_ms);
        if (r.frame_ms > 0) lat_frames.push_back(r.latency_ms / r.frame_ms);
        frame_ms.push_back(r.frame_ms);
        if (r.inflight_ms > 0) lat_inflight.push_back(r.latency_ms / r.inflight_ms);
        worst_after = std::max(worst_after, r.frames_after_request);
    }
    if (!lat.empty()) {
        std::printf("cancel latency (request -> synthesize returned), %zu cancels: median %.2f ms, max %.2f ms; "
                    "in frames (of the run's median frame): median %.3f, max %.3f; median frame %.2f ms\n",
                    lat.size(), median(lat), *std::max_element(lat.begin(), lat.end()), median(lat_frames),
                    lat_frames.empty() ? 0.0 : *std::max_element(lat_frames.begin(), lat_frames.end()),
                    median(frame_ms));
        if (!lat_abort.empty())
            std::printf("cancel latency (should_abort true -> synthesize returned): median %.3f ms, max %.3f ms\n",
                        median(lat_abort), *std::max_element(lat_abort.begin(), lat_abort.end()));
        if (!lat_inflight.empty())
            std::printf("cancel latency / length of the step it landed in (should_abort check to check): "
                        "median %.3f, max %.3f\n",
                        median(lat_inflight), *std::max_element(lat_inflight.begin(), lat_inflight.end()));
        std::printf("frames decoded after the cancel request: at most %d\n", worst_after);
        if (worst_after > 1) ok = false;
    }
    std::printf("soak: %s\n", ok ? "PASS" : "FAIL");
    if (!ok) throw CLI::RuntimeError(3);
}

}  // namespace

void register_soak(CLI::App& app) {
    auto o = std::make_shared<SoakOptions>();
    auto* cmd = app.add_subcommand("soak", "many syntheses in one process: RSS growth and cancel latency");
    o->engine.add_to(cmd);
    cmd->add_option("--runs", o->runs, "syntheses")->capture_default_str();
    cmd->add_option("--frames", o->frames, "max new frames per synthesis")->capture_default_str();
    cmd->add_option("--cancel-every", o->cancel_every, "cancel every Nth synthesis mid-run (0 = none)")
        ->capture_default_str();
    cmd->add_option("--warmup", o->warmup, "RSS growth is measured from after this run to the last")
        ->capture_default_str();
    cmd->add_option("--max-growth", o->max_growth_pct, "fail when RSS grew by this many percent or more")
        ->capture_default_str();
    cmd->add_option("--stream-chunk", o->stream_chunk, "frames per streamed audio chunk (0 = decode at the end)")
        ->capture_default_str();
    cmd->add_option("--text,-t", o->text, "text of every synthesis");
    cmd->add_option("--seed", o->seed, "first sampling seed (run i uses seed + i) and the cancel timing's seed")
        ->capture_default_str();
    cmd->add_option("--csv", o->csv, "write one row per synthesis");
    cmd->callback([o] { soak(*o); });
}

}  // namespace reef::cli
