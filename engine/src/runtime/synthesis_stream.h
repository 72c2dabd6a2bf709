// The streaming half of a synthesis request, shared by run_synthesis and run_synthesis_batch:
// the audio streamer (chunks of frames through the codec, on the codec worker when enabled) and
// the frame observer (forwards columns, feeds the streamer, sends throttled live samples).
#pragma once
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "nn/attention.h"
#include "runtime/codec_worker.h"
#include "runtime/device.h"
#include "base/perf.h"
#include "runtime/synthesis.h"
#include "text2semantic/prompt_builder.h"

namespace reef {

inline constexpr double kPerfIntervalMs = 50;     // live samples at most ~20 per second
inline constexpr int64_t kFirstChunkFrames = 4;   // 186 ms of audio

// The request's reference voices as prompt parts (their codes must be encoded already).
std::vector<PromptReference> prompt_references(const Pipeline& p, const SynthesisRequest& r);
// The request's text batches (S2: split by chunk_length; S1: the whole text).
std::vector<std::string> text_batches(const Pipeline& p, const SynthesisRequest& r);
// The prompt of one text batch (generate_long's rules): S1 an interleave prompt of the references
// and `text`; S2 `text` added to the conversation, whose whole history is the prompt. -> (N+1, T)
at::Tensor text_batch_prompt(const Pipeline& p, const std::vector<PromptReference>& refs, S2Conversation* conversation,
                             const std::string& text);
// ReefError(InvalidArgument) naming the batch when its prompt leaves no room in max_seq_len.
void require_prompt_fits(const Pipeline& p, int64_t prompt_len, size_t batch_index);
// The frames a batch whose prompt is prompt_len tokens may generate (the request's limit, or up to max_seq_len).
int64_t max_new_frames(const Pipeline& p, const SynthesisRequest& r, int64_t prompt_len);
// validate_request, and a codec when the request wants audio.
void check_runnable(const Pipeline& p, const SynthesisRequest& r, const RunOptions& o);

inline CodecWorkerOptions codec_worker_options(const EngineConfig& c) {
    CodecWorkerOptions o;
    o.threads = c.codec_threads > 0 ? c.codec_threads : at::get_num_threads();  // the generation thread's
    o.idle_priority = c.codec_idle_priority;
    o.jobs_at_normal_priority = 1;  // the first chunk: audio starts as early as it did inline
    if (c.device == DeviceKind::Cuda) o.cuda_device = c.device_index;
    return o;
}

// Decodes pending frames into audio chunks as generation goes (docs/decode-performance.md). With the codec
// worker (EngineConfig::codec_worker), the generation thread only hands each chunk's host codes
// over; decoding, on_audio_chunk and the audio buffer belong to the worker until finish() joins it.
// Without it, the same chunk job runs inline, between frames.
class AudioStreamer {
public:
    AudioStreamer(const Pipeline& p, const SynthesisRequest& r, const Callbacks& cb, const Stopwatch& clock)
        : m_codec(p.codec.get()), m_request(r), m_cb(cb), m_clock(clock) {
        // Streamed when asked and someone listens, or where a codec worker overlaps the chunks with
        // generation; else decoded whole after the last frame (SynthesisRequest::listened_live).
        const bool worker = codec_worker_enabled(p.config);
        if (m_codec && r.decode_audio && r.stream_chunk_frames > 0 && (r.listened_live || worker)) {
            m_stream = m_codec->streaming_decoder();
            if (worker) m_worker = std::make_unique<CodecWorker>(codec_worker_options(p.config));
        }
    }
    void add_frame(const std::vector<int32_t>& column) {
        m_pending.insert(m_pending.end(), column.begin() + 1, column.end());
        ++m_pending_frames;
        // The first chunk is short so audio starts early; later chunks amortise the decoder's context.
        const int64_t target = m_flushed == 0 ? std::min<int64_t>(kFirstChunkFrames, m_request.stream_chunk_frames)
                                              : m_request.stream_chunk_frames;
        // A cancel asked for during this frame skips the chunk: its audio would be thrown away, and
        // decoding it first would make the cancel wait for the codec as well as the frame.
        if (m_stream && m_pending_frames >= target && !(m_cb.should_abort && m_cb.should_abort())) flush(false);
    }
    // Whole-utterance decode when not streaming; the final chunk when streaming. Joins the codec
    // worker: its audio, times and backends are this thread's again; its error is re-thrown here.
    void finish(const at::Tensor& all_codes) {
        if (!m_codec || !m_request.decode_audio) return;
        if (m_stream) {
            flush(true);
            if (m_worker) {
                // The tail (final chunk plus backlog) can take a while at idle priority: keep
                // honouring Stop while it runs.
                if (!m_worker->drain(m_cb.should_abort))
                    throw ReefError(ErrorCode::Cancelled, "synthesis was cancelled while the last audio was decoding");
                BackendRecorder::current().absorb(m_worker_backends);
            }
            return;
        }
        Stopwatch w;
        at::Tensor pcm = all_codes.size(1) > 0 ? m_codec->decode(all_codes) : at::empty({0});
        m_codec_ms += w.ms();
        emit(pcm, true);
    }
    double codec_ms() const { return m_codec_ms; }
    double first_audio_ms() const { return m_first_audio_ms; }
    std::vector<float>& audio() { return m_audio; }
    // The codec window's backend as last seen on the worker, for live samples (Unknown inline:
    // then the generation thread's own recorder has it).
    bool on_worker() const { return m_worker != nullptr; }
    SdpaBackend worker_codec_backend() const { return m_worker_codec_backend.load(); }

private:
    void flush(bool last) {
        auto job = [this, codes = std::move(m_pending), frames = m_pending_frames, last] { decode(codes, frames, last); };
        m_pending = {};
        m_pending_frames = 0;
        ++m_flushed;
        if (m_worker)
            m_worker->post(std::move(job));  // re-throws an earlier chunk's error
        else
            job();
    }
    // pending: frame-major, `frames` frames of N codes. Runs on the worker when there is one.
    void decode(const std::vector<int32_t>& pending, int64_t frames, bool last) {
        Stopwatch w;
        at::Tensor pcm = at::empty({0});
        if (frames > 0) {
            const int64_t n = int64_t(pending.size()) / frames;
            at::Tensor codes = at::tensor(at::ArrayRef<int32_t>(pending), at::kInt).view({frames, n}).t().to(at::kLong);  // (N, t)
            pcm = m_stream->push(codes);
        }
        if (last) m_stream->finish();
        m_codec_ms += w.ms();
        if (m_worker) {
            m_worker_codec_backend.store(BackendRecorder::current().last(CallSite::CodecWindow));
            if (last) m_worker_backends = BackendRecorder::current().uses();
            if (m_worker->cancelled()) return;  // the request is being torn down: emit nothing more
        }
        emit(pcm, last);
    }
    void emit(const at::Tensor& pcm, bool last) {
        const at::Tensor c = pcm.to(at::kFloat).contiguous();
        AudioChunk chunk;
        chunk.request_id = m_request.id;
        chunk.first_sample = int64_t(m_audio.size());
        chunk.samples.assign(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
        chunk.last = last;
        m_audio.insert(m_audio.end(), chunk.samples.begin(), chunk.samples.end());
        if (!chunk.samples.empty() && m_first_audio_ms == 0) m_first_audio_ms = m_clock.ms();
        if (m_cb.on_audio_chunk) m_cb.on_audio_chunk(chunk);
    }

    const Codec* m_codec;
    const SynthesisRequest& m_request;
    const Callbacks& m_cb;
    const Stopwatch& m_clock;
    std::unique_ptr<StreamingDecoder> m_stream;
    std::vector<int32_t> m_pending;  // frame-major: t frames of N codes (generation thread)
    int64_t m_pending_frames = 0;
    int64_t m_flushed = 0;           // chunks handed to the codec so far
    // Written by the chunk jobs (on the worker when there is one); read after finish() joined it.
    std::vector<float> m_audio;
    double m_codec_ms = 0, m_first_audio_ms = 0;
    std::vector<BackendUse> m_worker_backends;
    std::atomic<SdpaBackend> m_worker_codec_backend{SdpaBackend::Unknown};
    // Last, so it is joined (destroyed) before anything its jobs touch: an exception or a cancel
    // leaves through here and nothing is emitted after the request returns.
    std::unique_ptr<CodecWorker> m_worker;
};

// Sees every generated column: forwards it, streams its audio and sends throttled live samples.
class FrameObserver {
public:
    FrameObserver(const Pipeline& p, const SynthesisRequest& r, const Callbacks& cb, const RunOptions& o,
                  const Stopwatch& clock, AudioStreamer& audio, RunCapture* capture, RunMetrics& m)
        : m_p(p), m_r(r), m_cb(cb), m_o(o), m_clock(clock), m_audio(audio), m_capture(capture), m_m(m) {}

