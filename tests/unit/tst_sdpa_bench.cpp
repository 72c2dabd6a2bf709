// reef-cli sdpa-bench through the engine API: every backend's output against an fp64 attention
// written out here (not against the bench's own MATH column), the observed kernel, libtorch's
// refusal of CUDA-only kernels on a CPU, full mask == active prefix, the memory guard, bad input.
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check.h"
#include "reef/engine.h"
#include "reef/sdpa_bench.h"

using namespace reef;

namespace {

// Tiny GQA dims: 4 query heads on 2 KV heads (the S2/S1 ratio is 4 and 2; 2 here).
SdpaBenchModel tiny_model() {
    SdpaBenchModel m;
    m.name = "test";
    m.slow = {4, 2, 16, 3};
    m.fast = {4, 2, 8, 2};
    m.max_seq_len = 37;  // not a multiple of 8: the full cache rounds up to 40
    m.num_codebooks = 5;
    return m;
}

SdpaBenchRequest tiny_request(Precision precision = Precision::Fp32) {
    SdpaBenchRequest r;
    r.model = tiny_model();
    r.precision = precision;
    r.widths = {1, 7, 24};
    r.iters = 2;
    r.warmup = 1;
    r.include_fast = false;
    r.capture_tensors = true;
    return r;
}

// softmax(q·kᵀ/√D)·v in double for one query head, over the first `width` of `rows` key rows;
// query head h reads KV head h / (Hq/Hkv) (fish-speech's repeat_interleave pairing).
std::vector<double> reference(const SdpaBenchRow& row, const AttentionDims& d) {
    const int64_t rows = row.kv_rows, group = d.n_head / d.n_kv_heads, D = d.head_dim;
    std::vector<double> out(size_t(d.n_head * D), 0.0);
    for (int64_t h = 0; h < d.n_head; ++h) {
        const int64_t kvh = h / group;
        std::vector<double> score(size_t(row.width));
        double top = -1e300;
        for (int64_t j = 0; j < row.width; ++j) {  // keys past W are masked out (full) or absent (active)
            double dot = 0;
            for (int64_t e = 0; e < D; ++e)
                dot += double(row.q[size_t(h * D + e)]) * double(row.k[size_t((kvh * rows + j) * D + e)]);
            score[size_t(j)] = dot / std::sqrt(double(D));
            top = std::max(top, score[size_t(j)]);
        }
        double sum = 0;
        for (double& s : score) sum += (s = std::exp(s - top));
        for (int64_t j = 0; j < row.width; ++j)
            for (int64_t e = 0; e < D; ++e)
                out[size_t(h * D + e)] += score[size_t(j)] / sum * double(row.v[size_t((kvh * rows + j) * D + e)]);
    }
    return out;
}

double max_diff(const std::vector<float>& a, const std::vector<double>& b) {
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(double(a[i]) - b[i]));
    return m;
}

const SdpaBenchCell& cell(const SdpaBenchRow& row, SdpaBackend b) {
    for (const auto& c : row.cells)
        if (c.requested == b) return c;
    throw std::runtime_error("no cell");
}

}  // namespace

