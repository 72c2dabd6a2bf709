#include "nn/gemv_team.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <unordered_map>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "nn/gemv.h"

namespace reef {
namespace {

thread_local GemvTeam::State* t_active = nullptr;  // the team of the step running on this thread
thread_local bool t_on = false;                    // a GemvTeamOn is alive
thread_local int64_t t_team_steps = 0;             // steps run with a team on this thread

// One turn of a wait loop. The team's threads wait by spinning, as OpenMP's do between regions
// (a GEMV starts within a microsecond); after `kSpinTurns` turns (~0.1-1 ms) they also yield, so
// a machine with more runnable threads than cores still makes progress.
constexpr int kSpinTurns = 1 << 14;

void wait_turn(int& turns) {
    if (++turns > kSpinTurns) {
        std::this_thread::yield();
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// How far a team thread reads ahead into the next matrix: REEF_GEMV_READ_AHEAD_KB, else half the
// last-level cache (what it can hold beside the rows in flight), 4 MiB where the C library cannot
// say. 0 turns reading ahead off (the team still serves the rows).
size_t read_ahead_cap() {
    static const size_t cap = [] {
        if (const char* v = std::getenv("REEF_GEMV_READ_AHEAD_KB"); v && *v)
            return size_t(std::strtoull(v, nullptr, 10)) << 10;
        long l3 = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
        l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
        return l3 > 0 ? size_t(l3) / 2 : size_t(4) << 20;
    }();
    return cap;
}

// More distinct weights than any model has GEMVs: a caller whose weight is a fresh temporary
// every call would otherwise grow the map for as long as the generation runs.
constexpr size_t kMaxLearned = 4096;

}  // namespace

struct GemvTeam::State {
    // The GEMV order learned so far: a weight's data -> the weight whose GEMV came next last time
    // (the reference keeps that weight alive while a team thread may read it).
    std::unordered_map<const void*, at::Tensor> next;
    const void* last = nullptr;
    int workers = 0;  // team threads besides the step's own, in the running region

    // The mailbox. The step's thread writes a job's fields, then moves `posted`; a team thread
    // reads them after it sees `posted` move. The next job is posted only after every team thread
    // has finished this one (and with it read its fields), so no field is ever
    // written while read.
    alignas(64) std::atomic<uint64_t> posted{0};
    alignas(64) std::atomic<int> finished{0};
    alignas(64) const std::function<void(int)>* job = nullptr;  // null: the step is over, leave
    const at::ThreadLocalState* state = nullptr;  // run the job in the step thread's libtorch state (run_each)
    const unsigned char* ahead = nullptr;         // then read these bytes ahead (team thread 1)
    size_t ahead_bytes = 0;
    std::atomic<bool> failed{false};  // a team thread's job threw: `failure` holds what
    std::exception_ptr failure;
    std::atomic<uint64_t> sink{0};  // keeps the read-ahead loads
};

namespace {

// Touches one byte per 64-byte line of [p, p + bytes), so the lines are in the caches when the
// next GEMV streams them, until the step posts its next job (checked every 4 KiB: a new GEMV waits
// at most for one page of loads).
void read_ahead(GemvTeam::State& s, uint64_t job, const volatile unsigned char* p, size_t bytes) {
    uint64_t sum = 0;
    for (size_t page = 0; page < bytes; page += 4096) {
        if (s.posted.load(std::memory_order_relaxed) != job) break;
        const size_t end = std::min(bytes, page + 4096);
        for (size_t i = page; i < end; i += 64) sum += p[i];
    }
    s.sink.store(sum, std::memory_order_relaxed);
}

// One posted job on a team thread; what it throws is kept for the step's thread (the first of them).
void run_job(GemvTeam::State& s, const std::function<void(int)>& job, int thread) {
    try {
        std::optional<at::ThreadLocalStateGuard> in_step_state;  // inference mode, dispatch keys...
        if (s.state != nullptr) in_step_state.emplace(*s.state);
        job(thread);
    } catch (...) {
        if (!s.failed.exchange(true)) s.failure = std::current_exception();
    }
}

// A team thread: each posted job, then (thread 1) the read-ahead of the last GEMV's next matrix,
// until told to leave.
void serve(GemvTeam::State& s, int thread, uint64_t seen) {
    for (;;) {
        uint64_t posted;
        int turns = 0;
        while ((posted = s.posted.load(std::memory_order_acquire)) == seen) wait_turn(turns);
        seen = posted;
        const std::function<void(int)>* job = s.job;
        if (!job) return;
        // read before `finished` lets the step post (and write) its next job
        const unsigned char* ahead = thread == 1 ? s.ahead : nullptr;
        const size_t ahead_bytes = s.ahead_bytes;
        run_job(s, *job, thread);
        s.finished.fetch_add(1, std::memory_order_release);
        if (ahead) read_ahead(s, posted, ahead, ahead_bytes);
    }
}

// Posts job to the team's threads, runs job(0) here, and waits for theirs; rethrows what any threw.
void post_and_run(GemvTeam::State& s, const std::function<void(int)>& job) {
    s.job = &job;
    s.finished.store(0, std::memory_order_relaxed);
    s.posted.fetch_add(1, std::memory_order_release);
    std::exception_ptr mine;
    try {
        job(0);
    } catch (...) {
        mine = std::current_exception();
    }
    int turns = 0;
    while (s.finished.load(std::memory_order_acquire) < s.workers) wait_turn(turns);
    s.state = nullptr;
    if (s.failed.exchange(false)) {
        std::exception_ptr theirs = std::exchange(s.failure, nullptr);
        if (!mine) mine = theirs;
    }
    if (mine) std::rethrow_exception(mine);
}

}  // namespace

GemvTeam::GemvTeam() : m_state(std::make_unique<State>()) {}
GemvTeam::~GemvTeam() = default;

void GemvTeam::run(const std::function<void()>& step) {
    // REEF_GEMV_TEAM=1: on for the whole process
    static const bool switched_on = [] {
        const char* v = std::getenv("REEF_GEMV_TEAM");
        return v != nullptr && std::string_view(v) == "1";
    }();
#ifdef _OPENMP
    const int n = at::get_num_threads();
    if (n < 2 || !(t_on || switched_on) || gemv_paused() || t_active != nullptr || omp_in_parallel()) {
        step();
        return;
    }
    State& s = *m_state;
    const uint64_t first_seen = s.posted.load(std::memory_order_relaxed);  // before any thread can see a job
    std::exception_ptr failure;
#pragma omp parallel num_threads(n)
    {
        if (omp_get_thread_num() == 0) {
            s.workers = omp_get_num_threads() - 1;
            t_active = s.workers > 0 ? &s : nullptr;
            if (s.workers > 0) ++t_team_steps;
            try {
                step();
            } catch (...) {
                failure = std::current_exception();
            }
            t_active = nullptr;
            s.job = nullptr;  // leave
            s.posted.fetch_add(1, std::memory_order_release);
        } else {
            serve(s, omp_get_thread_num(), first_seen);
        }
    }
    if (failure) std::rethrow_exception(failure);
#else
    (void)switched_on;
    step();  // no OpenMP: no team
#endif
}

int64_t gemv_team_steps() { return t_team_steps; }

GemvTeamOn::GemvTeamOn(bool on) : m_previous(t_on) { t_on = t_on || on; }
GemvTeamOn::~GemvTeamOn() { t_on = m_previous; }

namespace gemv_team {

GemvTeam::State* active() { return t_active; }

int threads(const GemvTeam::State& team) { return team.workers + 1; }

void run_rows(GemvTeam::State& s, const at::Tensor& w, const std::function<void()>& rows) {
    const void* key = w.const_data_ptr();
    if (s.last != nullptr && s.last != key) {
        if (s.next.size() >= kMaxLearned) s.next.clear();
        at::Tensor& after = s.next[s.last];
        if (!after.is_same(w)) after = w;
    }
    s.last = key;
    s.ahead = nullptr;
    s.ahead_bytes = 0;
    if (const auto it = s.next.find(key); it != s.next.end() && read_ahead_cap() > 0) {
        s.ahead = static_cast<const unsigned char*>(it->second.const_data_ptr());
        s.ahead_bytes = std::min(it->second.nbytes(), read_ahead_cap());
    }
    const std::function<void(int)> each = [&rows](int) { rows(); };  // one reference: no allocation
    post_and_run(s, each);
}

void run_each(GemvTeam::State& s, const std::function<void(int thread)>& job) {
    // The read-ahead the last GEMV set (its next matrix) goes on after this job: keep s.ahead.
    const at::ThreadLocalState state;
    s.state = &state;
    post_and_run(s, job);
}

}  // namespace gemv_team
}  // namespace reef
