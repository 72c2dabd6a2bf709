// The streaming codec's own thread for one request (issue #14, docs/decode-performance.md).
//
// The threading rule (docs/architecture.md, rule 4) used to read "all libtorch work runs on one engine thread". It
// now reads: the engine owns its threads — the generation thread plus one codec worker per
// request, never the UI. Only the streaming decode of audio chunks moves here, because it is the
// one piece of work that does not feed the next frame: generation hands each chunk's host codes
// over and goes on with the next frame while the codec decodes the previous chunk. Everything
// else (prefill, decode steps, preflight probes, the whole-utterance decode, encode) stays on the
// calling engine thread. The worker exists only inside one synthesis call: it starts with the
// request and is joined before the call returns, so no callback outlives the call.
//
// Jobs run in the order they were posted. The first job that throws stops the worker (later jobs
// are dropped); the exception is kept and re-thrown on the posting thread by post() or drain(),
// unchanged, so the facade maps it exactly as if it had been thrown there.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace reef {

struct EngineConfig;

// Whether streamed audio decodes on a codec worker: EngineConfig::codec_worker when set; unset,
// on where the worker has something to run on — a CUDA device, or a CPU core beside generation's
// threads (cpu_threads, or libtorch's intra-op count when 0) — and off where generation already
// uses every core, since there the worker only competes with it for the same cores.
bool codec_worker_enabled(const EngineConfig& config);

struct CodecWorkerOptions {
    // libtorch intra-op threads of the worker's own OpenMP team (> 0). libgomp keeps the team size
    // per thread, so this does not change the generation thread's team (see codec_worker.cpp).
    int threads = 1;
    // Linux: SCHED_IDLE for the worker and its OpenMP team (else nice 19), so the codec only runs
    // on cycles generation leaves idle — after the first `jobs_at_normal_priority` jobs, which run
    // at normal priority: the first audio chunk should not wait for generation to pause.
    bool idle_priority = true;
    int jobs_at_normal_priority = 0;
    // The CUDA device (cuda:N) the codec's tensors live on, made the worker thread's current device
    // as it is the engine thread's; -1 = not on CUDA.
    int cuda_device = -1;
};

class CodecWorker {
public:
    explicit CodecWorker(CodecWorkerOptions options);
    ~CodecWorker();  // cancel()
    CodecWorker(const CodecWorker&) = delete;
    CodecWorker& operator=(const CodecWorker&) = delete;

    // Queues a job; re-throws here the exception of an earlier job that failed (so generation
    // stops at its next frame instead of running to the end for nothing).
    void post(std::function<void()> job);
    // Waits until every posted job has run, then re-throws the first job's exception, if any.
    // should_abort (may be empty) is polled every few ms meanwhile: when it fires, the worker is
    // cancelled and drain returns false.
    bool drain(const std::function<bool()>& should_abort = {});
    // Drops the jobs not yet started, waits for the one running (at most one chunk's decode) and
    // joins the thread. After it returns, no job runs any more. Idempotent.
    void cancel();
    // True once cancel() began: a running job checks it before emitting anything.
    bool cancelled() const;

    // Which priority the worker has now: "normal" (before it lowered itself, or not asked to),
    // "SCHED_IDLE", "nice 19" or "normal (SCHED_IDLE refused: ...)".
    std::string priority() const;

private:
    void run();
    void rethrow_locked(std::unique_lock<std::mutex>& lock);

    const CodecWorkerOptions m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;  // worker: a job or stop arrived
    std::condition_variable m_idle;  // poster: the queue ran empty
    std::deque<std::function<void()>> m_jobs;
    bool m_busy = false, m_stop = false, m_failed = false;
    std::exception_ptr m_error;
    std::string m_priority;
    std::thread m_thread;  // last: starts after every member above exists
};

}  // namespace reef
