#include "serve/serve_service.h"

#include "audio/audio_error.h"
#include "audio/resample.h"
#include "audio/wav_file.h"

namespace reef::cli {

void ServeJob::push(std::vector<float> samples) {
    if (samples.empty()) return;
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

ServeService::ServeService(const EngineConfig& config, int queue_limit) : m_limit(queue_limit) {
    m_thread = std::thread([this, config] { run(config); });
}

ServeService::~ServeService() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        for (auto& job : m_queue) job->cancel();
        if (m_running) m_running->cancel();   // stops at its next frame: shutting down waits for no one
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
    for (;;) {
        std::shared_ptr<ServeJob> job;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_stop && m_queue.empty()) break;
            job = m_queue.front();
            m_queue.pop_front();
            m_running = job;
            if (m_stop) job->cancel();
        }
        serve_one(*job);
        std::lock_guard lock(m_mutex);
        m_running.reset();
        --m_busy;
    }
    m_engine.reset();   // libtorch's objects die on the thread that made them
}

void ServeService::serve_one(ServeJob& job) {
    if (job.cancelled()) return job.finish(EngineError{ErrorCode::Cancelled, "the client went away", {}});
    SynthesisRequest request = job.request;
    for (const auto& [bytes, text] : job.clips) {
        std::vector<float> mono;
        try {
            const audio::AudioData clip = audio::read_audio_bytes(bytes, "the reference clip", 30.0);
            mono = audio::mix_to_mono(clip.samples, clip.channels);
            if (clip.sample_rate != kSampleRate) mono = audio::resample(mono, clip.sample_rate, kSampleRate);
        } catch (const audio::AudioError& e) {
            return job.finish(EngineError{ErrorCode::InvalidArgument, e.what(), {}});
        }
        Result<Codes> codes = m_engine->encode_reference(mono);
        if (!codes) return job.finish(codes.error());
        request.references.push_back(ReferenceVoice{text, {}, std::move(*codes)});
    }
    Callbacks cb;
    const bool streaming = request.stream_chunk_frames > 0;
    if (streaming) cb.on_audio_chunk = [&](const AudioChunk& c) { job.push(c.samples); };
    cb.should_abort = [&] { return job.cancelled(); };
    Result<SynthesisResult> result = m_engine->synthesize(request, cb);
    if (!result) return job.finish(result.error());
    if (!streaming) job.push(std::move(result->audio));
    job.finish(std::nullopt);
}

}  // namespace reef::cli
