// The CUDA path on a GPU machine: tiny demo model on cuda in bf16, CUDA memory figures, the backend
// report per call site. Exits 77 (skipped) where libtorch has no CUDA or no GPU is visible.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <filesystem>

#include "check.h"
#include "reef/engine.h"

using namespace reef;

int main() {
    const VersionInfo v = Engine::versions();
    // The CUDA build on a CPU machine (CI): libtorch_cuda must be in the process even with no GPU.
    const char* expect = std::getenv("REEF_EXPECT_CUDA");
    if (expect && std::string(expect) == "1" && !v.cuda_compiled) {
        std::printf("FAIL: built against a CUDA libtorch, but CUDA is not compiled into the running one\n");
        return 1;
    }
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
