// Engine facade: owns the loaded pipeline; every entry point returns a value, never throws.
#include "reef/engine.h"

#include <filesystem>

#include "facade_guard.h"
#include "runtime/device.h"

namespace reef {

struct Engine::Impl {
    EngineConfig config;
    bool loaded = false;
};

Engine::Engine() : m_impl(std::make_unique<Impl>()) {}
Engine::~Engine() = default;

Result<ModelInfo> Engine::load(const EngineConfig& config) {
    return guarded("load", [&]() -> Result<ModelInfo> {
        if (!std::filesystem::is_directory(config.model_dir))
            throw ReefError(ErrorCode::ModelNotFound, "model folder not found: " + config.model_dir,
                            "point Reef at a fish-speech S2-Pro or S1-mini folder, or run reef-cli demo-model");
        throw ReefError(ErrorCode::Internal, "the text2semantic engine is not built yet");
    });
}

bool Engine::is_loaded() const { return m_impl->loaded; }
void Engine::unload() { m_impl->loaded = false; }

Result<SynthesisResult> Engine::synthesize(const SynthesisRequest&, const Callbacks&) {
    return EngineError{ErrorCode::NotLoaded, "no model is loaded", "load a model first"};
}

Result<Codes> Engine::encode_reference(const std::vector<float>&) {
    return EngineError{ErrorCode::NotLoaded, "no codec is loaded", "load a model first"};
}

Result<std::vector<float>> Engine::decode_codes(const Codes&) {
    return EngineError{ErrorCode::NotLoaded, "no codec is loaded", "load a model first"};
}

DeviceCaps Engine::device_caps() const { return query_device_caps(m_impl->config.device); }

Result<BenchReport> Engine::bench(const BenchRequest&, const std::function<void(int, const std::string&)>&,
                                  const std::function<bool()>&) {
    return EngineError{ErrorCode::NotLoaded, "the bench needs the text2semantic engine", {}};
}

Status write_demo_model(const std::string&, const std::string&, const std::string&, uint64_t) {
    return EngineError{ErrorCode::Internal, "demo-model writer is not built yet", {}};
}

}  // namespace reef
