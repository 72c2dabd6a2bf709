// How many CPU cores this process may use, libtorch's thread count set from a load's config, and the
// thread governor's two hands on the cores (a frame's own thread count, its threads' run-queue wait).
// The count reads the affinity mask and the cgroup's CPU quota (a container limited to 2 CPUs on
// a 64-core host has 2), so a thread count above it can be called out before it slows decoding.
#pragma once
#include <vector>

namespace reef {

// CPUs in this process's affinity mask, capped by the cgroup's quota (v2 cpu.max, v1
// cpu.cfs_quota_us / cpu.cfs_period_us, rounded up); at least 1.
int usable_cpu_count();

// libtorch's intra-op thread count on a fresh start (OMP_NUM_THREADS, else the physical cores):
// what cpu_threads = 0 ("default") means.
int default_cpu_threads();

// Sets libtorch's intra-op threads (and with them OpenMP's team and the GEMV team, which follow
// at::get_num_threads) for this load: `requested`, or the default when it is 0, so a reload with
// "default" undoes an earlier count (issue #47) and the threads created later start from it too.
// Returns the count now in effect.
int apply_cpu_threads(int requested);

// How long this thread's OpenMP team (this thread and the threads its parallel regions run on,
// for libtorch's thread count now) has waited runnable for a CPU: Linux's per-thread schedstat.
// The thread governor's sign of other programs crowding the cores. Learns the team by running one
// empty region; the engine thread only.
class TeamRunQueueWait {
public:
    TeamRunQueueWait();
    ~TeamRunQueueWait();
    TeamRunQueueWait(const TeamRunQueueWait&) = delete;
    TeamRunQueueWait& operator=(const TeamRunQueueWait&) = delete;
    // ms waited since the last call (the first: since the team was learned), summed over the
    // team's threads; negative where the kernel does not say (no schedstat, not Linux).
    double since_last();

private:
    double total_ms() const;
    std::vector<int> m_files;  // /proc/self/task/TID/schedstat of each team thread, open
    double m_last_ms = 0;
};

// While alive, this thread's parallel regions (at::parallel_for, Reef's kernels) run with n threads:
// OpenMP's count for this thread alone, which libtorch's global setting and the threads created
// later do not see. One decode frame at the thread governor's count (base/thread_governor.h); the
// previous count is back when it goes. Without OpenMP it does nothing.
class RegionThreads {
public:
    explicit RegionThreads(int n);
    ~RegionThreads();
    RegionThreads(const RegionThreads&) = delete;
    RegionThreads& operator=(const RegionThreads&) = delete;

private:
    int m_previous = 0;
    bool m_changed = false;
};

}  // namespace reef
