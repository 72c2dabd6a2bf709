// Bench arm names and the report writers (JSON schema reef-bench/14, Markdown, CSV).
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
    r.reread_bandwidth_gbps = 45.0;
    r.weight_bytes_per_frame = 10000000;
    r.fast_pass_bytes = 300000;
    r.fast_passes = 10;
    ArmResult a;
    a.arm = *parse_bench_arm("eager:math");
    a.ran = true;
    a.warm_frames_per_s = 123.5;
    a.bytes_per_frame = 1200000;
    a.roofline_frames_per_s = 494.0;
    a.roofline_fraction = 0.25;
    a.dram_roofline_fraction = 0.125;
    a.backends = {{CallSite::SlowDecode, SdpaBackend::Math, 64, "q[1,4,1,16]"}};
    a.cpu_kernels = "sse4";
    r.cpu_kernels_best = "avx2";
    r.cpu_target_requested = "sse4";
    r.weight_pages = "4k-dear";
    r.read_bandwidth_probes = {31.5, 20.0, 18.25};
    ArmResult b;
    b.arm = *parse_bench_arm("eager:efficient");
    b.error = "SDPA backend 'efficient' cannot run the slow-prefill attention";
    r.arms = {a, b};
    return r;
}

TEST_CASE(arm_names_round_trip) {
    for (const char* s : {"eager:math", "eager:fish-speech", "cuda-graph:auto:full", "aot-inductor:flash",
                          "eager:auto:linear", "eager:math:full:linear", "eager:auto@avx2",
                          "eager:auto:full:linear@sse4"}) {
        auto arm = parse_bench_arm(s);
        CHECK(arm.ok());
        if (arm) CHECK(arm->name() == s);
    }
    CHECK(parse_bench_arm("eager:auto:active")->name() == "eager:auto");
    CHECK(parse_bench_arm("eager:auto:linear")->libtorch_linear);
    CHECK(!parse_bench_arm("eager:auto:full")->libtorch_linear);
    CHECK(!parse_bench_arm("eager:linear").ok());        // the suffix needs an SDPA policy before it
    CHECK(!parse_bench_arm("eager:auto:full:linear:x").ok());
    CHECK(parse_bench_arm("eager:auto:full@avx512-bf16")->cpu_target == "avx512-bf16");
    CHECK(parse_bench_arm("eager:auto:full@avx512-bf16")->kv_mode == KvMode::Full);
    CHECK(parse_bench_arm("eager:auto")->cpu_target.empty());
    CHECK(!parse_bench_arm("eager:auto@").ok());         // a target after '@'
    CHECK(!parse_bench_arm("eager:auto@avx2:full").ok()); // the target comes last
    CHECK(!parse_bench_arm("eager@avx2").ok());
    auto bad = parse_bench_arm("eager:turbo");
    CHECK(!bad.ok());
    CHECK(bad.error().message.find("turbo") != std::string::npos);
}

TEST_CASE(json_report_has_schema_fields) {
    const auto j = nlohmann::json::parse(bench_report_json(sample_report()));
    CHECK(j["schema"] == "reef-bench/14");
    CHECK(j["roofline"]["read_bandwidth_gbps"] == 20.0);
    CHECK(j["roofline"]["weight_bytes_per_frame"] == 10000000);
    CHECK(j["arms"][0]["bytes_per_frame"] == 1200000);
    CHECK(j["arms"][0]["roofline_fraction"] == 0.25);
    CHECK(j["arms"][0]["dram_roofline_fraction"] == 0.125);
    CHECK(j["roofline"]["reread_bandwidth_gbps"] == 45.0);
    CHECK(j["roofline"]["fast_pass_bytes"] == 300000);
    CHECK(j["roofline"]["fast_passes"] == 10);
    CHECK(j["arms"].size() == 2);
    CHECK(j["arms"][0]["warm_frames_per_s"] == 123.5);
    CHECK(j["arms"][0]["backends"][0]["backend"] == "math");
    CHECK(j["arms"][1]["ran"] == false);
    CHECK(j["arms"][0]["cpu_kernels"] == "sse4");
    CHECK(j["arms"][1]["cpu_kernels"].is_null());  // nothing ran: no target named
    CHECK(j["cpu_kernels_best"] == "avx2");
    CHECK(j["roofline"]["read_bandwidth_probes_gbps"].size() == 3);
    CHECK(j["cpu_target_requested"] == "sse4");
    CHECK(j["weight_pages"] == "4k-dear");
    CHECK(j["arms"][0]["cpu_target"].is_null());
    CHECK(j["arms"][0]["libtorch_linear"] == false);
    CHECK(j["arms"][1]["error"].get<std::string>().find("efficient") != std::string::npos);
}