TEST_CASE(every_backend_that_runs_matches_an_fp64_reference) {
    for (const Precision p : {Precision::Fp32, Precision::Bf16}) {
        Engine engine;
        auto r = engine.sdpa_bench(tiny_request(p));
        CHECK(r.ok());
        if (!r.ok()) {
            std::printf("  %s\n", r.error().to_string().c_str());
            continue;
        }
        // The captured q/k/v are the values the device held (bf16-rounded for bf16), so the only
        // error left is the kernel's own accumulation: ~1e-6 in fp32, a bf16 output rounding in bf16.
        const double tol = p == Precision::Fp32 ? 2e-5 : 2e-2;
        CHECK_EQ(int(r->rows.size()), 6);  // 3 widths × 2 masks
        int ran = 0;
        for (const auto& row : r->rows) {
            CHECK(row.skipped.empty());
            const std::vector<double> ref = reference(row, tiny_model().slow);
            for (const auto& c : row.cells) {
                if (!c.ran) continue;
                ++ran;
                CHECK_EQ(c.output.size(), ref.size());
                const double d = max_diff(c.output, ref);
                if (d > tol)
                    std::printf("  %s %s W=%lld %s: max |diff| vs fp64 %.3g\n", to_string(p), to_string(row.mask),
                                (long long)row.width, to_string(c.requested), d);
                CHECK(d <= tol);
                CHECK(c.ms_per_call > 0);
                CHECK(c.ms_min <= c.ms_per_call && c.ms_per_call <= c.ms_max);
            }
            // The reported max |Δ| vs MATH is the difference of the two outputs we got back.
            const auto& math = cell(row, SdpaBackend::Math);
            const auto& flash = cell(row, SdpaBackend::Flash);
            if (math.ran && flash.ran) {
                double d = 0;
                for (size_t i = 0; i < math.output.size(); ++i)
                    d = std::max(d, std::abs(double(math.output[i]) - double(flash.output[i])));
                CHECK_NEAR(flash.max_abs_diff_vs_math, d, 1e-7);
                CHECK_EQ(math.max_abs_diff_vs_math, 0.0);
            }
        }
        CHECK(ran >= 12);  // math and flash at every width and mask on any machine
    }
}

TEST_CASE(forced_math_is_observed_as_math_and_flash_as_flash) {
    Engine engine;
    auto r = engine.sdpa_bench(tiny_request());
    CHECK(r.ok());
    if (!r.ok()) return;
    for (const auto& row : r->rows) {
        const auto& math = cell(row, SdpaBackend::Math);
        CHECK(math.ran);
        CHECK(math.observed == SdpaBackend::Math);
        const auto& flash = cell(row, SdpaBackend::Flash);
        if (flash.ran) CHECK(flash.observed == SdpaBackend::Flash);  // CPU flash takes the decode masks
    }
}

TEST_CASE(cuda_only_backends_are_reported_with_libtorchs_reason) {
    const VersionInfo v = Engine::versions();
    if (v.cuda_available) {
        std::printf("  skipped: a GPU is visible, efficient/cudnn may run\n");
        return;
    }
    Engine engine;
    auto r = engine.sdpa_bench(tiny_request());
    CHECK(r.ok());
    if (!r.ok()) return;
    for (const auto& row : r->rows)
        for (const SdpaBackend b : {SdpaBackend::Efficient, SdpaBackend::Cudnn}) {
            const auto& c = cell(row, b);
            CHECK(!c.ran);
            // libtorch's CPU selector text (sdp_utils_cpp.cpp), not one of ours
            const bool libtorch_words = c.reason.find("No viable backend") != std::string::npos ||
                                        c.reason.find("No available kernel") != std::string::npos;
            if (!libtorch_words) std::printf("  reason: %s\n", c.reason.c_str());
            CHECK(libtorch_words);
        }
    const std::string md = sdpa_bench_markdown(*r);
    CHECK(md.find("## Not run") != std::string::npos);
    CHECK(md.find("**efficient**") != std::string::npos);
    CHECK(md.find("**cudnn**") != std::string::npos);
    CHECK(md.find("efficient ms/call") == std::string::npos);  // no empty column for it
}

