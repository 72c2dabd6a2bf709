// The codec worker (engine/src/runtime/codec_worker.h): jobs run in order on one other thread; a
// failing job's exception comes back unchanged on the posting thread and stops the stream; cancel
// drops queued jobs and returns after the running one; drain honours should_abort; on Linux the idle
// priority reaches the worker's OpenMP team (also one created before the worker lowered itself),
// whose size is the worker's own while the calling thread's team and the process default for later
// threads keep theirs.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#ifdef __linux__
#include <sched.h>
#endif

#include "check.h"
#include "reef/engine_types.h"
#include "base/cpu_cores.h"
#include "runtime/codec_worker.h"

using namespace reef;
using namespace std::chrono_literals;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

#ifdef __linux__
// Threads of this process whose scheduling policy is SCHED_IDLE (5), read from /proc: field 41
// of /proc/self/task/<tid>/stat, counted after the ")" that ends the command name.
int idle_threads() {
    int n = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream in(task.path() / "stat");
        std::string line;
        std::getline(in, line);
        const size_t close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 2));  // field 3 onwards
        std::string field;
        int policy = -1;
        for (int i = 3; rest >> field; ++i)
            if (i == 41) {
                policy = std::stoi(field);
                break;
            }
        if (policy == 5) ++n;
    }
    return n;
}
#endif

}  // namespace

TEST_CASE(jobs_run_in_posting_order_on_one_other_thread) {
    CodecWorker worker({1, false});
    std::vector<int> order;
    std::vector<std::thread::id> threads;
    for (int i = 0; i < 40; ++i)
        worker.post([&, i] {
            if (i % 7 == 0) std::this_thread::sleep_for(1ms);  // later jobs queue up behind
            order.push_back(i);
            threads.push_back(std::this_thread::get_id());
        });
    CHECK(worker.drain());
    CHECK_EQ(order.size(), size_t(40));
    for (int i = 0; i < int(order.size()); ++i) CHECK_EQ(order[size_t(i)], i);
    for (const auto& t : threads) CHECK(t == threads[0]);
    CHECK(threads[0] != std::this_thread::get_id());
    CHECK(worker.priority() == std::string("normal"));
}

TEST_CASE(a_failing_job_is_rethrown_unchanged_and_stops_the_stream) {
    CodecWorker worker({1, false});
    std::atomic<int> after{0};
    worker.post([] {
        std::this_thread::sleep_for(30ms);
        throw ReefError(ErrorCode::CorruptModel, "chunk 3: codes out of range", "check the model");
    });
    worker.post([&] { ++after; });  // queued before the failure: dropped with it
    bool caught = false;
    try {
        worker.drain();
    } catch (const ReefError& e) {
        caught = true;
        CHECK(e.error().code == ErrorCode::CorruptModel);
        CHECK(e.error().message == std::string("chunk 3: codes out of range"));
        CHECK(e.error().hint == std::string("check the model"));
    }
    CHECK(caught);
    CHECK_EQ(after.load(), 0);
    // The next hand-over re-throws it too, so generation stops at its next frame.
    bool again = false;
    try {
        worker.post([&] { ++after; });
    } catch (const ReefError& e) {
        again = e.error().code == ErrorCode::CorruptModel;
    }
    CHECK(again);
    worker.cancel();
    CHECK_EQ(after.load(), 0);

    // A libtorch error keeps its type (the facade maps c10::Error to "libtorch: ...").
    CodecWorker torch_worker({1, false});
    torch_worker.post([] { at::ones({2, 3}).view({4}); });
    bool c10_error = false;
    try {
        torch_worker.drain();
    } catch (const c10::Error&) {
        c10_error = true;
    }
    CHECK(c10_error);
}

