// A scripted TtsBackend for UI tests: frames, chunks, perf samples, delays and errors on demand.
// It honours should_abort once per frame, as the real engine does.
#pragma once
#include <atomic>
#include <memory>
#include <optional>

#include "reef/backend.h"
#include "reef/bench.h"

namespace reef_test {

struct FakeScript {
    int load_delay_ms = 0;
    // A latch the test holds: while set, load() waits here, so a test can check what happened
    // while the backend was still loading (an order, not a time). It lets go by itself after 20 s,
    // so that a broken build fails instead of hanging.
    std::atomic<bool> hold_load{false};
    std::optional<reef::EngineError> load_error;
    reef::ModelInfo info = [] {
        reef::ModelInfo i;
        i.name = "fake model";
        i.model_type = "fish_qwen3_omni";
        i.num_codebooks = 10;
        i.max_seq_len = 4096;
        i.n_parameters = 1234567;
        return i;
    }();
    int frames = 40;
    int frame_delay_ms = 2;
    int first_frame_delay_ms = 0;      // before frame 0: a compile of the decode step, say
    int chunk_frames = 8;              // 0 = no streaming, audio only in the result
    std::optional<reef::EngineError> synth_error;   // returned after the frames ran
    bool throw_in_synth = false;       // a bug in the backend: the worker must catch it
    int bench_delay_ms = 0;

    // Observations (written on the engine thread).
    std::atomic<int> loads{0}, syntheses{0}, aborted{0}, encodes{0}, benches{0};
    std::atomic<int> loads_done{0};    // load() calls that returned (loads counts those begun)
    std::atomic<uint64_t> last_request_id{0};
    std::atomic<int> batch_calls{0}, last_batch_requests{0}, last_max_batch{-1};
    std::atomic<int> last_batch_listened{0};   // the last batch's requests marked listened_live
    std::atomic<int> last_listened{-1};        // listened_live of the last request synthesized
};

class FakeBackend : public reef::TtsBackend {
public:
    explicit FakeBackend(std::shared_ptr<FakeScript> script) : m_script(std::move(script)) {}
    reef::Result<reef::ModelInfo> load(const reef::EngineConfig& config) override;
    bool is_loaded() const override { return m_loaded; }
    reef::Result<reef::SynthesisResult> synthesize(const reef::SynthesisRequest& request,
                                                   const reef::Callbacks& callbacks) override;
    // Counts the call, then runs the requests one by one (TtsBackend's default).
    std::vector<reef::Result<reef::SynthesisResult>> synthesize_batch(
        const std::vector<reef::SynthesisRequest>& requests, int max_batch, const reef::Callbacks& callbacks,
        const std::function<bool(uint64_t)>& cancel_request = {}, const reef::RequestDone& on_done = {}) override;
    reef::Result<reef::Codes> encode_reference(const std::vector<float>& mono_44k) override;
    reef::DeviceCaps device_caps() const override;

    reef::Result<reef::BenchReport> bench(const reef::BenchRequest& request,
                                          const std::function<void(int, const std::string&)>& progress,
                                          const std::function<bool()>& should_abort) override;

private:
    std::shared_ptr<FakeScript> m_script;
    bool m_loaded = false;
};

reef::BenchReport makeFakeBenchReport(const reef::BenchRequest& request);
std::vector<float> fakeTone(int64_t first_sample, size_t n, float freq = 220.0f);

}  // namespace reef_test
