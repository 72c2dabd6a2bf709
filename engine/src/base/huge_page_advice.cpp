#include "base/huge_page_advice.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace reef {
namespace {

struct Measure {
    std::mutex mutex;
    size_t bytes = 0;       // advised bytes filled in the current window
    double seconds = 0;     // and their time
    std::atomic<bool> dear{false};
};

Measure& measure() {
    static Measure m;
    return m;
}

}  // namespace

HugePages huge_pages_setting() {
    const char* v = std::getenv("REEF_HUGE_PAGES");
    if (v && std::string_view(v) == "1") return HugePages::Always;
    if (v && std::string_view(v) == "0") return HugePages::Never;
    return HugePages::Measured;
}

bool advise_huge_pages() {
    switch (huge_pages_setting()) {
        case HugePages::Always: return true;
        case HugePages::Never: return false;
        case HugePages::Measured: break;
    }
    return !measure().dear.load();
}

void record_huge_page_fill(size_t bytes, double seconds) {
    Measure& m = measure();
    std::lock_guard lock(m.mutex);
    m.bytes += bytes;
    m.seconds += seconds;
    if (m.bytes < kHugePageMeasureBytes) return;
    // a window of fills decides; the next window starts afresh, so a machine whose huge pages turn
    // dear later (the host took its memory back) is noticed at its next loads too
    if (double(m.bytes) < kHugePageDearBelowBytesPerSecond * m.seconds) m.dear = true;
    m.bytes = 0;
    m.seconds = 0;
}

bool huge_pages_found_dear() { return measure().dear.load(); }

void reset_huge_page_measure() {
    Measure& m = measure();
    std::lock_guard lock(m.mutex);
    m.bytes = 0;
    m.seconds = 0;
    m.dear = false;
}

}  // namespace reef
