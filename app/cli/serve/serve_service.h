// reef-cli serve's engine side: one engine thread owns the Engine (all libtorch work stays on it)
// and takes jobs from a bounded queue; HTTP handler threads submit jobs and read each job's audio
// as it is made. A full queue is refused at once, never waited on.
// With a batch size other than 1 (issue #27), the jobs waiting when the engine thread becomes free
// decode together, up to that many, through Engine::synthesize_batch: each streams and ends on its
// own, a client that goes away cancels its job alone; jobs arriving meanwhile form the next batch.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "reef/engine.h"

namespace reef::cli {

// One request's life: what to make, then the audio pieces, the end and any error.
class ServeJob {
public:
    SynthesisRequest request;
    // Reference clips as the client sent them (file bytes), with their transcripts: decoded and
    // encoded into codes on the engine thread.
    std::vector<std::pair<std::string, std::string>> clips;
    // After synthesis: the tempo (1 = as made; another speed needs the whole take, so such a job
    // is decoded whole and streams as one piece) and a linear gain applied to every piece.
    double speed = 1.0;
    double gain = 1.0;

    // Engine thread. push applies the gain (clipped to [-1, 1]).
    void push(std::vector<float> samples);
    void finish(std::optional<EngineError> error);
    // Handler threads: waits for the next piece; nullopt once the job has ended and nothing is left.
    std::optional<std::vector<float>> next();
    // The error the job ended with, once next() returned nullopt.
    std::optional<EngineError> error() const;
    void cancel() { m_cancelled = true; m_cv.notify_all(); }
    bool cancelled() const { return m_cancelled; }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<float>> m_pieces;
    bool m_done = false;
    std::optional<EngineError> m_error;
    std::atomic<bool> m_cancelled{false};
};

class ServeService {
public:
    // Loads the model on the engine thread; load_result() waits for it and says how that went.
    // batch_size: jobs decoding together (1 = one at a time, 0 = auto: as many as memory allows).
    ServeService(const EngineConfig& config, int queue_limit, int batch_size = 1);
    ~ServeService();
    Result<ModelInfo> load_result() const;
    // Queues the job; false when queue_limit jobs are already waiting or running.
    bool submit(const std::shared_ptr<ServeJob>& job);
    int queue_limit() const { return m_limit; }

private:
    void run(EngineConfig config);
    // The job's request with its clips encoded into references; nullopt when that failed (the job
    // has then ended with the reason).
    std::optional<SynthesisRequest> prepare(ServeJob& job);
    void serve_one(ServeJob& job);
    void serve_batch(const std::vector<std::shared_ptr<ServeJob>>& jobs);

    int m_limit;
    int m_batch;   // the most jobs taken at once (0 = auto: as many as the engine's auto batch)
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::shared_ptr<ServeJob>> m_queue;
    std::vector<std::shared_ptr<ServeJob>> m_running;
    int m_busy = 0;   // queued + running
    bool m_stop = false;
    bool m_loaded = false;
    std::optional<Result<ModelInfo>> m_load;
    mutable std::condition_variable m_load_cv;
    std::unique_ptr<Engine> m_engine;
    std::thread m_thread;
};

}  // namespace reef::cli
