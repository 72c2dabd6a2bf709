// The engine thread's one backend, which is either this machine's engine or a server's: the
// GUI names the server (or none) with setServer, and the next load() switches to it. A load that
// fails keeps whatever was working before, as the native engine does with a model.
#pragma once
#include <memory>
#include <mutex>
#include <optional>

#include "reef/backend.h"
#include "reef/remote.h"

namespace reef::ui {

class BackendRouter final : public TtsBackend {
public:
    explicit BackendRouter(std::unique_ptr<TtsBackend> local) : m_local(std::move(local)), m_active(m_local.get()) {}
    // Any thread. nullopt: this machine's engine. Applies at the next load().
    void setServer(std::optional<ServerProfile> server);
    bool isRemote() const { return m_active != m_local.get(); }

    Result<ModelInfo> load(const EngineConfig& config) override;
    bool is_loaded() const override { return m_active->is_loaded(); }
    Result<SynthesisResult> synthesize(const SynthesisRequest& r, const Callbacks& cb) override {
        return m_active->synthesize(r, cb);
    }
    std::vector<Result<SynthesisResult>> synthesize_batch(const std::vector<SynthesisRequest>& requests, int max_batch,
                                                          const Callbacks& cb,
                                                          const std::function<bool(uint64_t)>& cancel_request,
                                                          const RequestDone& on_done) override {
        return m_active->synthesize_batch(requests, max_batch, cb, cancel_request, on_done);
    }
    Result<Codes> encode_reference(const std::vector<float>& mono) override { return m_active->encode_reference(mono); }
    // What this machine can run: the Settings panel's choices, whichever backend is active.
    DeviceCaps device_caps() const override { return m_local->device_caps(); }
    Result<std::vector<float>> decode_codes(const Codes& codes) override { return m_active->decode_codes(codes); }
    Result<CompiledPackageInfo> compile_decode_step(const std::function<void(const std::string&)>& progress,
                                                    const std::function<bool()>& should_abort) override {
        return m_active->compile_decode_step(progress, should_abort);
    }
    Result<BenchReport> bench(const BenchRequest& request, const std::function<void(int, const std::string&)>& progress,
                              const std::function<bool()>& should_abort) override {
        return m_active->bench(request, progress, should_abort);
    }
    Result<SdpaBenchReport> sdpa_bench(const SdpaBenchRequest& request, const std::function<void(const std::string&)>& progress,
                                       const std::function<bool()>& should_abort) override {
        return m_active->sdpa_bench(request, progress, should_abort);
    }

private:
    std::unique_ptr<TtsBackend> m_local;
    std::unique_ptr<TtsBackend> m_remote;
    TtsBackend* m_active;
    std::mutex m_mutex;
    std::optional<ServerProfile> m_server;   // guarded by m_mutex
};

}  // namespace reef::ui