    void operator()(const std::vector<int32_t>& column, double frame_ms) {
        m_recent_ms[size_t(m_frames) % m_recent_ms.size()] = frame_ms;
        if (m_capture) m_capture->main_tokens.push_back(column[0]);
        if (column[0] == m_p.ids.im_end && !m_o.suppress_im_end) return;  // the stop column is not audio
        if (m_frames == 0) m_m.cold_first_frame_ms = m_clock.ms();
        if (m_cb.on_frame) m_cb.on_frame(m_r.id, m_frames, column);
        ++m_frames;
        m_audio.add_frame(column);
        const double now = m_clock.ms();
        if (m_cb.on_perf && now - m_last_perf_ms >= kPerfIntervalMs) {
            m_last_perf_ms = now;
            send_perf(now, frame_ms);
        }
    }
    int frames() const { return m_frames; }

private:
    void send_perf(double now, double frame_ms) {
        PerfSample s;
        s.request_id = m_r.id;
        s.frame = m_frames;
        s.t_ms = now;
        // Rate over the last few decode steps (not since the first frame, which would start huge).
        const size_t n_recent = std::min<size_t>(size_t(m_frames), m_recent_ms.size());
        const double sum = std::accumulate(m_recent_ms.begin(), m_recent_ms.begin() + std::ptrdiff_t(n_recent), 0.0);
        s.step_ms = frame_ms;
        s.frames_per_s = sum > 0 ? 1000.0 * double(n_recent) / sum : 0;
        s.memory = query_memory(m_p.config.device);
        for (int site = 0; site < kNumCallSites; ++site) s.backend[site] = BackendRecorder::current().last(CallSite(site));
        if (m_audio.on_worker()) s.backend[size_t(CallSite::CodecWindow)] = m_audio.worker_codec_backend();
        if (m_p.model->device().is_cpu()) {
            // the governor moves on only after this callback: its count is this frame's
            const bool governed = governs_threads(m_p, m_o);
            s.max_threads = at::get_num_threads();
            s.threads = governed ? m_p.thread_governor.threads() : s.max_threads;
        }
        m_cb.on_perf(s);
    }

    const Pipeline& m_p;
    const SynthesisRequest& m_r;
    const Callbacks& m_cb;
    const RunOptions& m_o;
    const Stopwatch& m_clock;
    AudioStreamer& m_audio;
    RunCapture* m_capture;
    RunMetrics& m_m;
    std::array<double, 8> m_recent_ms{};  // ring of the last decode-step times, for the live rate
    double m_last_perf_ms = -kPerfIntervalMs;
    int m_frames = 0;
};


// The end of a request: the last audio (joins the codec worker), codes, and the metrics that
// follow from the frames, audio and clock.
void finish_synthesis(const Pipeline& p, const SynthesisRequest& r, const at::Tensor& codes, AudioStreamer& audio,
                      const FrameObserver& observer, const Stopwatch& clock, SynthesisResult& result);

}  // namespace reef