TEST_CASE(full_mask_over_the_cache_equals_the_active_prefix) {
    Engine engine;
    auto r = engine.sdpa_bench(tiny_request());
    CHECK(r.ok());
    if (!r.ok()) return;
    const AttentionDims d = tiny_model().slow;
    for (size_t i = 0; i + 1 < r->rows.size(); i += 2) {
        const SdpaBenchRow& active = r->rows[i];
        const SdpaBenchRow& full = r->rows[i + 1];
        CHECK(active.mask == SdpaBenchMask::Active && full.mask == SdpaBenchMask::Full);
        CHECK_EQ(active.width, full.width);
        CHECK_EQ(active.kv_rows, active.width);
        CHECK_EQ(full.kv_rows, int64_t(40));  // max(W, 37) rounded up to 8
        // The first W rows of the full cache are the active keys (one cache, two views).
        bool same_rows = true, rows_beyond_w_differ = false;
        for (int64_t h = 0; h < d.n_kv_heads; ++h)
            for (int64_t j = 0; j < full.kv_rows; ++j)
                for (int64_t e = 0; e < d.head_dim; ++e) {
                    const float f = full.k[size_t((h * full.kv_rows + j) * d.head_dim + e)];
                    if (j < active.width)
                        same_rows &= f == active.k[size_t((h * active.width + j) * d.head_dim + e)];
                    else
                        rows_beyond_w_differ |= f != 0.0f;
                }
        CHECK(same_rows);
        CHECK(rows_beyond_w_differ);  // the mask has real keys to hide (it can fail if ignored)
        for (size_t b = 0; b < full.cells.size(); ++b) {
            if (!full.cells[b].ran || !active.cells[b].ran) continue;
            double diff = 0;
            for (size_t e = 0; e < full.cells[b].output.size(); ++e)
                diff = std::max(diff, std::abs(double(full.cells[b].output[e]) - double(active.cells[b].output[e])));
            CHECK(diff < 1e-6);
        }
        // And attending over all C rows (mask ignored) would be visibly different.
        SdpaBenchRow unmasked = full;
        unmasked.width = full.kv_rows;
        if (full.width < 32) CHECK(max_diff(full.cells[0].output, reference(unmasked, d)) > 1e-3);
    }
}

TEST_CASE(fast_decoder_attention_per_frame) {
    SdpaBenchRequest req = tiny_request();
    req.widths = {8};
    req.include_fast = true;
    req.capture_tensors = false;
    Engine engine;
    auto r = engine.sdpa_bench(req);
    CHECK(r.ok());
    if (!r.ok()) return;
    CHECK_EQ(int(r->fast.size()), 2);
    for (const auto& f : r->fast) {
        CHECK(f.cells[0].requested == SdpaBackend::Math);
        CHECK(f.cells[0].ran);
        CHECK(f.cells[0].observed == SdpaBackend::Math);
        CHECK(f.cells[0].ms_per_frame > 0);
    }
    const std::string md = sdpa_bench_markdown(*r);
    CHECK(md.find("Fast decoder attention per frame") != std::string::npos);
    CHECK(md.find("slow transformer's attention only") != std::string::npos);
}

TEST_CASE(memory_guard_skips_an_absurd_configuration) {
    SdpaBenchRequest req;
    SdpaBenchModel m = tiny_model();
    m.slow = {64, 64, 256, 1};  // 16M keys × 64 heads × 256 dims: terabytes for K/V alone
    req.model = m;
    req.widths = {int64_t(1) << 24};
    req.masks = {SdpaBenchMask::Active};
    req.include_fast = false;
    req.iters = 1;
    Engine engine;
    auto r = engine.sdpa_bench(req);
    CHECK(r.ok());
    if (!r.ok()) return;
    CHECK_EQ(int(r->rows.size()), 1);
    const auto& row = r->rows[0];
    CHECK(row.skipped.find("GiB") != std::string::npos);
    CHECK(row.estimated_bytes > (int64_t(1) << 40));
    for (const auto& c : row.cells) CHECK(!c.ran && !c.reason.empty());
    std::printf("  %s\n", row.skipped.c_str());
}

TEST_CASE(presets_carry_the_released_dims) {
    // the released config.json of fishaudio/s2-pro and fishaudio/openaudio-s1-mini
    auto s2 = sdpa_bench_model("", "s2-pro");
    CHECK(s2.ok());
    if (s2.ok()) {
        CHECK(s2->slow.n_head == 32 && s2->slow.n_kv_heads == 8 && s2->slow.head_dim == 128 && s2->slow.n_layer == 36);
        CHECK(s2->fast.n_head == 32 && s2->fast.n_kv_heads == 8 && s2->fast.head_dim == 128 && s2->fast.n_layer == 4);
        CHECK_EQ(s2->max_seq_len, int64_t(32768));
        CHECK_EQ(s2->num_codebooks, int64_t(10));
    }
    auto s1 = sdpa_bench_model("", "s1-mini");
    CHECK(s1.ok());
    if (s1.ok()) {
        CHECK(s1->slow.n_head == 16 && s1->slow.n_kv_heads == 8 && s1->slow.head_dim == 128 && s1->slow.n_layer == 28);
        CHECK(s1->fast.head_dim == 64 && s1->fast.n_layer == 4);
        CHECK_EQ(s1->max_seq_len, int64_t(8192));
    }
}

