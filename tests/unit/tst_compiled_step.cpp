// The compiled arm (compile mode aot-inductor) against the eager engine: packages compiled by
// engine/python/reef_aoti_export.py with the venv's torch, loaded through libtorch's
// AOTIModelPackageLoader, decoding over Reef's own caches. fp32: identical greedy and sampled codes
// over 40 frames, logits of every frame within 1e-4 of eager, for S2 and S1 decoding and both KV
// modes; bf16: finite logits within the bench's bf16 tolerance. Then the bad cases: no Python, the
// wrong torch, a failing C++ compile, a truncated cached package, the cache's size limit, Stop
// during a compile. Where CI names a lasting package cache, the S1 parity, bf16 and truncated
// cases may start from packages it holds (fresh_cache below); every build still compiles the S2
// parity packages cold and the truncated one again.
// REEF_COMPILED_SIZE=s1-mini runs the parity cases at s1-mini's dimensions (ctest label
// compile-long); the default is the small in-memory model (label compile, in CI).
#include <ATen/ATen.h>
#include <torch/version.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "check.h"
#include "compiled/aoti_decode_step.h"
#include "nn/attention.h"
#include "t2s_fixtures.h"
#include "text2semantic/model_config.h"

using namespace reef;
using namespace t2s_test;
namespace fs = std::filesystem;

namespace {

constexpr int kFrames = 40;

enum class Inductor { Cold, MayReuse };
enum class Package { Fresh, MayReuse };

// A package cache for one case. A Fresh one is emptied, so the case compiles what it checks: Reef's
// exporter runs and publishes a package. Inductor's own cache is another matter: a Cold case
// disables it, so its compile is a real one from the traced graph down to the C++ compiler (the
// Stop case needs one running; the S2 parity case keeps one cold compile in every build). The
// others may reuse Inductor's kernels where $REEF_INDUCTOR_CACHE_DIR names a lasting folder (CI:
// .ci/run), which changes how long the compile takes, not what the package does.
// A Package::MayReuse case (S1 parity, bf16) may also take its packages from the lasting package
// cache $REEF_TEST_PACKAGE_CACHE_DIR (CI: .ci/run): the cache key holds everything a package is made
// from (the exporter's text, the weights, the torch version, the dims, dtype, policy, KV mode and
// this CPU's features, aoti_package.cpp), so a reused package is the one this tree would compile;
// what the case checks is how Reef's runtime decodes with it. Sets *reused to whether it may.
std::string fresh_cache(const std::string& name, Inductor inductor = Inductor::MayReuse,
                        Package package = Package::Fresh, bool* reused = nullptr) {
    const char* tmp = std::getenv("REEF_TEST_TMP");
    const char* packages = std::getenv("REEF_TEST_PACKAGE_CACHE_DIR");
    const bool lasting_package = package == Package::MayReuse && packages && *packages;
    if (reused) *reused = lasting_package;
    const fs::path dir = lasting_package ? fs::path(packages) / name : fs::path(tmp ? tmp : "/tmp") / ("aoti-" + name);
    if (!lasting_package) fs::remove_all(dir);
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_all);  // a private folder, as the package cache demands
    setenv("REEF_CACHE_DIR", dir.string().c_str(), 1);
    const char* lasting = std::getenv("REEF_INDUCTOR_CACHE_DIR");
    if (inductor == Inductor::Cold || !lasting || !*lasting)
        setenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1", 1);
    else
        unsetenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES");
    return (dir / "aoti").string();
}

bool s1_mini_size() {
    const char* v = std::getenv("REEF_COMPILED_SIZE");
    return v && std::string(v) == "s1-mini";
}

std::unique_ptr<DualArModel> model(ModelLayout layout, at::ScalarType dtype) {
    DualArConfig c = small_config(layout);
    if (s1_mini_size()) {
        c = preset_config("s1-mini", layout, 4096 + 1024);
        c.semantic_begin_id = 1024, c.semantic_end_id = 1024 + 4095;  // t2s_fixtures' prompts use ids < 200
        c.max_seq_len = 1024;
    } else {
        c.max_seq_len = 512;
    }
    return make_dual_ar_model(c, random_weights(c, 17), at::kCPU, dtype);
}

struct Run {
    at::Tensor codes;
    GenerateStats stats;
};

