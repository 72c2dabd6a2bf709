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

TEST_MAIN()
