// Names of the public enums and their parsers; one table per enum so both directions agree.
#include "reef/remote.h"
#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <utility>

#include "check.h"
#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef {
namespace {

template <class E, size_t N>
const char* name_of(const std::array<std::pair<E, const char*>, N>& table, E v) {
    for (const auto& [e, n] : table)
        if (e == v) return n;
    return "?";
}
template <class E, size_t N>
std::optional<E> parse_of(const std::array<std::pair<E, const char*>, N>& table, const std::string& s) {
    for (const auto& [e, n] : table)
        if (s == n) return e;
    return std::nullopt;
}

constexpr std::array kDevices{std::pair{DeviceKind::Cpu, "cpu"}, std::pair{DeviceKind::Cuda, "cuda"},
                              std::pair{DeviceKind::Mps, "mps"}};
constexpr std::array kPrecisions{std::pair{Precision::Fp32, "fp32"}, std::pair{Precision::Bf16, "bf16"},
                                 std::pair{Precision::Fp16, "fp16"}};
constexpr std::array kCompileModes{std::pair{CompileMode::Eager, "eager"},
                                   std::pair{CompileMode::CudaGraph, "cuda-graph"},
                                   std::pair{CompileMode::AotInductor, "aot-inductor"}};
constexpr std::array kSdpaPolicies{std::pair{SdpaPolicy::Auto, "auto"},      std::pair{SdpaPolicy::Math, "math"},
                                   std::pair{SdpaPolicy::Flash, "flash"},    std::pair{SdpaPolicy::Efficient, "efficient"},
                                   std::pair{SdpaPolicy::Cudnn, "cudnn"},    std::pair{SdpaPolicy::FishSpeech, "fish-speech"},
                                   std::pair{SdpaPolicy::Reef, "reef"}};
constexpr std::array kKvModes{std::pair{KvMode::ActivePrefix, "active"}, std::pair{KvMode::Full, "full"}};
constexpr std::array kCallSites{std::pair{CallSite::SlowPrefill, "slow-prefill"},
                                std::pair{CallSite::SlowDecode, "slow-decode"},
                                std::pair{CallSite::FastDecode, "fast-decode"},
                                std::pair{CallSite::CodecWindow, "codec-window"}};
constexpr std::array kBackends{std::pair{SdpaBackend::Unknown, "unknown"},  std::pair{SdpaBackend::Math, "math"},
                               std::pair{SdpaBackend::Flash, "flash"},      std::pair{SdpaBackend::Efficient, "efficient"},
                               std::pair{SdpaBackend::Cudnn, "cudnn"},      std::pair{SdpaBackend::Overrideable, "overrideable"},
                               std::pair{SdpaBackend::Manual, "manual"},    std::pair{SdpaBackend::Reef, "reef"}};
constexpr std::array kErrorCodes{
    std::pair{ErrorCode::InvalidArgument, "invalid-argument"}, std::pair{ErrorCode::ModelNotFound, "model-not-found"},
    std::pair{ErrorCode::CorruptModel, "corrupt-model"},       std::pair{ErrorCode::ShapeMismatch, "shape-mismatch"},
    std::pair{ErrorCode::UnsupportedDevice, "unsupported-device"},
    std::pair{ErrorCode::BackendUnavailable, "backend-unavailable"},
    std::pair{ErrorCode::NotLoaded, "not-loaded"},             std::pair{ErrorCode::Cancelled, "cancelled"},
    std::pair{ErrorCode::Io, "io"},                            std::pair{ErrorCode::Internal, "internal"},
    std::pair{ErrorCode::InsufficientMemory, "insufficient-memory"}};

}  // namespace

const char* to_string(DeviceKind v) { return name_of(kDevices, v); }
const char* to_string(Precision v) { return name_of(kPrecisions, v); }
const char* to_string(CompileMode v) { return name_of(kCompileModes, v); }
const char* to_string(SdpaPolicy v) { return name_of(kSdpaPolicies, v); }
const char* to_string(KvMode v) { return name_of(kKvModes, v); }
const char* to_string(CallSite v) { return name_of(kCallSites, v); }
const char* to_string(SdpaBackend v) { return name_of(kBackends, v); }
const char* error_code_name(ErrorCode code) { return name_of(kErrorCodes, code); }

std::optional<DeviceKind> parse_device(const std::string& s) { return parse_of(kDevices, s); }
std::optional<Precision> parse_precision(const std::string& s) { return parse_of(kPrecisions, s); }
std::optional<CompileMode> parse_compile_mode(const std::string& s) { return parse_of(kCompileModes, s); }
std::optional<SdpaPolicy> parse_sdpa_policy(const std::string& s) { return parse_of(kSdpaPolicies, s); }
std::optional<KvMode> parse_kv_mode(const std::string& s) { return parse_of(kKvModes, s); }

std::optional<DeviceSpec> parse_device_spec(const std::string& s) {
    const size_t colon = s.find(':');
    const auto kind = parse_device(s.substr(0, colon));
    if (!kind) return std::nullopt;
    if (colon == std::string::npos) return DeviceSpec{*kind, 0};
    const std::string index = s.substr(colon + 1);
    // an index only for CUDA, and only plain decimal digits (no sign, no spaces, at most 4 digits)
    if (*kind != DeviceKind::Cuda || index.empty() || index.size() > 4 ||
        index.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return DeviceSpec{*kind, std::stoi(index)};
}

std::string to_string(const DeviceSpec& d) {
    return d.kind == DeviceKind::Cuda ? "cuda:" + std::to_string(d.index) : std::string(to_string(d.kind));
}

std::string EngineError::to_string() const {
    std::string s = std::string(error_code_name(code)) + ": " + message;
    if (!hint.empty()) s += " (" + hint + ")";
    return s;
}

void fail_check(const char* cond, const char* file, int line, const std::string& msg) {
    throw ReefError(ErrorCode::Internal,
                    std::string("internal check failed: ") + cond + " at " + file + ":" + std::to_string(line) + ": " + msg);
}

// reef/remote.h: names of the remote flavours (here, so builds without the remote backend have them).
const char* to_string(RemoteFlavour f) {
    switch (f) {
    case RemoteFlavour::Auto: return "auto";
    case RemoteFlavour::FishSpeech: return "fish-speech";
    case RemoteFlavour::SglangOmni: return "sglang-omni";
    case RemoteFlavour::VllmOmni: return "vllm-omni";
    }
    return "auto";
}

std::optional<RemoteFlavour> parse_remote_flavour(const std::string& s) {
    if (s == "auto" || s == "openai") return RemoteFlavour::Auto;
    if (s == "fish-speech" || s == "fish-audio") return RemoteFlavour::FishSpeech;
    if (s == "sglang-omni" || s == "sglang") return RemoteFlavour::SglangOmni;
    if (s == "vllm-omni" || s == "vllm") return RemoteFlavour::VllmOmni;
    return std::nullopt;
}

bool remote_flavour_openai(const std::string& s) { return s == "openai"; }

std::string describe_step_threads(const std::vector<int>& step_threads) {
    std::map<int, int> frames;  // count -> frames
    for (const int n : step_threads) ++frames[n];
    if (frames.size() < 2) return {};
    std::vector<std::pair<int, int>> by_use(frames.begin(), frames.end());
    std::stable_sort(by_use.begin(), by_use.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string s;
    for (const auto& [n, f] : by_use) {
        if (!s.empty()) s += ", ";
        s += std::to_string(n) + (s.empty() ? (n == 1 ? " thread" : " threads") : "") + " for " + std::to_string(f) +
             (s.empty() ? " frames" : "");
    }
    return s;
}

}  // namespace reef