TEST_CASE(markdown_and_csv_list_every_arm) {
    const BenchReport r = sample_report();
    const std::string md = bench_report_markdown(r);
    CHECK(md.find("`eager:math` | 123.50 | 25.0% | 12.5%") != std::string::npos);
    CHECK(md.find("read bandwidth 20.0 GB/s") != std::string::npos);
    CHECK(md.find("median of 3 probes, one before the repeats and one after each arm's repeat: 18.2–31.5 GB/s") != std::string::npos);
    // 10 MB of weights, of which 10 passes of 0.3 MB: 7 MB read once
    CHECK(md.find("45.0 GB/s for 10 passes over 0.3 MB") != std::string::npos);
    CHECK(md.find("reads 7.0 MB of weights once") != std::string::npos);
    CHECK(md.find("not run") != std::string::npos);
    CHECK(md.find("`eager:math` sse4, `eager:efficient` none (libtorch's linear); this CPU's best: avx2; "
                  "REEF_CPU_TARGET = sse4; weights in 4 KB pages (huge pages were found dear") != std::string::npos);
    const std::string csv = bench_report_csv(r);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
}

// A report like one from a run with eager arms under the PR's rule, a compiled arm that could not
// run, and the key lengths the attention calls received: prompt 84 tokens, 16 frames.
static BenchReport pr_report_sample(SdpaBackend fish_speech_decode, int64_t active_kv_max) {
    BenchReport r = sample_report();
    r.request.frames = 16;
    r.request.text = "pipes | in | text";
    r.host.cpu_model = "Test CPU 9000";
    r.host.cpu_cores = 2;
    ArmResult fs;
    fs.arm = *parse_bench_arm("eager:fish-speech");
    fs.ran = true;
    fs.prompt_tokens = 84;
    fs.backends = {{CallSite::SlowDecode, fish_speech_decode, 30, "q", 85, active_kv_max}};
    ArmResult full;
    full.arm = *parse_bench_arm("eager:auto:full");
    full.ran = true;
    full.prompt_tokens = 84;
    full.backends = {{CallSite::SlowDecode, SdpaBackend::Flash, 30, "q", 164, 164}};
    ArmResult compiled;
    compiled.arm = *parse_bench_arm("aot-inductor:fish-speech");
    compiled.error = "no | package";
    r.arms[0].prompt_tokens = 84;
    r.arms[0].backends[0].kv_len_min = 85;
    r.arms[0].backends[0].kv_len_max = 99;
    r.arms = {r.arms[0], fs, full, compiled};
    return r;
}

TEST_CASE(pr_report_has_every_item_the_maintainers_listed) {
    const std::string md = bench_pr_report_markdown(pr_report_sample(SdpaBackend::Flash, 99), {"reef-cli bench -m X", "wavs"});
    for (const char* section : {"### Hardware", "### Software", "### Command", "### Parameters", "### Results",
                                "### Quality checks", "### Audio samples", "### Confirmations"})
        CHECK(md.find(section) != std::string::npos);
    CHECK(md.find("Test CPU 9000") != std::string::npos);
    CHECK(md.find("libtorch 2.13.0") != std::string::npos);
    CHECK(md.find("```sh\nreef-cli bench -m X\n```") != std::string::npos);
    CHECK(md.find("tolerance 0.0010") != std::string::npos);
    CHECK(md.find("no \\| package") != std::string::npos);   // a pipe in a cell is escaped
    // 1: the eager fish-speech arm ran flash -> confirmed; 2: no compiled arm ran; 3: 85..99 = 84+1..84+15
    CHECK(md.find("1. *Eager decoding no longer forces MATH.* **Confirmed**") != std::string::npos);
    CHECK(md.find("2. *The compiled path still uses MATH.* **Not measured**") != std::string::npos);
    CHECK(md.find("3. *The active prefix advances correctly.* **Confirmed**") != std::string::npos);
}

