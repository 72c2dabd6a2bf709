#include "study/op_profile.h"

#include <torch/csrc/autograd/profiler_kineto.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace reef {
namespace {

namespace prof = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;

const ProfilerConfig& config() {
    static const ProfilerConfig c(ProfilerState::KINETO);
    return c;
}

struct Span {
    const prof::KinetoEvent* e;
    uint64_t start, end;
};

}  // namespace

OpProfile::OpProfile() {
    const std::set<ActivityType> activities{ActivityType::CPU};
    prof::prepareProfiler(config(), activities);
    prof::enableProfiler(config(), activities, {at::RecordScope::FUNCTION});
    m_running = true;
}

OpProfile::~OpProfile() {
    if (m_running) prof::disableProfiler();
}

namespace {
// Profiler bookkeeping events libtorch marks hidden. KinetoEvent::isHiddenEvent is not in every
// libtorch (2.8 lacks it); without it every CPU event counts.
template <class Event>
bool hidden(const Event& e) {
    if constexpr (requires { e.isHiddenEvent(); }) return e.isHiddenEvent();
    else return false;
}
}  // namespace

std::vector<OpStat> OpProfile::stop() {
    m_running = false;
    const auto result = prof::disableProfiler();
    // Self time = an op's span minus the spans of the ops directly inside it (same thread).
    std::map<uint64_t, std::vector<Span>> by_thread;
    for (const auto& e : result->events())
        if (!hidden(e) && e.deviceType() == c10::DeviceType::CPU)
            by_thread[e.startThreadId()].push_back({&e, e.startNs(), e.endNs()});
    std::map<std::string, OpStat> stats;
    for (auto& [tid, spans] : by_thread) {
        std::sort(spans.begin(), spans.end(),
                  [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
        std::vector<std::pair<const Span*, double>> open;  // span, children's time (ns)
        auto close = [&] {
            const auto [s, child_ns] = open.back();
            open.pop_back();
            const double total = double(s->end - s->start);
            OpStat& st = stats[s->e->name()];
            st.name = s->e->name();
            ++st.calls;
            st.total_ms += total / 1e6;
            st.self_ms += std::max(0.0, total - child_ns) / 1e6;
            if (!open.empty()) open.back().second += total;
        };
        for (const Span& s : spans) {
            while (!open.empty() && open.back().first->end <= s.start) close();
            open.push_back({&s, 0.0});
        }
        while (!open.empty()) close();
    }
    std::vector<OpStat> out;
    for (auto& [name, st] : stats) out.push_back(std::move(st));
    std::sort(out.begin(), out.end(), [](const OpStat& a, const OpStat& b) { return a.self_ms > b.self_ms; });
    return out;
}

std::string op_profile_markdown(const std::vector<OpStat>& stats, int frames, int rows) {
    double sum = 0;
    long long calls = 0;
    for (const auto& s : stats) sum += s.self_ms, calls += s.calls;
    std::ostringstream o;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%d frames: %.1f ms of op self time (%.2f ms per frame), %lld op calls (%.0f per frame)\n\n",
                  frames, sum, frames > 0 ? sum / frames : 0.0, calls, frames > 0 ? double(calls) / frames : 0.0);
    o << buf << "| op | calls per frame | self ms per frame | share | total ms per frame |\n|---|---:|---:|---:|---:|\n";
    const double f = std::max(frames, 1);
    for (int i = 0; i < rows && i < int(stats.size()); ++i) {
        const OpStat& s = stats[size_t(i)];
        // the name apart from the fixed buffer: Inductor's fused kernels have names of 300+ characters
        std::snprintf(buf, sizeof buf, "` | %.1f | %.3f | %.1f%% | %.3f |\n", double(s.calls) / f, s.self_ms / f,
                      sum > 0 ? 100.0 * s.self_ms / sum : 0.0, s.total_ms / f);
        o << "| `" << s.name << buf;
    }
    return o.str();
}

}  // namespace reef
