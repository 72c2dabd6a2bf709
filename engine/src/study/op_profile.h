// Where decode time goes: the ATen ops that ran while an OpProfile was open, by self time, from
// libtorch's own profiler (Kineto, CPU activities). What `reef-cli bench --profile FILE` writes.
#pragma once
#include <string>
#include <vector>

namespace reef {

struct OpStat {
    std::string name;
    long long calls = 0;
    double self_ms = 0;    // time in the op itself, excluding the ops it called
    double total_ms = 0;   // including the ops it called
};

class OpProfile {
public:
    OpProfile();   // starts profiling this thread's ops
    ~OpProfile();  // stops if stop() was not called
    OpProfile(const OpProfile&) = delete;
    OpProfile& operator=(const OpProfile&) = delete;
    // Stops and returns every op, largest self time first.
    std::vector<OpStat> stop();

private:
    bool m_running = false;
};

// A Markdown table of the top `rows` ops, with each op's share of the summed self time and the
// time per frame for `frames` frames.
std::string op_profile_markdown(const std::vector<OpStat>& stats, int frames, int rows = 25);

}  // namespace reef