TEST_CASE(pr_report_confirmations_follow_the_observations) {
    // the eager fish-speech arm ran MATH, and its keys stopped one row short of prompt + 15
    const std::string md = bench_pr_report_markdown(pr_report_sample(SdpaBackend::Math, 98), {});
    CHECK(md.find("1. *Eager decoding no longer forces MATH.* **Not confirmed**") != std::string::npos);
    CHECK(md.find("3. *The active prefix advances correctly.* **Not confirmed**") != std::string::npos);
    CHECK(md.find("**mismatch**") != std::string::npos);
    // without an explicit command, the equivalent reef-cli command is rebuilt from the request
    CHECK(md.find("reef-cli bench -m") != std::string::npos);
    CHECK(md.find("--text 'pipes | in | text'") != std::string::npos);
}

// Compiled arms are judged by the backend read from their package (marked compiled), and only
// those under the fish-speech or math policy count for "the compiled path still uses MATH".
TEST_CASE(pr_report_judges_compiled_arms_by_their_package) {
    BenchReport r = pr_report_sample(SdpaBackend::Flash, 99);
    ArmResult& fs = r.arms[3];
    fs.error.clear();
    fs.ran = true;
    fs.prompt_tokens = 84;
    fs.compile_s = 41.5;
    fs.package_dir = "/cache/aoti/abc";
    fs.backends = {{CallSite::SlowPrefill, SdpaBackend::Math, 2, "q", 84, 84, false},
                   {CallSite::SlowDecode, SdpaBackend::Math, 30, "compiled", 85, 99, true}};
    ArmResult autoc = fs;
    autoc.arm = *parse_bench_arm("aot-inductor:auto");
    autoc.backends[1].backend = SdpaBackend::Flash;  // a compiled auto arm may fuse: not judged
    r.arms.push_back(autoc);
    std::string md = bench_pr_report_markdown(r, {});
    CHECK(md.find("2. *The compiled path still uses MATH.* **Confirmed**") != std::string::npos);
    CHECK(md.find("math (read from the compiled package) x30") != std::string::npos);
    r.arms[3].backends[1].backend = SdpaBackend::Flash;
    md = bench_pr_report_markdown(r, {});
    CHECK(md.find("2. *The compiled path still uses MATH.* **Not confirmed**: 1 of 1") != std::string::npos);
    // the JSON carries the compile cost and where each backend was read from
    const auto j = nlohmann::json::parse(bench_report_json(r));
    CHECK(j["arms"][3]["compiled"]["compile_s"] == 41.5);
    CHECK(j["arms"][3]["backends"][1]["source"] == "compiled-package");
    CHECK(j["arms"][3]["backends"][0]["source"] == "dispatcher");
    CHECK(j["arms"][0]["compiled"].is_null());
    CHECK(bench_report_markdown(r).find("| 41.5 |") != std::string::npos);
}

TEST_CASE(sweep_table_and_csv_have_one_cell_per_point) {
    BenchReport r = sample_report();
    r.request.contexts = {128, 8192};
    for (int c : r.request.contexts)
        for (int arm = 0; arm < 2; ++arm) {
            SweepPoint p;
            p.arm = arm, p.context = c, p.prompt_tokens = c - 3;
            p.ran = arm == 0;
            p.warm_frames_per_s = c == 128 ? 10.25 : 18.0;
            p.error = p.ran ? "" : "refused";
            r.sweep.push_back(p);
        }
    const std::string md = bench_sweep_markdown(r);
    CHECK(md.find("| 125 (asked 128) | 10.25 (") != std::string::npos);
    CHECK(md.find("| 8189 (asked 8192) | 18.00 (") != std::string::npos);
    const std::string csv = bench_sweep_csv(r);
    CHECK_EQ(int(std::count(csv.begin(), csv.end(), '\n')), 5);
    const auto j = nlohmann::json::parse(bench_report_json(r));
    CHECK(j["sweep"].size() == 4);
    CHECK(j["sweep"][3]["error"] == "refused");
    CHECK(j["request"]["contexts"][1] == 8192);
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