Run run(const DualArModel& m, const at::Tensor& prompt, KvMode mode, double temperature, CompiledDecodeStep* compiled) {
    GenerateOptions o;
    o.knobs = SampleKnobs{temperature, 0.8, 30};
    o.max_new_tokens = kFrames;
    o.suppress_im_end = true;
    o.kv_mode = mode;
    o.capture_logits_frames = kFrames;
    o.compiled = compiled;
    Run r;
    Text2SemanticCaches caches;
    at::Generator gen = make_request_generator(m.device(), 11);
    r.codes = generate(m, caches, prompt, token_ids(m), o, gen, r.stats);
    return r;
}


// The head the eager S2 decode multiplies by (generate builds it the same way).
at::Tensor head_of(const DualArModel& m) {
    if (m.config().s1_decoding()) return {};
    Text2SemanticCaches caches;
    caches.prepare_head(m, token_ids(m));
    return caches.head;
}

AotiPackage compile(const DualArModel& m, SdpaPolicy policy, KvMode mode,
                    const std::function<bool()>& should_abort = {}) {
    AotiCompileOptions o;
    o.policy = policy;
    o.kv_mode = mode;
    o.should_abort = should_abort;
    return ensure_aoti_package(m, head_of(m), o);
}

// The error code fn threw (its message into *message), or nothing when it did not throw.
std::optional<ErrorCode> code_of(const std::function<void()>& fn, std::string* message) {
    try {
        fn();
    } catch (const ReefError& e) {
        *message = e.error().message;
        return e.error().code;
    }
    return std::nullopt;
}

// Running processes whose command line contains `text`, from /proc.
int processes_naming(const std::string& text) {
    int n = 0;
    for (const auto& d : fs::directory_iterator("/proc")) {
        const std::string pid = d.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(d.path() / "cmdline", std::ios::binary);
        std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (cmd.find(text) != std::string::npos) ++n;
    }
    return n;
}

// fp32 parity for one layout, both KV modes (two compiles): a case per layout, so that ctest can
// run the two side by side.
void check_fp32_parity(ModelLayout layout) {
    // S2 keeps the build's one cold compile; S1 may take its packages from the lasting cache
    const bool s2 = layout == ModelLayout::S2;
    bool may_reuse = false;
    fresh_cache(s2 ? "parity-s2" : "parity-s1", s2 ? Inductor::Cold : Inductor::MayReuse,
                s2 ? Package::Fresh : Package::MayReuse, &may_reuse);
    auto m = model(layout, at::kFloat);
    const at::Tensor prompt = make_prompt(m->config(), 40, 6, 3);
    for (KvMode mode : {KvMode::ActivePrefix, KvMode::Full}) {
        const auto t0 = std::chrono::steady_clock::now();
        const AotiPackage pkg = compile(*m, SdpaPolicy::Math, mode);
        const double compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        CHECK(!pkg.from_cache || may_reuse);
        if (pkg.from_cache) std::printf("  package from the lasting cache %s\n", pkg.dir.c_str());
        auto step = load_aoti_decode_step(pkg, m->device());
        // Inductor decomposes attention under MATH: the package calls no SDPA kernel
        const PackageAttention attention = package_attention(pkg.slow_path);
        CHECK(attention.backend == SdpaBackend::Math);
        CHECK(attention.evidence.find("exported under SDPA policy math") != std::string::npos);  // metadata
        for (double temperature : {0.0, 0.8}) {
            const Run eager = run(*m, prompt, mode, temperature, nullptr);
            BackendRecorder::current().reset();
            const Run compiled = run(*m, prompt, mode, temperature, step.get());
            const double worst = worst_logit_diff(eager.stats, compiled.stats);
            std::printf("  %s %s t=%.1f (compile %.0f s): max |compiled - eager| logit %.3g, codes %s\n",
                        layout == ModelLayout::S2 ? "s2" : "s1", to_string(mode), temperature, compile_s, worst,
                        at::equal(eager.codes, compiled.codes) ? "identical" : "DIFFER");
            CHECK_EQ(compiled.codes.size(1), kFrames);
            CHECK(at::equal(eager.codes, compiled.codes));
            CHECK(worst < 1e-4);
            // every decode step (not the prefill) ran compiled: kFrames - 1 slow steps, N fast
            // steps each, one attention call per layer
            int64_t slow_calls = 0, fast_calls = 0;
            for (const BackendUse& u : BackendRecorder::current().uses()) {
                if (!u.compiled) continue;
                if (u.site == CallSite::SlowDecode) slow_calls += u.calls;
                if (u.site == CallSite::FastDecode) fast_calls += u.calls;
            }
            CHECK_EQ(slow_calls, (kFrames - 1) * m->config().n_layer);
            CHECK_EQ(fast_calls, (kFrames - 1) * m->config().num_codebooks * m->config().n_fast_layer);
        }
    }
}

}  // namespace

