// The static-shape decode step (decode_one_token_static: device positions, kv_len buckets under a
// device-built mask, device-side sampling windows: what a CUDA graph can capture), run here on the
// CPU and compared with the exact-length eager steps: same greedy codes,
// same sampled codes from the same seed, logits within 1e-4, for S2 and S1 decoding and both KV
// modes, across a kv_len bucket boundary.
#include <ATen/ATen.h>

#include <set>

#include "check.h"
#include "t2s_fixtures.h"

using namespace reef;
using namespace t2s_test;

namespace {

// Calls the step directly and notes the shapes it was asked for.
class RecordingRunner final : public StaticStepRunner {
public:
    void run(int64_t kv_len, const std::function<void()>& step) override {
        kv_lens.push_back(kv_len);
        step();
    }
    std::vector<int64_t> kv_lens;
};

struct Run {
    at::Tensor codes;
    GenerateStats stats;
};

// A model whose cache can exceed one bucket: 230 prompt tokens + 40 frames cross position 256.
std::unique_ptr<DualArModel> long_context_model(ModelLayout layout, uint64_t seed) {
    DualArConfig c = small_config(layout);
    c.max_seq_len = 1024;
    return make_dual_ar_model(c, random_weights(c, seed), at::kCPU, at::kFloat);
}

Run run(const DualArModel& m, const at::Tensor& prompt, GenerateOptions o, uint64_t seed, StaticStepRunner* runner) {
    Run r;
    Text2SemanticCaches caches;
    o.static_steps = runner;
    at::Generator gen = make_request_generator(m.device(), seed);
    r.codes = generate(m, caches, prompt, token_ids(m), o, gen, r.stats);
    return r;
}

GenerateOptions options(double temperature, KvMode mode) {
    GenerateOptions o;
    o.knobs = SampleKnobs{temperature, 0.8, 30};
    o.max_new_tokens = 40;
    o.suppress_im_end = true;
    o.kv_mode = mode;
    o.kv_margin = 300;
    o.capture_logits_frames = 40;
    return o;
}


}  // namespace

TEST_CASE(kv_buckets) {
    CHECK_EQ(kv_bucket(KvMode::Full, 0, 576), 576);
    CHECK_EQ(kv_bucket(KvMode::Full, 575, 576), 576);
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 0, 4096), 256);
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 255, 4096), 256);   // 256 rows hold positions 0..255
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 256, 4096), 512);
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 1500, 4096), 2048);
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 100, 120), 120);    // capped at the cache
    CHECK_EQ(kv_bucket(KvMode::ActivePrefix, 3000, 3008), 3008);
    CHECK_THROWS(kv_bucket(KvMode::ActivePrefix, 120, 120));
}

TEST_CASE(static_steps_match_eager_steps) {
    for (ModelLayout layout : {ModelLayout::S2, ModelLayout::S1}) {
        auto m = long_context_model(layout, 31);
        const at::Tensor prompt = make_prompt(m->config(), 226, 4, 3);  // T = 230
        for (KvMode mode : {KvMode::ActivePrefix, KvMode::Full}) {
            for (double temperature : {0.0, 0.8}) {
                const GenerateOptions o = options(temperature, mode);
                const Run eager = run(*m, prompt, o, 11, nullptr);
                RecordingRunner runner;
                const Run fixed = run(*m, prompt, o, 11, &runner);
                const double worst = worst_logit_diff(eager.stats, fixed.stats);
                std::printf("  %s %s t=%.1f: max |static - eager| logit %.3g, codes %s\n",
                            layout == ModelLayout::S2 ? "s2" : "s1", to_string(mode), temperature, worst,
                            at::equal(eager.codes, fixed.codes) ? "identical" : "DIFFER");
                CHECK_EQ(eager.codes.size(1), 40);
                CHECK(at::equal(eager.codes, fixed.codes));
                CHECK(worst < 1e-4);
                // 39 decode steps at positions 230..268: buckets 256 then 512 (active), the whole cache (full)
                CHECK_EQ(runner.kv_lens.size(), size_t(39));
                const std::set<int64_t> seen(runner.kv_lens.begin(), runner.kv_lens.end());
                const int64_t capacity = find_multiple(230 + 40 + 300, 8);
                if (mode == KvMode::Full)
                    CHECK((seen == std::set<int64_t>{capacity}));
                else
                    CHECK((seen == std::set<int64_t>{256, 512}));
            }
        }
    }
}

TEST_MAIN()
