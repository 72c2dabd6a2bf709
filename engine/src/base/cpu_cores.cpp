#include "base/cpu_cores.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#ifdef __linux__
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

namespace reef {
namespace {

// The cgroup's CPU quota in CPUs (rounded up), or 0 when none is set or none can be read.
int cgroup_cpu_quota() {
    // cgroup v2: "max 100000" (no limit) or "200000 100000" (2 CPUs)
    if (std::ifstream v2("/sys/fs/cgroup/cpu.max"); v2) {
        std::string quota;
        double period = 0;
        if (v2 >> quota >> period && quota != "max" && period > 0) {
            try {
                return std::max(1, int(std::ceil(std::stod(quota) / period)));
            } catch (const std::exception&) {
                return 0;
            }
        }
        return 0;
    }
    // cgroup v1: quota -1 = no limit
    std::ifstream q("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), p("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    double quota = -1, period = 0;
    if (q >> quota && p >> period && quota > 0 && period > 0) return std::max(1, int(std::ceil(quota / period)));
    return 0;
}

}  // namespace

int usable_cpu_count() {
    int n = 0;
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
#endif
    if (n <= 0) n = int(std::thread::hardware_concurrency());
    if (const int quota = cgroup_cpu_quota(); quota > 0) n = std::min(std::max(n, 1), quota);
    return std::max(1, n);
}

int default_cpu_threads() { return std::max(1, at::intraop_default_num_threads()); }

int apply_cpu_threads(int requested) {
    // libtorch sizes its pthreadpool (the one XNNPACK and QNNPACK share) at the process's first
    // set_num_threads and never resizes it: a first load with 99 threads would leave 98 idle
    // threads for the life of the process. So the first call sets the default, as a fresh start has.
    static const bool pool_at_default = [] {
        at::set_num_threads(default_cpu_threads());
        return true;
    }();
    (void)pool_at_default;
    const int n = requested > 0 ? requested : default_cpu_threads();
#ifdef _OPENMP
    // Fewer threads than before: OpenMP keeps the larger team's threads docked in this thread's
    // pool until a region of the new size runs, and with one thread none ever does, so 98 idle
    // threads of a 99 outlive the reload. Pausing the runtime (OpenMP 5.0) lets them go now; the
    // next region starts the threads it needs.
    if (n < at::get_num_threads() && !omp_in_parallel()) omp_pause_resource_all(omp_pause_soft);
#endif
    // Also when the count already reads n on this thread: set_num_threads stores it as the count
    // that threads created later (the codec worker's) start from.
    at::set_num_threads(n);
    return n;
}

RegionThreads::RegionThreads(int n) {
#ifdef _OPENMP
    m_previous = omp_get_max_threads();
    m_changed = n >= 1 && n != m_previous;
    if (m_changed) omp_set_num_threads(n);
#else
    (void)n;
#endif
}

RegionThreads::~RegionThreads() {
#ifdef _OPENMP
    if (m_changed) omp_set_num_threads(m_previous);
#endif
}

TeamRunQueueWait::TeamRunQueueWait() {
#if defined(__linux__) && defined(_OPENMP)
    std::vector<pid_t> tids;
    const int n = at::get_num_threads();
    tids.resize(size_t(n), 0);
    // libgomp runs this thread's regions on the same pool threads for as long as the count stays
    // (and fewer of them for fewer threads): these are the threads the frames' regions run on
#pragma omp parallel num_threads(n)
    tids[size_t(omp_get_thread_num())] = pid_t(syscall(SYS_gettid));
    for (const pid_t tid : tids) {
        if (tid <= 0) continue;
        const std::string path = "/proc/self/task/" + std::to_string(tid) + "/schedstat";
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            for (const int f : m_files) ::close(f);
            m_files.clear();
            return;
        }
        m_files.push_back(fd);
    }
    m_last_ms = total_ms();
#endif
}

TeamRunQueueWait::~TeamRunQueueWait() {
#ifdef __linux__
    for (const int f : m_files) ::close(f);
#endif
}

double TeamRunQueueWait::total_ms() const {
    double ns = 0;
#ifdef __linux__
    // "<ns on a CPU> <ns waiting on a run queue> <time slices>"
    for (const int f : m_files) {
        char buf[96];
        const ssize_t got = ::pread(f, buf, sizeof buf - 1, 0);
        if (got <= 0) return -1;
        buf[got] = 0;
        unsigned long long run = 0, wait = 0;
        if (std::sscanf(buf, "%llu %llu", &run, &wait) != 2) return -1;
        ns += double(wait);
    }
#endif
    return ns / 1e6;
}

double TeamRunQueueWait::since_last() {
    if (m_files.empty()) return -1;
    const double now = total_ms();
    if (now < 0) return -1;
    const double waited = now - m_last_ms;
    m_last_ms = now;
    return waited;
}

}  // namespace reef
