#include "fake_backend.h"

#include "reef/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace reef_test {
using namespace reef;

namespace {
void sleepMs(int ms) {
    if (ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}
}  // namespace

std::vector<float> fakeTone(int64_t first_sample, size_t n, float freq) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = 0.3f * std::sin(2.0f * float(M_PI) * freq * float(first_sample + int64_t(i)) / float(kSampleRate));
    return out;
}

Result<ModelInfo> FakeBackend::load(const EngineConfig& config) {
    ++m_script->loads;
    sleepMs(m_script->load_delay_ms);
    const auto let_go = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (m_script->hold_load && std::chrono::steady_clock::now() < let_go)
        sleepMs(1);
    ++m_script->loads_done;
    if (m_script->load_error) {
        m_loaded = false;
        return *m_script->load_error;
    }
    m_loaded = true;
    ModelInfo info = m_script->info;
    info.model_dir = config.model_dir;
    info.device = config.device;
    info.precision = config.precision;
    return info;
}

std::vector<Result<SynthesisResult>> FakeBackend::synthesize_batch(const std::vector<SynthesisRequest>& requests,
                                                                   int max_batch, const Callbacks& callbacks,
                                                                   const std::function<bool(uint64_t)>& cancel_request,
                                                                   const RequestDone& on_done) {
    ++m_script->batch_calls;
    m_script->last_batch_requests = int(requests.size());
    m_script->last_max_batch = max_batch;
    m_script->last_batch_listened = int(std::count_if(requests.begin(), requests.end(), [](const SynthesisRequest& r) { return r.listened_live; }));
    return TtsBackend::synthesize_batch(requests, max_batch, callbacks, cancel_request, on_done);
}

Result<SynthesisResult> FakeBackend::synthesize(const SynthesisRequest& request, const Callbacks& cb) {
    ++m_script->syntheses;
    m_script->last_request_id = request.id;
    m_script->last_listened = request.listened_live ? 1 : 0;
    if (!m_loaded)
        return EngineError{ErrorCode::NotLoaded, "no model is loaded", "load a model first"};
    if (m_script->throw_in_synth)
        throw std::runtime_error("fake backend bug");
    SynthesisResult r;
    r.request_id = request.id;
    r.codes.n_codebooks = 10;
    const int chunk = m_script->chunk_frames;
    const auto t0 = std::chrono::steady_clock::now();
    int f = 0;
    for (; f < m_script->frames; ++f) {
        if (cb.should_abort && cb.should_abort()) {
            ++m_script->aborted;
            return EngineError{ErrorCode::Cancelled, "cancelled at frame " + std::to_string(f), {}};
        }
        sleepMs(f == 0 ? m_script->first_frame_delay_ms + m_script->frame_delay_ms : m_script->frame_delay_ms);
        if (cb.on_frame)
            cb.on_frame(request.id, f, std::vector<int32_t>(10, f % 100));
        if (cb.on_perf) {
            PerfSample s;
            s.request_id = request.id;
            s.frame = f;
            s.t_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            s.step_ms = m_script->frame_delay_ms;
            s.frames_per_s = 1000.0 / std::max(1, m_script->frame_delay_ms) + (f % 5);
            s.memory.cpu_rss_bytes = (200 + f) * int64_t(1) << 20;
            s.backend[0] = SdpaBackend::Math;
            s.backend[1] = f < 4 ? SdpaBackend::Math : SdpaBackend::Flash;
            s.backend[2] = SdpaBackend::Efficient;
            s.backend[3] = SdpaBackend::Manual;
            s.max_threads = 2;
            s.threads = f < 30 ? 2 : 1;  // the thread governor's move, halfway
            cb.on_perf(s);
        }
        if (chunk > 0 && (f + 1) % chunk == 0 && cb.on_audio_chunk && request.decode_audio) {
            AudioChunk c;
            c.request_id = request.id;
            c.first_sample = int64_t(f + 1 - chunk) * kSamplesPerFrame;
            c.samples = fakeTone(c.first_sample, size_t(chunk) * kSamplesPerFrame);
            c.last = f + 1 == m_script->frames;
            cb.on_audio_chunk(c);
        }
    }
    if (m_script->synth_error)
        return *m_script->synth_error;
    r.codes.n_frames = f;
    r.codes.data.assign(size_t(10) * size_t(f), 7);
    if (request.decode_audio)
        r.audio = fakeTone(0, size_t(f) * kSamplesPerFrame);
    // Streaming ends with a partial chunk the loop above did not send.
    if (chunk > 0 && f % chunk != 0 && cb.on_audio_chunk && request.decode_audio) {
        AudioChunk c;
        c.request_id = request.id;
        c.first_sample = int64_t(f - f % chunk) * kSamplesPerFrame;
        c.samples = fakeTone(c.first_sample, size_t(f % chunk) * kSamplesPerFrame);
        c.last = true;
        cb.on_audio_chunk(c);
    }
    RunMetrics& m = r.metrics;
    m.frames = f;
    m.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    m.audio_seconds = double(r.audio.size()) / kSampleRate;
    m.warm_frames_per_s = 1000.0 / std::max(1, m_script->frame_delay_ms);
    m.real_time_factor = m.audio_seconds > 0 ? m.total_ms / 1000.0 / m.audio_seconds : 0;
    m.time_to_first_audio_ms = 12;
    m.stop_reason = "im_end";
    return r;
}

