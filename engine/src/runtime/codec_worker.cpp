#include "runtime/codec_worker.h"
#include "base/cpu_cores.h"
#include "base/cuda_memory.h"

#include "reef/engine_types.h"

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace reef {
namespace {

// Lowers the calling thread only (Linux scheduling attributes are per thread). Threads it creates
// afterwards — libgomp's team for this thread's parallel regions — inherit the policy and nice
// value, so the whole codec team runs at the lowest priority.
std::string lower_priority() {
#ifdef __linux__
    const pid_t tid = pid_t(syscall(SYS_gettid));
    sched_param param{};
    param.sched_priority = 0;
    if (sched_setscheduler(tid, SCHED_IDLE, &param) == 0) return "SCHED_IDLE";
    const std::string idle_error = std::strerror(errno);
    if (setpriority(PRIO_PROCESS, id_t(tid), 19) == 0) return "nice 19";
    return "normal (SCHED_IDLE refused: " + idle_error + "; nice 19 refused: " + std::strerror(errno) + ")";
#else
    return "normal (no idle priority on this system)";
#endif
}

// Lowers this thread, then each thread of its OpenMP team of `threads` from inside a parallel
// region: libgomp keeps a master thread's pool threads docked and reuses them for its later
// regions (libtorch's, oneDNN's and MKL's alike), and threads it creates later inherit the policy.
std::string lower_team_priority(int threads) {
    const std::string result = lower_priority();
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_thread_num() != 0) lower_priority();
        }
    }
#endif
    return result;
}

}  // namespace

CodecWorker::CodecWorker(CodecWorkerOptions options) : m_options(options), m_thread([this] { run(); }) {}

CodecWorker::~CodecWorker() { cancel(); }

void CodecWorker::post(std::function<void()> job) {
    std::unique_lock lock(m_mutex);
    rethrow_locked(lock);
    if (m_stop) return;
    m_jobs.push_back(std::move(job));
    lock.unlock();
    m_wake.notify_one();
}

bool CodecWorker::drain(const std::function<bool()>& should_abort) {
    constexpr auto kPoll = std::chrono::milliseconds(10);
    std::unique_lock lock(m_mutex);
    auto done = [&] { return (m_jobs.empty() && !m_busy) || m_stop; };
    while (!m_idle.wait_for(lock, kPoll, done)) {
        if (should_abort && should_abort()) {
            lock.unlock();
            cancel();
            return false;
        }
    }
    rethrow_locked(lock);
    return true;
}

void CodecWorker::cancel() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_jobs.clear();
    }
    m_wake.notify_all();
    m_idle.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

bool CodecWorker::cancelled() const {
    std::lock_guard lock(m_mutex);
    return m_stop;
}

std::string CodecWorker::priority() const {
    std::lock_guard lock(m_mutex);
    return m_priority;
}

void CodecWorker::rethrow_locked(std::unique_lock<std::mutex>& lock) {
    if (!m_error) return;
    const std::exception_ptr e = m_error;
    lock.unlock();
    std::rethrow_exception(e);
}

void CodecWorker::run() {
    // libtorch 2.13 (ATen/ParallelOpenMP.cpp): a thread's first parallel call sizes its OpenMP team
    // from the process default (lazily, per thread). at::set_num_threads(n) then sets this thread's
    // OpenMP ICV (omp_set_num_threads is per thread in libgomp) and MKL's thread-local count, which
    // is what we want — but it also stores n as the process default that threads created later
    // start from. So it runs only when the count differs, and the default is put back on exit.
    // The generation thread's own team keeps its size throughout (tst_codec_worker measures both).
    int inherited = 0;
    {
        std::unique_lock lock(m_mutex);
        m_busy = true;  // the setup counts as work: drain() waits for it
    }
    int jobs_left_at_normal = m_options.idle_priority ? m_options.jobs_at_normal_priority : 0;
    auto lower = [&] {
        const std::string prio = lower_team_priority(at::get_num_threads());
        std::lock_guard lock(m_mutex);
        m_priority = prio;
    };
    try {
        {
            std::lock_guard lock(m_mutex);
            m_priority = "normal";
        }
        if (m_options.cuda_device >= 0) select_cuda_device(m_options.cuda_device);
        if (m_options.idle_priority && jobs_left_at_normal == 0) lower();  // before the team exists
        inherited = at::get_num_threads();
        if (m_options.threads > 0 && m_options.threads != inherited) at::set_num_threads(m_options.threads);
    } catch (...) {
        std::lock_guard lock(m_mutex);
        m_error = std::current_exception();
        m_jobs.clear();
    }
    c10::InferenceMode inference;  // thread-local, like the generation thread's
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_mutex);
            m_busy = false;
            if (m_jobs.empty()) m_idle.notify_all();
            m_wake.wait(lock, [&] { return m_stop || (!m_jobs.empty() && !m_error); });
            if (m_stop) break;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
            m_busy = true;
        }
        try {
            job();
            if (jobs_left_at_normal > 0 && --jobs_left_at_normal == 0) lower();
        } catch (...) {
            std::lock_guard lock(m_mutex);
            if (!m_error) m_error = std::current_exception();
            m_jobs.clear();  // a failed stream cannot go on; the poster learns at its next call
        }
    }
    try {
        if (inherited > 0 && m_options.threads > 0 && m_options.threads != inherited) at::set_num_threads(inherited);
    } catch (...) {  // nothing to report to any more; the count only matters for threads created later
    }
}

bool codec_worker_enabled(const EngineConfig& c) {
    if (c.codec_worker) return *c.codec_worker;
    if (c.device == DeviceKind::Cuda) return true;  // the codec runs on the GPU; this thread only waits
    const int generation = c.cpu_threads > 0 ? c.cpu_threads : at::get_num_threads();
    return usable_cpu_count() > generation;
}

}  // namespace reef
