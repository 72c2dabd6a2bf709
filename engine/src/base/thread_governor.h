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
// - Besides, each direction is probed on its own timer: first after `first_gap` frames at a count,
//   the gap doubling after each probe that did not pay, up to `max_gap`, so an idle machine pays
//   a probe at the fewer count about once every max_gap frames, and a machine the other program
//   has left gets its threads back within about max_gap frames.
// - A probe switches when its median is below (1 - gain) times the median of the window right
//   before it (the same spell of the machine), and then the next count in the same direction is
//   probed at once. A probe down takes one thread fewer, or, every other time one did not pay,
//   half: with two busy cores of eight, seven threads stall as eight do, and 8 -> 4 -> 5 -> 6
//   finds the count that does not. A probe whose first three frames are each 1.25x slower than
//   the window before it ends there: an idle machine pays 4 frames at the fewer count, not 9.
// - The count and the gaps outlive a generation (contention outlives one request); a change of
//   the largest count (the user's thread setting) starts afresh.
//
// Plain arithmetic on the frame times it is given; the caller sets the count
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
    // The frame just decoded at threads() took `ms`.
    void after_frame(double ms);

    int max_threads() const { return m_max; }
    // Times the settled count changed (probes that paid).
    int switches() const { return m_switches; }

private:
    void reset(int max_threads);
    void start_probe(int direction);
    void end_probe(double probe_median);
    int& gap(int direction) { return direction < 0 ? m_gap_down : m_gap_up; }

    Options m_options;
    int m_max = 1;
    int m_settled = 1;    // the count frames run at between probes
    int m_running = 1;    // the count of the next frame: m_settled, or m_settled + m_probe while probing
    int m_probe = 0;      // -1 / +1 while probing fewer / more threads, else 0
    int m_skip = 0;       // frames not to count (a new count, a new generation)
    int m_since = 0;      // counted frames at m_settled since it settled or since the last probe
    int m_gap_down = 0, m_gap_up = 0;
    bool m_halve = false;    // the next probe down halves the count instead of taking one thread
    double m_reference = 0;  // median of m_settled's first window (0: none yet)
    double m_before = 0;     // median of m_settled's last window
    int m_switches = 0;
    std::vector<double> m_window;
};

}  // namespace reef
