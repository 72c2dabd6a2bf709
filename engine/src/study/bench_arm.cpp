// Arm names: "<compile>:<sdpa>[:<kv>][:linear]", e.g. "eager:math", "cuda-graph:auto:full",
// "eager:auto:linear" (projections through libtorch's linear: the A/B of the CPU GEMV kernels).
#include <sstream>

#include "reef/bench.h"

namespace reef {

std::string BenchArm::name() const {
    std::string s = std::string(to_string(compile_mode)) + ":" + to_string(sdpa_policy);
    if (kv_mode != KvMode::ActivePrefix) s += std::string(":") + to_string(kv_mode);
    if (libtorch_linear) s += ":linear";
    return s;
}

Result<BenchArm> parse_bench_arm(const std::string& spec) {
    std::vector<std::string> parts;
    std::stringstream ss(spec);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    BenchArm arm;
    if (parts.size() > 2 && parts.back() == "linear") {
        arm.libtorch_linear = true;
        parts.pop_back();
    }
    if (parts.size() < 2 || parts.size() > 3)
        return EngineError{ErrorCode::InvalidArgument,
                           "bad arm '" + spec +
                               "': expected <compile>:<sdpa>[:<kv>][:linear], e.g. eager:math, eager:auto:full or "
                               "eager:auto:linear",
                           {}};
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

Result<std::vector<int>> parse_context_list(const std::string& list) {
    std::vector<int> out;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');) {
        const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
        if (b == std::string::npos) continue;
        item = item.substr(b, e - b + 1);
        long long v = 0;
        size_t used = 0;
        try {
            v = std::stoll(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || v < 1 || v > (1 << 20))
            return EngineError{ErrorCode::InvalidArgument,
                               "bad context length '" + item + "': expected a token count from 1 to 1048576", {}};
        out.push_back(int(v));
    }
    if (out.empty())
        return EngineError{ErrorCode::InvalidArgument, "the context list is empty: give lengths like 128,512,2048", {}};
    return out;
}

}  // namespace reef