TEST_CASE(fp32_compiled_matches_eager_s2) { check_fp32_parity(ModelLayout::S2); }

TEST_CASE(fp32_compiled_matches_eager_s1) { check_fp32_parity(ModelLayout::S1); }

TEST_CASE(bf16_compiled_logits_within_tolerance) {
    fresh_cache("bf16", Inductor::MayReuse, Package::MayReuse);
    auto m = model(ModelLayout::S2, at::kBFloat16);
    const at::Tensor prompt = make_prompt(m->config(), 40, 6, 3);
    const AotiPackage pkg = compile(*m, SdpaPolicy::Auto, KvMode::ActivePrefix);
    auto step = load_aoti_decode_step(pkg, m->device());
    const Run eager = run(*m, prompt, KvMode::ActivePrefix, 0.0, nullptr);
    const Run compiled = run(*m, prompt, KvMode::ActivePrefix, 0.0, step.get());
    // the first frame whose inputs differ ends the comparison, as in the bench
    int same = 0;
    while (same < kFrames && at::equal(eager.codes.select(1, same), compiled.codes.select(1, same))) ++same;
    double worst = 0;
    for (int i = 0; i <= std::min(same, kFrames - 1); ++i) {
        CHECK(at::isfinite(compiled.stats.captured_logits[size_t(i)]).all().item<bool>());
        worst = std::max(worst, (eager.stats.captured_logits[size_t(i)] - compiled.stats.captured_logits[size_t(i)])
                                    .abs().max().item<double>());
    }
    std::printf("  bf16: %d identical frames, max |compiled - eager| logit %.3g\n", same, worst);
    CHECK(worst <= 0.5);  // the bench's bf16 tolerance
    // On the CPU, auto exports the fused flash kernel: the package calls its shim
    CHECK(package_attention(pkg.slow_path).backend == SdpaBackend::Flash);
}

TEST_CASE(no_python_or_wrong_torch_is_a_clear_error) {
    const std::string root = fresh_cache("errors");
    auto m = small_model(ModelLayout::S2);
    std::string msg;
    setenv("REEF_PYTHON", "/nonexistent/python3", 1);
    CHECK(code_of([&] { compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix); }, &msg) == ErrorCode::BackendUnavailable);
    std::printf("  no python: %s\n", msg.c_str());
    CHECK(msg.find("/nonexistent/python3") != std::string::npos);
    unsetenv("REEF_PYTHON");

    // A torch of another version first on the path: the exporter refuses and names both versions
    const fs::path fake = fs::path(root).parent_path() / "fake-torch" / "torch";
    fs::create_directories(fake);
    std::ofstream(fake / "__init__.py") << "__version__ = '1.0.0'\n";
    setenv("PYTHONPATH", fake.parent_path().string().c_str(), 1);
    CHECK(code_of([&] { compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix); }, &msg) == ErrorCode::BackendUnavailable);
    std::printf("  wrong torch: %s\n", msg.c_str());
    CHECK(msg.find("1.0.0") != std::string::npos);
    CHECK(msg.find(TORCH_VERSION) != std::string::npos);
    unsetenv("PYTHONPATH");

    // A C++ compiler that fails: Inductor's compile error becomes the reason
    setenv("CXX", "/bin/false", 1);
    CHECK(code_of([&] { compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix); }, &msg) == ErrorCode::BackendUnavailable);
    std::printf("  failing compiler: %s\n", msg.substr(0, 300).c_str());
    CHECK(msg.find("export failed") != std::string::npos);
    unsetenv("CXX");
    // nothing half-written is left in the cache
    CHECK(!fs::exists(root) || fs::is_empty(root));
}

