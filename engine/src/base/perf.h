// Timing helpers for the metrics of every run: a stopwatch, medians, frames/s windows.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

namespace reef {

class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    double ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count(); }
    void restart() { m_start = std::chrono::steady_clock::now(); }

private:
    std::chrono::steady_clock::time_point m_start;
};

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    const double hi = v[mid];
    if (v.size() % 2) return hi;
    return (*std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid)) + hi) / 2;
}

// Warm frames/s: the median step time after `warmup` steps, as a rate.
inline double warm_frames_per_s(const std::vector<double>& step_ms, int warmup) {
    if (step_ms.empty()) return 0;
    const size_t skip = std::min(step_ms.size() - 1, size_t(std::max(warmup, 0)));
    const double m = median(std::vector<double>(step_ms.begin() + std::ptrdiff_t(skip), step_ms.end()));
    return m > 0 ? 1000.0 / m : 0;
}

}  // namespace reef
