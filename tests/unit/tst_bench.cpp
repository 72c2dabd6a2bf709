// Engine::bench on the tiny demo model: every arm runs or says why not; quality vs the reference.
#include <filesystem>

#include "check.h"
#include "reef/bench_report.h"
#include "reef/engine.h"

using namespace reef;

TEST_CASE(bench_runs_cpu_arms_and_reports_ineligible_ones) {
    const auto dir = reef_test::temp_dir("bench_model") / "tiny";
    std::filesystem::remove_all(dir);
    CHECK(write_demo_model(dir.string(), "tiny", "s2").ok());
    BenchRequest req;
    req.model_dir = dir.string();
    for (const char* a : {"eager:math", "eager:flash", "eager:auto:full", "eager:efficient", "cuda-graph:auto"})
        req.arms.push_back(*parse_bench_arm(a));
    req.frames = 12;
    req.warmup = 2;
    req.repeats = 2;
    req.logit_steps = 4;
    Engine engine;
    std::vector<std::string> progress;
    auto r = engine.bench(req, [&](int, const std::string& m) { progress.push_back(m); }, {});
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK_EQ(int(r->arms.size()), 5);
    for (int i = 0; i < 3; ++i) {
        const ArmResult& a = r->arms[size_t(i)];
        CHECK(a.ran);
        CHECK(a.warm_frames_per_s > 0);
        CHECK(a.cold_first_frame_ms > 0);
        CHECK_EQ(int(a.greedy_tokens.size()), 12);
        CHECK(a.quality.logits_finite);
        CHECK(a.quality.within_tolerance);
        CHECK_EQ(a.quality.greedy_exact_prefix, 12);
        CHECK(!a.audio.empty());
        CHECK(!a.backends.empty());
    }
    CHECK(r->arms[0].backends[0].backend == SdpaBackend::Math);
    CHECK(!r->arms[3].ran);
    CHECK(r->arms[3].error.find("efficient") != std::string::npos);
    CHECK(!r->arms[4].ran);
    CHECK(r->arms[4].error.find("cuda-graph") != std::string::npos);
    CHECK(bench_report_markdown(*r).find("eager:auto:full") != std::string::npos);
    CHECK(!progress.empty());
}

TEST_MAIN()