// Orders and ratios, not wall-clock figures: the running job waits on a latch this test holds, and
// the queued ones would take a known time (their own sleeps) if cancel ran them.
TEST_CASE(cancel_drops_queued_jobs_and_returns_after_the_running_one) {
    constexpr int kQueued = 10;
    constexpr double kQueuedJobMs = 200;  // what running the queue would cost: at least 2 s
    std::atomic<int> ran{0};
    std::atomic<bool> running{false}, release{false};
    CodecWorker worker({1, false});
    worker.post([&] {
        running = true;
        const auto let_go = std::chrono::steady_clock::now() + 20s;  // a broken build fails, not hangs
        while (!release && std::chrono::steady_clock::now() < let_go) std::this_thread::sleep_for(1ms);
        ++ran;
    });
    for (int i = 0; i < kQueued; ++i)
        worker.post([&] {
            std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kQueuedJobMs));
            ++ran;
        });
    while (!running) std::this_thread::sleep_for(1ms);
    std::atomic<bool> cancel_returned{false};
    std::thread canceller([&] {
        worker.cancel();
        cancel_returned = true;
    });
    while (!worker.cancelled()) std::this_thread::sleep_for(1ms);  // cancel() has begun
    std::this_thread::sleep_for(50ms);
    // It waits for the running job: still inside cancel() while that job is held. (A cancel that
    // returned without joining the worker would have returned by now.)
    CHECK(!cancel_returned);
    CHECK_EQ(ran.load(), 0);
    const auto t0 = std::chrono::steady_clock::now();
    release = true;
    canceller.join();
    const double cancel_ms = ms_since(t0);
    CHECK_EQ(ran.load(), 1);  // the running job finished; the queued ones never started
    // And it returned after that one job, not the queue: well under what the queued jobs would take
    // (a cancel that drained the queue first takes all of it, kQueued × kQueuedJobMs at least).
    CHECK(cancel_ms < 0.5 * kQueued * kQueuedJobMs);
    CHECK(worker.cancelled());
    worker.post([&] { ++ran; });  // ignored after cancel
    CHECK(worker.drain());
    std::this_thread::sleep_for(20ms);
    CHECK_EQ(ran.load(), 1);
}

TEST_CASE(drain_gives_up_when_should_abort_fires) {
    constexpr int kJobs = 100;
    std::atomic<int> ran{0};
    CodecWorker worker({1, false});
    for (int i = 0; i < kJobs; ++i)
        worker.post([&] {
            std::this_thread::sleep_for(10ms);
            ++ran;
        });
    // It fires on an event (the fifth job done), not at a time; the time per job is measured up to
    // then, in this run, so a slow machine slows the yardstick as much as the drain.
    const auto t0 = std::chrono::steady_clock::now();
    double ms_per_job = 0;
    const bool finished = worker.drain([&] {
        const int done = ran.load();
        if (done < 5) return false;
        if (ms_per_job == 0) ms_per_job = ms_since(t0) / done;
        return true;
    });
    const double ms = ms_since(t0);
    CHECK(!finished);
    CHECK(worker.cancelled());
    // It stopped near the abort: a drain that ignored should_abort runs all 100 jobs, and one that
    // cancelled but still waited for them takes about their time (kJobs × ms_per_job).
    CHECK(ran.load() < kJobs / 2);
    CHECK(ms < 0.5 * kJobs * ms_per_job);
}

TEST_CASE(thread_count_is_the_workers_own_and_the_process_default_comes_back) {
    const int mine = at::get_num_threads();  // OMP_NUM_THREADS=1 under ctest
    const int want = mine + 1;
    int inside = 0, caller_meanwhile = 0;
    {
        CodecWorker worker({want, false});
        worker.post([&] { inside = at::get_num_threads(); });
        CHECK(worker.drain());
        caller_meanwhile = at::get_num_threads();
    }
    CHECK_EQ(inside, want);
    CHECK_EQ(caller_meanwhile, mine);
    // A thread started after the worker ended starts from the process default as before.
    int later = 0;
    std::thread([&] { later = at::get_num_threads(); }).join();
    CHECK_EQ(later, mine);
}

