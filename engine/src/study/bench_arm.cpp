// Arm names: "<compile>:<sdpa>[:<kv>][:linear][:ops][:team][:int8|:int4[-gN]][@<cpu target>]", e.g. "eager:math",
// "cuda-graph:auto:full", "eager:auto:linear" (projections through libtorch's linear: the A/B of
// the CPU GEMV kernels), "eager:auto:team" (decode with the GEMV team, opt-in: its A/B),
// "eager:reef:ops" (every decode block through ATen's ops: the A/B of the fused CPU decode block),
// "eager:auto:int8" (the weights quantized to int8 for this arm), "eager:auto:int4" or
// "eager:auto:int4-g64" (int4 in groups of 128 or 64), "eager:auto@avx2" (the kernels forced to AVX2
// for this arm).
#include <sstream>

#include "reef/bench.h"

namespace reef {

std::string BenchArm::name() const {
    std::string s = std::string(to_string(compile_mode)) + ":" + to_string(sdpa_policy);
    if (kv_mode != KvMode::ActivePrefix) s += std::string(":") + to_string(kv_mode);
    if (libtorch_linear) s += ":linear";
    if (decode_ops) s += ":ops";
    if (gemv_team) s += ":team";
    if (int8_weights) s += ":int8";
    if (int4_group) s += int4_group == 128 ? std::string(":int4") : ":int4-g" + std::to_string(int4_group);
    if (!cpu_target.empty()) s += "@" + cpu_target;
    return s;
}

Result<BenchArm> parse_bench_arm(const std::string& spec) {
    BenchArm arm;
    const size_t at = spec.find('@');
    if (at != std::string::npos) {
        arm.cpu_target = spec.substr(at + 1);
        const bool name_ok = !arm.cpu_target.empty() &&
                             arm.cpu_target.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
        if (!name_ok)
            return EngineError{ErrorCode::InvalidArgument,
                               "bad arm '" + spec + "': expected a CPU target after '@' (reef-cli --version lists this "
                                                    "CPU's), e.g. eager:auto@avx2",
                               {}};
    }
    std::vector<std::string> parts;
    std::stringstream ss(spec.substr(0, at));
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() > 2 && parts.back() == "int8") {
        arm.int8_weights = true;
        parts.pop_back();
    } else if (parts.size() > 2 && parts.back().rfind("int4", 0) == 0) {
        const std::string& f = parts.back();
        arm.int4_group = f == "int4" ? 128 : f == "int4-g32" ? 32 : f == "int4-g64" ? 64 : f == "int4-g128" ? 128
                                                              : f == "int4-g256" ? 256 : 0;
        if (!arm.int4_group)
            return EngineError{ErrorCode::InvalidArgument,
                               "bad arm '" + spec + "': unknown weight format '" + f + "' (int4, int4-g32, int4-g64, int4-g256)",
                               {}};
        parts.pop_back();
    }
    if (parts.size() > 2 && parts.back() == "team") {
        arm.gemv_team = true;
        parts.pop_back();
    }
    if (parts.size() > 2 && parts.back() == "ops") {
        arm.decode_ops = true;
        parts.pop_back();
    }
    if (parts.size() > 2 && parts.back() == "linear") {
        arm.libtorch_linear = true;
        parts.pop_back();
    }
    if (parts.size() < 2 || parts.size() > 3)
        return EngineError{ErrorCode::InvalidArgument,
                           "bad arm '" + spec +
                               "': expected <compile>:<sdpa>[:<kv>][:linear][:ops][:team][:int8|:int4[-gN]][@<cpu target>], e.g. "
                               "eager:math, eager:auto:full, eager:auto:linear, eager:auto:int8, eager:auto:int4 or eager:auto@avx2",
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

namespace {

// "a, b,c" -> ints in [lo, hi]; `what` names an item in errors, `example` the list's form.
Result<std::vector<int>> parse_int_list(const std::string& list, int lo, int hi, const std::string& what,
                                        const std::string& example) {
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
        if (used != item.size() || v < lo || v > hi)
            return EngineError{ErrorCode::InvalidArgument, "bad " + what + " '" + item + "': expected " + example +
                                                               " from " + std::to_string(lo) + " to " + std::to_string(hi),
                               {}};
        out.push_back(int(v));
    }
    if (out.empty())
        return EngineError{ErrorCode::InvalidArgument, "the " + what + " list is empty", {}};
    return out;
}

}  // namespace

Result<std::vector<int>> parse_context_list(const std::string& list) {
    return parse_int_list(list, 1, 1 << 20, "context length", "a token count");
}

Result<std::vector<int>> parse_batch_list(const std::string& list) {
    return parse_int_list(list, 1, kMaxBatch, "batch size", "a number of sequences");
}

}  // namespace reef
