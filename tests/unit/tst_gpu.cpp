// The CUDA path on a GPU machine: tiny demo model on cuda in bf16, CUDA memory figures, the backend
// report per call site. Exits 77 (skipped) where libtorch has no CUDA or no GPU is visible.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <filesystem>
#include <vector>

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
    // Batched decode on the GPU (issue #27): every request ends with its own result, they decoded
    // together, and each first frame (sampled from the request's own prefill, the same kernels as
    // alone) equals the one-request run's. Later frames go through cuBLAS with another M, whose
    // sums may round differently, so they are not compared.
    std::vector<SynthesisRequest> batch;
    for (const char* text : {"The first request of the batch.", "A second one.", "And a third, somewhat longer."}) {
        SynthesisRequest b = r;
        b.id = batch.size() + 1;
        b.text = text;
        batch.push_back(b);
    }
    const auto together = engine.synthesize_batch(batch, 3, {});
    CHECK_EQ(together.size(), size_t(3));
    for (size_t i = 0; i < together.size() && i < batch.size(); ++i) {
        CHECK(together[i].ok());
        const auto alone = engine.synthesize(batch[i], {});
        CHECK(alone.ok());
        if (!together[i] || !alone) continue;
        CHECK(together[i]->codes.n_frames > 0);
        CHECK(together[i]->metrics.batch >= 2);   // 3, unless another ended at its first frame
        CHECK_EQ(int64_t(together[i]->audio.size()), int64_t(together[i]->codes.n_frames) * kSamplesPerFrame);
        for (int k = 0; k < alone->codes.n_codebooks; ++k) CHECK_EQ(together[i]->codes.at(k, 0), alone->codes.at(k, 0));
    }
    std::printf("%d failed checks\n", reef_test::failures());
    return reef_test::failures() ? 1 : 0;
}