#ifdef __linux__
TEST_CASE(idle_priority_reaches_the_workers_openmp_team) {
    const int mine = at::get_num_threads();
    const int before = idle_threads();
    int during = 0, threads = 0;
    std::string prio;
    {
        CodecWorker worker({2, true});
        worker.post([&] {
            // An op libtorch splits across its OpenMP team: the team is created by this thread now.
            const at::Tensor x = at::rand({1 << 22});
            for (int i = 0; i < 3; ++i) (void)x.exp().sum();
            threads = at::get_num_threads();
            during = idle_threads();
        });
        CHECK(worker.drain());
        prio = worker.priority();
    }
    CHECK(prio == std::string("SCHED_IDLE"));
    CHECK_EQ(threads, 2);
    CHECK(during - before >= 2);  // the worker and at least one OpenMP thread it created
    CHECK_EQ(at::get_num_threads(), mine);  // still this thread's own count
    CHECK(sched_getscheduler(0) != SCHED_IDLE);  // the caller was not lowered

    // The first job at normal priority (the stream's first chunk), then the worker lowers itself
    // and the OpenMP team that job already created.
    int in_first = -1, in_second = 0;
    std::string prio_first;
    {
        CodecWorkerOptions o{2, true, 1};
        CodecWorker worker(o);
        auto parallel_work = [] {
            const at::Tensor x = at::rand({1 << 22});
            for (int i = 0; i < 3; ++i) (void)x.exp().sum();
        };
        worker.post([&] {
            parallel_work();
            in_first = idle_threads();
        });
        CHECK(worker.drain());
        prio_first = worker.priority();
        worker.post([&] {
            parallel_work();
            in_second = idle_threads();
        });
        CHECK(worker.drain());
        prio = worker.priority();
    }
    CHECK_EQ(in_first, before);
    CHECK(prio_first == std::string("SCHED_IDLE"));  // lowered right after the first job
    CHECK(in_second - before >= 2);  // the worker and the team thread created during the first job
}
#endif

// The CPUs this process may use, read from /proc/self/status ("Cpus_allowed_list: 0-1,4"): the
// independent count the automatic choice is checked against.
int allowed_cpus_from_proc() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
        std::stringstream list(line.substr(line.find(':') + 1));
        int n = 0;
        for (std::string part; std::getline(list, part, ',');) {
            const size_t dash = part.find('-');
            n += dash == std::string::npos ? 1 : std::stoi(part.substr(dash + 1)) - std::stoi(part) + 1;
        }
        return n;
    }
    return -1;
}

// A cgroup CPU quota in whole CPUs as `cat` shows it (v2 "200000 100000", v1 quota and period
// files; "max" or -1: none), 0 when none: a container's limit, which the count honours too.
int cgroup_quota_cpus() {
    std::string quota;
    long long period = 0;
    if (std::ifstream v2("/sys/fs/cgroup/cpu.max"); v2 >> quota >> period)
        return quota == "max" || period <= 0 ? 0 : int((std::stoll(quota) + period - 1) / period);
    long long q = -1;
    std::ifstream v1q("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), v1p("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    if (v1q >> q && v1p >> period && q > 0 && period > 0) return int((q + period - 1) / period);
    return 0;
}

TEST_CASE(automatic_choice_follows_the_free_cores) {
    int cpus = allowed_cpus_from_proc();
    if (const int quota = cgroup_quota_cpus(); quota > 0 && cpus > quota) cpus = quota;
    if (cpus < 1) {
        reef_test::skip("no Cpus_allowed_list in /proc/self/status");
        return;
    }
    CHECK_EQ(usable_cpu_count(), cpus);
    EngineConfig c;
    c.codec_worker = true;
    c.cpu_threads = cpus;
    CHECK(codec_worker_enabled(c));  // asked for: on, whatever the machine
    c.codec_worker = false;
    c.cpu_threads = 1;
    CHECK(!codec_worker_enabled(c));
    c.codec_worker.reset();  // automatic
    c.cpu_threads = cpus;    // generation on every core: the worker would only compete
    CHECK(!codec_worker_enabled(c));
    if (cpus > 1) {
        c.cpu_threads = cpus - 1;  // a core to spare
        CHECK(codec_worker_enabled(c));
    }
    c.cpu_threads = cpus;
    c.device = DeviceKind::Cuda;  // the codec works on the GPU
    CHECK(codec_worker_enabled(c));
}

TEST_MAIN()
