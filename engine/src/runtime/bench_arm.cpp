// Arm names: "<compile>:<sdpa>[:<kv>]", e.g. "eager:math", "cuda-graph:auto:full".
#include <sstream>

#include "reef/bench.h"

namespace reef {

std::string BenchArm::name() const {
    std::string s = std::string(to_string(compile_mode)) + ":" + to_string(sdpa_policy);
    if (kv_mode != KvMode::ActivePrefix) s += std::string(":") + to_string(kv_mode);
    return s;
}

Result<BenchArm> parse_bench_arm(const std::string& spec) {
    std::vector<std::string> parts;
    std::stringstream ss(spec);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() < 2 || parts.size() > 3)
        return EngineError{ErrorCode::InvalidArgument,
                           "bad arm '" + spec + "': expected <compile>:<sdpa>[:<kv>], e.g. eager:math or eager:auto:full",
                           {}};
    BenchArm arm;
    auto mode = parse_compile_mode(parts[0]);
    if (!mode)
        return EngineError{ErrorCode::InvalidArgument,
                           "bad arm '" + spec + "': unknown compile mode '" + parts[0] + "' (eager, cuda-graph, aot-inductor)",
                           {}};
    auto policy = parse_sdpa_policy(parts[1]);
    if (!policy)
        return EngineError{ErrorCode::InvalidArgument,
                           "bad arm '" + spec + "': unknown SDPA policy '" + parts[1] +
                               "' (auto, math, flash, efficient, cudnn, fish-speech)",
                           {}};
    arm.compile_mode = *mode;
    arm.sdpa_policy = *policy;
    if (parts.size() == 3) {
        auto kv = parse_kv_mode(parts[2]);
        if (!kv)
            return EngineError{ErrorCode::InvalidArgument,
                               "bad arm '" + spec + "': unknown KV mode '" + parts[2] + "' (active, full)", {}};
        arm.kv_mode = *kv;
    }
    return arm;
}

}  // namespace reef
