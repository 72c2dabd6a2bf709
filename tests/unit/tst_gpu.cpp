// The CUDA path on a GPU machine: tiny demo model on cuda in bf16, CUDA memory figures, the backend
// report per call site. Exits 77 (skipped) where libtorch has no CUDA or no GPU is visible.
#include <cstdio>
#include <filesystem>

#include "check.h"
#include "reef/engine.h"

using namespace reef;

int main() {
    const VersionInfo v = Engine::versions();
    if (!v.cuda_available) {
        std::printf("skipped: %s\n", v.cuda_compiled ? "no GPU visible" : "libtorch has no CUDA");
        return 77;
    }
    const auto dir = reef_test::temp_dir("gpu") / "tiny";
    std::filesystem::remove_all(dir);
    CHECK(write_demo_model(dir.string(), "tiny", "s2").ok());
    Engine engine;
    EngineConfig c;
    c.model_dir = dir.string();
    c.device = DeviceKind::Cuda;
    c.precision = Precision::Bf16;
    auto info = engine.load(c);
    CHECK(info.ok());
    if (!info) return 1;
    SynthesisRequest r;
    r.text = "Hello from the GPU.";
    r.sampling.temperature = 0;
    r.sampling.max_new_frames = 16;
    auto res = engine.synthesize(r, {});
    CHECK(res.ok());
    if (res) {
        CHECK(res->metrics.memory.cuda_peak_allocated_bytes > 0);
        CHECK(res->metrics.memory.cuda_reserved_bytes >= res->metrics.memory.cuda_allocated_bytes);
        CHECK(!res->metrics.backends.empty());
        CHECK_EQ(int64_t(res->audio.size()), int64_t(res->codes.n_frames) * kSamplesPerFrame);
        for (const auto& b : res->metrics.backends)
            std::printf("%s: %s x%lld %s\n", to_string(b.site), to_string(b.backend), (long long)b.calls, b.shape.c_str());
    }
    std::printf("%d failed checks\n", reef_test::failures());
    return reef_test::failures() ? 1 : 0;
}
