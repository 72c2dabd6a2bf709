// The engine facade: the one API that the GUI worker and reef-cli both call.
#pragma once
#include <functional>
#include <memory>

#include "reef/backend.h"
#include "reef/bench.h"
#include "reef/sdpa_bench.h"

namespace reef {

class Engine final : public TtsBackend {
public:
    Engine();
    ~Engine() override;
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    Result<ModelInfo> load(const EngineConfig& config) override;
    bool is_loaded() const override;
    void unload();
    Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) override;
    std::vector<Result<SynthesisResult>> synthesize_batch(
        const std::vector<SynthesisRequest>& requests, int max_batch, const Callbacks& callbacks,
        const std::function<bool(uint64_t request_id)>& cancel_request = {}, const RequestDone& on_done = {}) override;
    Result<Codes> encode_reference(const std::vector<float>& mono_44k) override;
    Result<std::vector<float>> decode_codes(const Codes& codes) override;
    DeviceCaps device_caps() const override;
    Result<CompiledPackageInfo> compile_decode_step(const std::function<void(const std::string&)>& progress = {},
                                                    const std::function<bool()>& should_abort = {}) override;
    Result<BenchReport> bench(const BenchRequest& request,
                              const std::function<void(int, const std::string&)>& progress,
                              const std::function<bool()>& should_abort) override;
    // The loaded model, if any, is untouched; sets libtorch's thread count when cpu_threads > 0.
    Result<SdpaBenchReport> sdpa_bench(const SdpaBenchRequest& request,
                                       const std::function<void(const std::string&)>& progress = {},
                                       const std::function<bool()>& should_abort = {}) override;

    static VersionInfo versions();
    // What this build and machine can run on `device` (compile modes, precisions, devices, each
    // with the reason when not), without a loaded model: for refusing a request before any work.
    static DeviceCaps capabilities(DeviceKind device);
    // Whether `device` (cuda:`index`) can run here: Ok, or the UnsupportedDevice error load() would
    // return for it (the reason, and a hint), without loading anything or changing the current
    // device. reef-cli refuses a --device with it before any work.
    static Status check_device(DeviceKind device, int index = 0);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Writes a deterministic random-weight model in the real file formats (docs/architecture.md, "Adding a model layout").
// preset: "tiny" | "s1-mini" | "s2-pro"; layout: "s2" (safetensors + tokenizer.json) or
// "s1" (model.pth + tokenizer.tiktoken). Writes into a temp folder, then renames.
Status write_demo_model(const std::string& dir, const std::string& preset, const std::string& layout,
                        uint64_t seed = 1234);

}  // namespace reef