Result<Codes> FakeBackend::encode_reference(const std::vector<float>& mono_44k) {
    ++m_script->encodes;
    if (!m_loaded)
        return EngineError{ErrorCode::NotLoaded, "no codec is loaded", "load a model first"};
    Codes c;
    c.n_codebooks = 10;
    c.n_frames = int(mono_44k.size() / kSamplesPerFrame);
    c.data.assign(size_t(c.n_codebooks) * size_t(c.n_frames), 3);
    return c;
}

// What the real engine says this build and machine can run: a fake with its own list drifted from
// the engine's before (it still called aot-inductor unavailable after the engine compiled it).
DeviceCaps FakeBackend::device_caps() const {
    static const DeviceCaps real = reef::Engine().device_caps();
    return real;
}

BenchReport makeFakeBenchReport(const BenchRequest& request) {
    BenchReport rep;
    rep.reef_version = "0.1.0";
    rep.libtorch_version = "2.13.0";
    rep.device_name = "fake CPU";
    rep.model_name = "fake model";
    rep.model_dir = request.model_dir;
    rep.precision = to_string(request.precision);
    rep.started_at = "2025-01-01T00:00:00Z";
    rep.request = request;
    rep.logit_tolerance = 1e-3;
    for (size_t i = 0; i < request.arms.size(); ++i) {
        ArmResult a;
        a.arm = request.arms[i];
        if (a.arm.sdpa_policy == SdpaPolicy::Flash) {
            a.error = "flash attention needs a CUDA device";
        } else {
            a.ran = true;
            a.warm_frames_per_s = 20.0 + 3.0 * double(i);
            a.cold_first_frame_ms = 300.0 - 10.0 * double(i);
            a.time_to_first_audio_ms = 450.0 - 20.0 * double(i);
            a.prefill_ms = 80;
            a.memory.cpu_peak_rss_bytes = int64_t(512 + 16 * i) << 20;
            a.backends = {{CallSite::SlowDecode, SdpaBackend::Math, 64, "q[1,8,1,64]"},
                          {CallSite::FastDecode, SdpaBackend::Efficient, 640, "q[1,8,1,64]"}};
            a.quality.max_abs_logit_diff = i == size_t(request.reference_arm) ? 0.0 : 2e-4 * double(i);
            a.quality.greedy_agreement = i == size_t(request.reference_arm) ? 1.0 : 0.97;
            a.quality.greedy_exact_prefix = 50;
            a.audio = fakeTone(0, 8192, 330.0f + 20.0f * float(i));
        }
        rep.arms.push_back(std::move(a));
    }
    return rep;
}

Result<BenchReport> FakeBackend::bench(const BenchRequest& request,
                                       const std::function<void(int, const std::string&)>& progress,
                                       const std::function<bool()>& should_abort) {
    FakeBackend& fake = *this;
    ++fake.m_script->benches;
    for (size_t i = 0; i < request.arms.size(); ++i) {
        if (should_abort && should_abort())
            return EngineError{ErrorCode::Cancelled, "bench cancelled", {}};
        if (progress)
            progress(int(i), "running " + request.arms[i].name());
        sleepMs(fake.m_script->bench_delay_ms);
    }
    return makeFakeBenchReport(request);
}

}  // namespace reef_test
