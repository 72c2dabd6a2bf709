// Bench arm names and the report writers (JSON schema reef-bench/3, Markdown, CSV).
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "check.h"
#include "reef/bench_report.h"

using namespace reef;

static BenchReport sample_report() {
    BenchReport r;
    r.reef_version = "0.1.0";
    r.libtorch_version = "2.13.0";
    r.device_name = "cpu";
    r.model_name = "demo tiny";
    r.precision = "fp32";
    r.logit_tolerance = 1e-3;
    r.read_bandwidth_gbps = 20.0;
    r.weight_bytes_per_frame = 1000000;
    ArmResult a;
    a.arm = *parse_bench_arm("eager:math");
    a.ran = true;
    a.warm_frames_per_s = 123.5;
    a.bytes_per_frame = 1200000;
    a.roofline_frames_per_s = 494.0;
    a.roofline_fraction = 0.25;
    a.backends = {{CallSite::SlowDecode, SdpaBackend::Math, 64, "q[1,4,1,16]"}};
    ArmResult b;
    b.arm = *parse_bench_arm("eager:efficient");
    b.error = "SDPA backend 'efficient' cannot run the slow-prefill attention";
    r.arms = {a, b};
    return r;
}

TEST_CASE(arm_names_round_trip) {
    for (const char* s : {"eager:math", "eager:fish-speech", "cuda-graph:auto:full", "aot-inductor:flash"}) {
        auto arm = parse_bench_arm(s);
        CHECK(arm.ok());
        if (arm) CHECK(arm->name() == s);
    }
    CHECK(parse_bench_arm("eager:auto:active")->name() == "eager:auto");
    auto bad = parse_bench_arm("eager:turbo");
    CHECK(!bad.ok());
    CHECK(bad.error().message.find("turbo") != std::string::npos);
}

TEST_CASE(json_report_has_schema_fields) {
    const auto j = nlohmann::json::parse(bench_report_json(sample_report()));
    CHECK(j["schema"] == "reef-bench/3");
    CHECK(j["roofline"]["read_bandwidth_gbps"] == 20.0);
    CHECK(j["roofline"]["weight_bytes_per_frame"] == 1000000);
    CHECK(j["arms"][0]["bytes_per_frame"] == 1200000);
    CHECK(j["arms"][0]["roofline_fraction"] == 0.25);
    CHECK(j["arms"].size() == 2);
    CHECK(j["arms"][0]["warm_frames_per_s"] == 123.5);
    CHECK(j["arms"][0]["backends"][0]["backend"] == "math");
    CHECK(j["arms"][1]["ran"] == false);
    CHECK(j["arms"][1]["error"].get<std::string>().find("efficient") != std::string::npos);
}

TEST_CASE(markdown_and_csv_list_every_arm) {
    const BenchReport r = sample_report();
    const std::string md = bench_report_markdown(r);
    CHECK(md.find("`eager:math` | 123.50 | 25.0%") != std::string::npos);
    CHECK(md.find("read bandwidth 20.0 GB/s") != std::string::npos);
    CHECK(md.find("not run") != std::string::npos);
    const std::string csv = bench_report_csv(r);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
}

TEST_CASE(atomic_write_to_missing_folder_fails_cleanly) {
    const auto dir = reef_test::temp_dir("bench_report");
    auto st = write_bench_json(sample_report(), (dir / "nope" / "r.json").string());
    CHECK(!st.ok());
    CHECK(st.error().code == ErrorCode::Io);
    CHECK(write_bench_csv(sample_report(), (dir / "r.csv").string()).ok());
    CHECK(std::filesystem::exists(dir / "r.csv"));
    CHECK_EQ(int(std::distance(std::filesystem::directory_iterator(dir), {})), 1);
}

TEST_MAIN()
