// The engine's public header on its own: versions, enum names, errors as values.
#include "check.h"
#include "reef/engine.h"

using namespace reef;

TEST_CASE(versions_name_libtorch) {
    const VersionInfo v = Engine::versions();
    CHECK(v.reef == REEF_VERSION);
    CHECK(v.libtorch.rfind("2.", 0) == 0);
}

TEST_CASE(enum_names_round_trip) {
    for (auto p : {SdpaPolicy::Auto, SdpaPolicy::Math, SdpaPolicy::Flash, SdpaPolicy::Efficient, SdpaPolicy::Cudnn,
                   SdpaPolicy::FishSpeech})
        CHECK(parse_sdpa_policy(to_string(p)) == p);
    for (auto m : {CompileMode::Eager, CompileMode::CudaGraph, CompileMode::AotInductor})
        CHECK(parse_compile_mode(to_string(m)) == m);
    CHECK(!parse_precision("fp8").has_value());
}

TEST_CASE(missing_model_folder_is_an_error_value) {
    Engine engine;
    EngineConfig config;
    config.model_dir = "/nonexistent/reef-model";
    auto r = engine.load(config);
    CHECK(!r.ok());
    CHECK(r.error().code == ErrorCode::ModelNotFound);
    CHECK(r.error().message.find("/nonexistent/reef-model") != std::string::npos);
    CHECK(!engine.is_loaded());
}

TEST_CASE(cpu_build_refuses_cuda_graph_with_a_reason) {
    Engine engine;
    const DeviceCaps caps = engine.device_caps();
    CHECK(caps.devices.at("cpu").available);
    CHECK(!caps.compile_modes.at("cuda-graph").available);
    CHECK(!caps.compile_modes.at("cuda-graph").reason.empty());
}

// Engine::check_device is the check load() runs (reef-cli refuses --device with it): the same error
// value, and nothing loaded. Caught if the two drift apart again (reef-cli with its own copy).
TEST_CASE(check_device_gives_the_error_load_gives) {
    CHECK(Engine::check_device(DeviceKind::Cpu).ok());
    const std::string empty_dir = reef_test::temp_dir("check_device").string();  // a folder: load gets to the device
    std::vector<DeviceSpec> unusable = {{DeviceKind::Cuda, 99}, {DeviceKind::Cuda, -1}};  // no such GPU anywhere
    if (!Engine::capabilities(DeviceKind::Cpu).devices.at("mps").available) unusable.push_back({DeviceKind::Mps, 0});
    for (const DeviceSpec& spec : unusable) {
        const Status checked = Engine::check_device(spec.kind, spec.index);
        CHECK(!checked.ok());
        if (checked.ok()) continue;
        CHECK(checked.error().code == ErrorCode::UnsupportedDevice);
        CHECK(!checked.error().message.empty() && !checked.error().hint.empty());
        Engine engine;
        EngineConfig config;
        config.model_dir = empty_dir;
        config.device = spec.kind;
        config.device_index = spec.index;
        const auto loaded = engine.load(config);
        CHECK(!loaded.ok());
        if (loaded.ok()) continue;
        CHECK(loaded.error().code == checked.error().code);
        CHECK(loaded.error().message == checked.error().message);
        CHECK(loaded.error().hint == checked.error().hint);
    }
}

// A backend that implements only the required calls (as a remote one may): the optional parts
// answer with an error value that names what is missing, and the interface holds everything
// reef-cli and the studio call, so neither needs to know which backend it has.
namespace {
class SpeechOnlyBackend final : public TtsBackend {
public:
    Result<ModelInfo> load(const EngineConfig&) override { return ModelInfo{}; }
    bool is_loaded() const override { return true; }
    Result<SynthesisResult> synthesize(const SynthesisRequest&, const Callbacks&) override { return SynthesisResult{}; }
    Result<Codes> encode_reference(const std::vector<float>&) override { return Codes{}; }
    DeviceCaps device_caps() const override { return {}; }
};
}  // namespace

TEST_CASE(optional_backend_parts_say_they_are_missing) {
    SpeechOnlyBackend b;
    TtsBackend& backend = b;
    const auto compiled = backend.compile_decode_step();
    CHECK(!compiled.ok() && compiled.error().code == ErrorCode::BackendUnavailable);
    CHECK(compiled.error().message.find("compiling the decode step") != std::string::npos);
    const auto bench = backend.bench(BenchRequest{}, {}, {});
    CHECK(!bench.ok() && bench.error().message.find("bench") != std::string::npos);
    CHECK(!backend.decode_codes(Codes{}).ok());
    CHECK(!backend.sdpa_bench(SdpaBenchRequest{}).ok());
    // the engine answers the same calls itself: with no model loaded it says that instead
    Engine engine;
    TtsBackend& real = engine;
    const auto r = real.compile_decode_step();
    CHECK(!r.ok() && r.error().message.find("with this backend") == std::string::npos);
}

TEST_MAIN()
