#include "base/thread_governor.h"

#include <algorithm>
#include <cstdint>

#include "base/perf.h"

namespace reef {

namespace {

// A probe ends after its first kEarlyFrames frames when every one of them is kEarlySlower times
// slower than the window before it.
constexpr int kEarlyFrames = 3;
constexpr double kEarlySlower = 1.25;
// A window is contended when in at least half of its frames the threads waited runnable for a CPU
// this share of the frame's time: on the Zen 4 VM idle frames wait ~0.5 % (with a rare spike of a
// few ms from another process), frames beside a busy loop ~50 %.
constexpr double kContendedShare = 0.05;

}  // namespace

ThreadGovernor::ThreadGovernor(int max_threads) : ThreadGovernor(max_threads, Options{}) {}

ThreadGovernor::ThreadGovernor(int max_threads, Options options) : m_options(options) {
    m_options.window = std::max(1, m_options.window);
    m_options.first_gap = std::max(1, m_options.first_gap);
    m_options.max_gap = std::max(m_options.first_gap, m_options.max_gap);
    reset(max_threads);
}

void ThreadGovernor::reset(int max_threads) {
    m_max = std::max(1, max_threads);
    m_settled = m_running = m_max;
    m_probe = 0;
    m_skip = 1;
    m_since = 0;
    m_failed_down = m_failed_up = 0;
    m_reference = m_before = 0;
    m_halve = false;
    clear_window();
}

int ThreadGovernor::gap(int first, int failed) const {
    return failed >= 30 ? m_options.max_gap : int(std::min<int64_t>(int64_t(first) << failed, m_options.max_gap));
}

void ThreadGovernor::clear_window() {
    m_window.clear();
    m_window_waited = 0;
    m_window_wait_known = true;
}

void ThreadGovernor::begin(int max_threads) {
    if (std::max(1, max_threads) != m_max) return reset(max_threads);
    // a probe the last generation left open is dropped: its frames would compare across prompts
    m_running = m_settled;
    m_probe = 0;
    m_skip = 1;
    clear_window();
}

void ThreadGovernor::start_probe(int direction) {
    m_probe = direction;
    m_running = m_settled + direction;
    // Every other timed probe down halves the count: with two busy cores of eight, seven threads
    // stall as eight do, and only a larger step finds the six that do not (chained steps then
    // climb back up to them).
    if (direction < 0 && m_halve && m_settled > 2) m_running = m_settled / 2;
    m_skip = 1;
}

void ThreadGovernor::end_probe(double probe_median) {
    const int direction = m_probe;
    m_probe = 0;
    m_since = 0;
    if (probe_median < (1.0 - m_options.gain) * m_before) {
        m_settled = m_running;
        ++m_switches;
        m_failed_down = m_failed_up = 0;
        m_reference = 0;            // the new count's first window of its own sets it
        m_before = probe_median;    // what a chained probe must beat
        m_halve = false;
        const int next = m_settled + direction;
        if (next >= 1 && next <= m_max) return start_probe(direction);
    } else {
        if (direction < 0) {
            ++m_failed_down;
            m_halve = !m_halve;
        } else {
            ++m_failed_up;
        }
        // the slowdown that may have started the probe is not contention: compare against it now
        m_reference = m_before;
        m_running = m_settled;
    }
    m_skip = 1;
}

void ThreadGovernor::after_frame(double ms, double waited_ms) {
    if (m_max <= 1) return;
    if (m_skip > 0) {
        --m_skip;
        return;
    }
    m_window.push_back(ms);
    if (waited_ms < 0)
        m_window_wait_known = false;
    else if (waited_ms > kContendedShare * ms)
        ++m_window_waited;
    // A probe whose first frames are each far slower ends there: a count that stalls (seven
    // threads with two busy cores of eight: 3.5x) would cost a whole window of such frames.
    if (m_probe != 0 && int(m_window.size()) == kEarlyFrames && m_options.window > kEarlyFrames &&
        *std::min_element(m_window.begin(), m_window.end()) > kEarlySlower * m_before) {
        clear_window();
        return end_probe(m_before);  // did not pay
    }
    if (int(m_window.size()) < m_options.window) return;
    const double med = median(m_window);
    const bool wait_known = m_window_wait_known;
    const bool contended = wait_known && 2 * m_window_waited >= int(m_window.size());
    clear_window();
    if (m_probe != 0) return end_probe(med);
    m_before = med;
    if (m_reference <= 0) m_reference = med;
    m_since += m_options.window;
    const bool fewer = m_settled > 1, more = m_settled < m_max;
    if (fewer && med > m_options.slower * m_reference) return start_probe(-1);
    // Fewer threads are tried where the threads waited for a CPU (at once, then backing off), or on
    // the timer where that cannot be read; never on a machine that lets them run.
    const int down_gap = gap(m_options.first_gap, m_failed_down), up_gap = gap(m_options.first_gap, m_failed_up);
    const bool down_due =
        fewer && (wait_known ? contended && m_since >= gap(m_options.window, m_failed_down) : m_since >= down_gap);
    const bool up_due = more && m_since >= up_gap;
    if (down_due && up_due) return start_probe(down_gap <= up_gap ? -1 : +1);
    if (down_due) return start_probe(-1);
    if (up_due) return start_probe(+1);
}

}  // namespace reef