TEST_CASE(truncated_package_is_rebuilt) {
    // the first package may come from the lasting cache: the rebuild below is the compile this checks
    bool may_reuse = false;
    const std::string root = fresh_cache("truncated", Inductor::MayReuse, Package::MayReuse, &may_reuse);
    auto m = small_model(ModelLayout::S1);
    const AotiPackage first = compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix);
    CHECK(!first.from_cache || may_reuse);
    CHECK(compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix).from_cache);
    // Another entry, used an hour before: a copy of this one (the cache's pruning reads only the
    // entries' folders and their manifests' times, so a third compile would test nothing more)
    const fs::path other = fs::path(root) / "another-entry";
    fs::remove_all(other);  // a lasting cache may keep one from a run that failed here
    fs::copy(first.dir, other, fs::copy_options::recursive);
    fs::last_write_time(other / "manifest.json",
                        fs::last_write_time(fs::path(first.dir) / "manifest.json") - std::chrono::hours(1));
    fs::resize_file(first.slow_path, fs::file_size(first.slow_path) / 2);
    // Over the cache's size limit, publishing a package drops the least recently used others
    setenv("REEF_AOTI_CACHE_GB", "0", 1);
    const AotiPackage again = compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix);
    unsetenv("REEF_AOTI_CACHE_GB");
    CHECK(!again.from_cache);  // rebuilt, not trusted
    CHECK(again.dir == first.dir);
    auto step = load_aoti_decode_step(again, m->device());  // and it loads
    CHECK(step != nullptr);
    CHECK(!fs::exists(other));  // the other entry went, the one just published stayed
}

TEST_CASE(stop_during_compile_leaves_nothing) {
    const std::string root = fresh_cache("stop", Inductor::Cold);
    auto m = small_model(ModelLayout::S2);
    const auto t0 = std::chrono::steady_clock::now();
    std::string msg;
    const std::optional<ErrorCode> code = code_of(
        [&] {
            compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix,
                    [&] { return std::chrono::steady_clock::now() - t0 > std::chrono::seconds(6); });
        },
        &msg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("  stopped after %.1f s: %s\n", s, msg.c_str());
    CHECK(code == ErrorCode::Cancelled);
    // the exporter and its compilers were killed, not waited for: no process is left whose command
    // line names the cache (the spec, the exporter's Inductor folder) — read from /proc
    CHECK_EQ(processes_naming(root), 0);
    CHECK(fs::is_empty(root));
}

// Two compiles of one key at once (two Reefs, or two windows): both succeed and one valid entry
// is left, which a later ensure takes from the cache; a host with other CPU features gets another
// entry (its packages could hold instructions this one lacks, or lack ones it has).
TEST_CASE(concurrent_compiles_share_one_entry) {
    const std::string root = fresh_cache("concurrent");
    auto m = small_model(ModelLayout::S1);
    AotiPackage a, b;
    std::string err_a, err_b;
    std::thread ta([&] {
        try { a = compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix); } catch (const ReefError& e) { err_a = e.error().message; }
    });
    std::thread tb([&] {
        try { b = compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix); } catch (const ReefError& e) { err_b = e.error().message; }
    });
    ta.join();
    tb.join();
    CHECK(err_a.empty() && err_b.empty());
    std::printf("  %s | %s\n", err_a.c_str(), err_b.c_str());
    CHECK(a.dir == b.dir);
    int entries = 0, others = 0;
    for (const auto& d : fs::directory_iterator(root)) (fs::exists(d.path() / "manifest.json") ? entries : others) += 1;
    CHECK_EQ(entries, 1);
    CHECK_EQ(others, 0);  // no temporary or stale folder left
    const AotiPackage again = compile(*m, SdpaPolicy::Math, KvMode::ActivePrefix);
    CHECK(again.from_cache);
    CHECK(load_aoti_decode_step(again, m->device()) != nullptr);

    AotiCompileOptions o;
    o.policy = SdpaPolicy::Math;
    o.kv_mode = KvMode::ActivePrefix;
    CHECK(aoti_entry_dir(*m, head_of(*m), o) == a.dir);
    setenv("REEF_HOST_FEATURES", "avx2 fma f16c", 1);  // the same model on another CPU
    const std::string elsewhere = aoti_entry_dir(*m, head_of(*m), o);
    unsetenv("REEF_HOST_FEATURES");
    CHECK(elsewhere != a.dir);
    CHECK(!fs::exists(elsewhere));
}

TEST_MAIN()
