#include "serve/serve_service.h"

#include <algorithm>
#include <cmath>

#include "audio/audio_error.h"
#include "audio/resample.h"
#include "audio/time_stretch.h"
#include "audio/wav_file.h"

#include <iostream>

namespace reef::cli {

void ServeJob::push(std::vector<float> samples) {
    if (samples.empty()) return;
    if (gain != 1.0)
        for (float& v : samples) v = std::clamp(float(double(v) * gain), -1.0f, 1.0f);
    {
        std::lock_guard lock(m_mutex);
        m_pieces.push_back(std::move(samples));
    }
    m_cv.notify_all();
}

void ServeJob::finish(std::optional<EngineError> error) {
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_error = std::move(error);
    }
    m_cv.notify_all();
}

std::optional<std::vector<float>> ServeJob::next() {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return !m_pieces.empty() || m_done; });
    if (m_pieces.empty()) return std::nullopt;
    std::vector<float> out = std::move(m_pieces.front());
    m_pieces.pop_front();
    return out;
}

std::optional<EngineError> ServeJob::error() const {
    std::lock_guard lock(m_mutex);
    return m_error;
}

ServeService::ServeService(const EngineConfig& config, int queue_limit, int batch_size)
    : m_limit(queue_limit), m_batch(batch_size) {
    m_thread = std::thread([this, config] { run(config); });
}

ServeService::~ServeService() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        for (auto& job : m_queue) job->cancel();
        for (auto& job : m_running) job->cancel();   // stops at its next frame: shutting down waits for no one
    }
    m_cv.notify_all();
    m_thread.join();
}

Result<ModelInfo> ServeService::load_result() const {
    std::unique_lock lock(m_mutex);
    m_load_cv.wait(lock, [&] { return m_load.has_value(); });
    return *m_load;
}

bool ServeService::submit(const std::shared_ptr<ServeJob>& job) {
    {
        std::lock_guard lock(m_mutex);
        if (m_busy >= m_limit || m_stop || !m_loaded) return false;
        ++m_busy;
        m_queue.push_back(job);
    }
    m_cv.notify_all();
    return true;
}

void ServeService::run(EngineConfig config) {
    m_engine = std::make_unique<Engine>();
    Result<ModelInfo> loaded = m_engine->load(config);
    {
        std::lock_guard lock(m_mutex);
        m_loaded = loaded.ok();
        m_load = std::move(loaded);
    }
    m_load_cv.notify_all();
    const size_t take = size_t(m_batch > 0 ? m_batch : TtsBackend::kAutoMaxBatch);
    for (;;) {
        std::vector<std::shared_ptr<ServeJob>> jobs;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_stop && m_queue.empty()) break;
            while (!m_queue.empty() && jobs.size() < take) {
                jobs.push_back(m_queue.front());
                m_queue.pop_front();
            }
            m_running = jobs;
            if (m_stop)
                for (auto& job : jobs) job->cancel();
        }
        if (jobs.size() == 1)
            serve_one(*jobs.front());
        else
            serve_batch(jobs);
        std::lock_guard lock(m_mutex);
        m_running.clear();
        m_busy -= int(jobs.size());
    }
    m_engine.reset();   // libtorch's objects die on the thread that made them
}

namespace {

// Ends the job with the engine's answer: its error, or (when it did not stream) the whole audio.
void end_job(ServeJob& job, Result<SynthesisResult> result) {
    if (!result) return job.finish(result.error());
    if (job.request.stream_chunk_frames <= 0) {
        try {
            job.push(job.speed == 1.0 ? std::move(result->audio) : audio::change_tempo(result->audio, kSampleRate, job.speed));
        } catch (const audio::AudioError& e) {
            return job.finish(EngineError{ErrorCode::Internal, e.what(), {}});
        }
    }
    job.finish(std::nullopt);
}

}  // namespace

std::optional<SynthesisRequest> ServeService::prepare(ServeJob& job) {
    if (job.cancelled()) {
        job.finish(EngineError{ErrorCode::Cancelled, "the client went away", {}});
        return std::nullopt;
    }
    SynthesisRequest request = job.request;
    for (const auto& [bytes, text] : job.clips) {
        std::vector<float> mono;
        try {
            const audio::AudioData clip = audio::read_audio_bytes(bytes, "the reference clip", 30.0);
            mono = audio::mix_to_mono(clip.samples, clip.channels);
            if (clip.sample_rate != kSampleRate) mono = audio::resample(mono, clip.sample_rate, kSampleRate);
        } catch (const audio::AudioError& e) {
            job.finish(EngineError{ErrorCode::InvalidArgument, e.what(), {}});
            return std::nullopt;
        }
        Result<Codes> codes = m_engine->encode_reference(mono);
        if (!codes) {
            job.finish(codes.error());
            return std::nullopt;
        }
        request.references.push_back(ReferenceVoice{text, {}, std::move(*codes)});
    }
    return request;
}

void ServeService::serve_batch(const std::vector<std::shared_ptr<ServeJob>>& jobs) {
    // Request id = 1 + the job's index here: the callbacks find their job by it.
    std::vector<SynthesisRequest> requests;
    for (size_t i = 0; i < jobs.size(); ++i) {
        std::optional<SynthesisRequest> r = prepare(*jobs[i]);
        if (!r) continue;
        r->id = uint64_t(i + 1);
        requests.push_back(std::move(*r));
    }
    if (requests.empty()) return;
    std::cerr << "batch: " << requests.size() << " requests decoding together\n";
    auto job_of = [&](uint64_t id) -> ServeJob& { return *jobs[size_t(id - 1)]; };
    Callbacks cb;
    // From the requests' codec workers: ServeJob::push is thread-safe.
    cb.on_audio_chunk = [&](const AudioChunk& c) {
        if (job_of(c.request_id).request.stream_chunk_frames > 0) job_of(c.request_id).push(c.samples);
    };
    const auto cancel_request = [&](uint64_t id) { return job_of(id).cancelled(); };
    (void)m_engine->synthesize_batch(requests, m_batch, cb, cancel_request,
                                     [&](uint64_t id, const Result<SynthesisResult>& result) { end_job(job_of(id), result); });
}

void ServeService::serve_one(ServeJob& job) {
    std::optional<SynthesisRequest> prepared = prepare(job);
    if (!prepared) return;
    SynthesisRequest request = std::move(*prepared);
    Callbacks cb;
    if (request.stream_chunk_frames > 0) cb.on_audio_chunk = [&](const AudioChunk& c) { job.push(c.samples); };
    cb.should_abort = [&] { return job.cancelled(); };
    end_job(job, m_engine->synthesize(request, cb));
}

}  // namespace reef::cli