TEST_CASE(bad_input_gets_a_specific_error) {
    Engine engine;
    auto expect = [&](SdpaBenchRequest req, ErrorCode code, const std::string& words) {
        auto r = engine.sdpa_bench(req);
        CHECK(!r.ok());
        if (r.ok()) return;
        CHECK(r.error().code == code);
        if (r.error().message.find(words) == std::string::npos) std::printf("  got: %s\n", r.error().message.c_str());
        CHECK(r.error().message.find(words) != std::string::npos);
    };
    SdpaBenchRequest r = tiny_request();
    r.widths = {128, 0};
    expect(r, ErrorCode::InvalidArgument, "key width 0");
    r = tiny_request();
    r.widths = {};
    expect(r, ErrorCode::InvalidArgument, "no key widths");
    r = tiny_request();
    r.preset = "s2-pro";  // and explicit dims
    expect(r, ErrorCode::InvalidArgument, "exactly one");
    r = SdpaBenchRequest{};
    expect(r, ErrorCode::InvalidArgument, "exactly one");
    r.preset = "s3-ultra";
    expect(r, ErrorCode::InvalidArgument, "s3-ultra");
    r = tiny_request();
    r.backends = {SdpaBackend::Math, SdpaBackend::Math};
    expect(r, ErrorCode::InvalidArgument, "twice");
    r.backends = {SdpaBackend::Overrideable};
    expect(r, ErrorCode::InvalidArgument, "overrideable");
    r = tiny_request();
    r.iters = 0;
    expect(r, ErrorCode::InvalidArgument, "--iters");
    r = tiny_request();
    r.model->slow.n_kv_heads = 3;
    expect(r, ErrorCode::InvalidArgument, "multiple of the KV heads");

    namespace fs = std::filesystem;
    const fs::path dir = fs::path(std::getenv("REEF_TEST_TMP") ? std::getenv("REEF_TEST_TMP") : "/tmp") / "sdpa_bench_empty";
    fs::create_directories(dir);
    r = SdpaBenchRequest{};
    r.model_dir = dir.string();
    expect(r, ErrorCode::ModelNotFound, "config.json not found");
    r.model_dir = (dir / "nope").string();
    expect(r, ErrorCode::ModelNotFound, "not found");
}

TEST_CASE(json_and_markdown_are_written_atomically) {
    SdpaBenchRequest req = tiny_request();
    req.widths = {4};
    req.capture_tensors = false;
    Engine engine;
    auto r = engine.sdpa_bench(req);
    CHECK(r.ok());
    if (!r.ok()) return;
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(std::getenv("REEF_TEST_TMP") ? std::getenv("REEF_TEST_TMP") : "/tmp");
    const fs::path json_path = dir / "sdpa.json", md_path = dir / "sdpa.md";
    CHECK(write_sdpa_bench_json(*r, json_path.string()).ok());
    CHECK(write_sdpa_bench_markdown(*r, md_path.string()).ok());
    std::ifstream in(json_path);
    const nlohmann::json j = nlohmann::json::parse(in);
    CHECK(j["schema"] == "reef-sdpa-bench/1");
    CHECK_EQ(j["rows"].size(), size_t(2));
    CHECK(j["rows"][0]["cells"][0]["observed"] == "math");
    CHECK(j["model"]["slow"]["n_head"] == 4);
    CHECK(!write_sdpa_bench_json(*r, (dir / "missing" / "x.json").string()).ok());
    CHECK(!fs::exists(dir / "missing"));
}

TEST_MAIN()
