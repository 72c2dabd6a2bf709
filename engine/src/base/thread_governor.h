// Decode threads on a shared desktop CPU.
//
// A CPU decode frame is ~300 short parallel regions (nn/gemv.h), and each ends when its slowest
// thread does. While another program keeps a core busy, the OS runs one of decode's threads a time
// slice at a time, and every region waits for it: on the 2-core Zen 4 VM with `yes` beside it,
// s1-mini int4 frames ran at 21-32 frames/s on 2 threads and 42-45 on 1 (idle: 57 and 44). No
// fixed count is right on every machine at every moment, so the governor measures: now and then
// it decodes a few frames at a neighbouring count and keeps whichever ran faster.
//
// - Frames are compared in windows of `window` frames (medians); the first frame at a new count
//   is not counted (OpenMP wakes its threads for it), nor the first of a generation (cold caches).
// - A count's reference is the median of its first window. A window `slower` times slower than
//   that probes one thread fewer at once: contention arriving.
// - Fewer threads are probed where the frames' threads waited runnable for a CPU (Linux schedstat,
//   TeamRunQueueWait; in half a window's frames or more, each more than 5 % of its time): at the
//   first such window, then after a gap that doubles with each probe that did not pay. An idle
//   machine, whose threads never wait, is never probed down. Where the wait cannot be read, a
//   timer stands in: first after `first_gap` frames at a count, doubling up to `max_gap` (an idle
//   machine then pays a probe about every max_gap frames).
// - More threads are probed on a timer (first_gap, doubling up to max_gap): the threads of a
//   count that no longer crowds the cores wait for nothing, so only trying tells whether the other
//   program has left; a machine it has left gets its threads back within about max_gap frames.
// - A probe switches when its median is below (1 - gain) times the median of the window right
//   before it (the same spell of the machine), and then the next count in the same direction is
//   probed at once. A probe down takes one thread fewer, or, every other time one did not pay,
//   half: with two busy cores of eight, seven threads stall as eight do, and 8 -> 4 -> 5 -> 6
//   finds the count that does not. A probe whose first three frames are each 1.25x slower than
//   the window before it ends there (4 frames at a count that stalls, not 9).
// - The count and the gaps outlive a generation (contention outlives one request); a change of
//   the largest count (the user's thread setting) starts afresh.
//
// Plain arithmetic on the frame times and waits it is given; the caller sets the count
// (tests/unit/tst_thread_governor.cpp plays simulated machines to it).
#pragma once
#include <vector>

namespace reef {

class ThreadGovernor {
public:
    struct Options {
        int window = 8;
        int first_gap = 32;
        int max_gap = 512;
        double slower = 1.35;
        double gain = 0.10;
    };

    explicit ThreadGovernor(int max_threads = 1);
    ThreadGovernor(int max_threads, Options options);

    // A generation starts that may use up to max_threads threads.
    void begin(int max_threads);
    // The thread count for the next frame, 1..max_threads().
    int threads() const { return m_running; }
    // The frame just decoded at threads() took `ms`, and its threads waited `waited_ms` in all
    // runnable for a CPU (summed over the threads; negative: not known).
    void after_frame(double ms, double waited_ms = -1);

    int max_threads() const { return m_max; }
    // Times the settled count changed (probes that paid).
    int switches() const { return m_switches; }

private:
    void reset(int max_threads);
    void start_probe(int direction);
    void end_probe(double probe_median);
    void clear_window();
    // frames at a count before a probe: `first` (the timer's first_gap, or one window where the
    // threads waited for a CPU), doubled for each of `failed` probes that did not pay, up to max_gap
    int gap(int first, int failed) const;

    Options m_options;
    int m_max = 1;
    int m_settled = 1;    // the count frames run at between probes
    int m_running = 1;    // the count of the next frame: m_settled, or m_settled + m_probe while probing
    int m_probe = 0;      // -1 / +1 while probing fewer / more threads, else 0
    int m_skip = 0;       // frames not to count (a new count, a new generation)
    int m_since = 0;      // counted frames at m_settled since it settled or since the last probe
    int m_failed_down = 0, m_failed_up = 0;  // probes in each direction that did not pay since the last switch
    bool m_halve = false;    // the next probe down halves the count instead of taking one thread
    double m_reference = 0;  // median of m_settled's first window (0: none yet)
    double m_before = 0;     // median of m_settled's last window
    int m_switches = 0;
    std::vector<double> m_window;
    int m_window_waited = 0;          // frames of the window whose threads waited for a CPU
    bool m_window_wait_known = true;
};

}  // namespace reef
