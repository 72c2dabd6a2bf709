// The interface the UI talks to. Engine implements it; UI tests inject a fake.
#pragma once
#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef {

class TtsBackend {
public:
    virtual ~TtsBackend() = default;
    // All calls come from one thread (the engine thread). Each returns an error value, never throws.
    virtual Result<ModelInfo> load(const EngineConfig& config) = 0;
    virtual bool is_loaded() const = 0;
    virtual Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) = 0;
    // Reference clip (any libsndfile format) -> codes (10, T). Needs a loaded codec.
    virtual Result<Codes> encode_reference(const std::vector<float>& mono_44k) = 0;
    virtual DeviceCaps device_caps() const = 0;
};

}  // namespace reef
