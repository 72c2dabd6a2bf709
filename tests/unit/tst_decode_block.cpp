// The fused CPU decode block (text2semantic/decode_block.h) against block_forward's own ops: the
// same greedy codes and bit-identical logits over whole generations, for both layouts, fp32 and
// bf16, float, int8 and int4 weights, the active-prefix cache and the full cache with its mask, and
// inside a GEMV team step. That the fused path ran (and where it must not: another SDPA policy, a
// GemvPause) is seen by a global RecordFunction callback counting its "reef::decode_block" scope,
// not by asking the code under test.
#include <ATen/ATen.h>
#include <ATen/record_function.h>
#include <c10/core/InferenceMode.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>

#include "check.h"
#include "nn/gemv.h"
#include "nn/gemv_team.h"
#include "nn/sdpa_policy.h"
#include "quantize_test_util.h"
#include "t2s_fixtures.h"
#include "text2semantic/batch_generator.h"
#include "text2semantic/decode_block.h"
#include "text2semantic/layers.h"
#include "text2semantic/rope.h"
#include "text2semantic/quantize_int4.h"
#include "text2semantic/quantize_int8.h"

using namespace reef;
using namespace t2s_test;
using namespace quantize_test;

namespace {

std::atomic<int> g_fused{0};
std::unique_ptr<at::ObserverContext> count_fused(const at::RecordFunction& fn) {
    if (std::strcmp(fn.name(), "reef::decode_block") == 0) ++g_fused;
    return nullptr;
}
// Fused blocks run (any thread) while one is alive.
struct FusedCounter {
    at::CallbackHandle handle =
        at::addGlobalCallback(at::RecordFunctionCallback(&count_fused).scopes({at::RecordScope::FUNCTION}));
    FusedCounter() { g_fused = 0; }
    ~FusedCounter() { at::removeCallback(handle); }
};

enum class Weights { Float, Int8, Int4 };
const char* name_of(Weights w) { return w == Weights::Float ? "float" : w == Weights::Int8 ? "int8" : "int4-g32"; }

TensorMap weights_as(const DualArConfig& c, TensorMap w, Weights format) {
    if (format == Weights::Float) return w;
    for (const std::string& key : linear_weight_keys(c)) {
        const std::string stem = key.substr(0, key.size() - 6);
        if (format == Weights::Int8) {
            Int8Weight q = quantize_per_channel_int8(w.at(key));
            w[key] = q.weight;
            w[stem + "scales"] = q.scales;
        } else {
            Int4Weight q = quantize_group_int4(w.at(key), 32);
            w[key] = q.weight;
            w[stem + "scales"] = q.scales;
            w[stem + "zeros"] = q.zeros;
        }
    }
    return w;
}

struct Run {
    at::Tensor codes;
    GenerateStats stats;
    int fused = 0;
};

Run run(const DualArModel& m, const at::Tensor& prompt, bool fused, KvMode kv, bool team = false) {
    const bool before = set_decode_block(fused);
    GenerateOptions o = greedy(24, 24);
    o.kv_mode = kv;
    Run r;
    {
        FusedCounter counter;
        GemvTeamOn on(team);
        r.codes = codes_of_run(m, prompt, o, r.stats);
        r.fused = g_fused.load();
    }
    set_decode_block(before);
    return r;
}

bool kernels_built() { return gemv_supported(at::kFloat); }

}  // namespace

TEST_CASE(fused_block_gives_block_forwards_bits) {
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    for (ModelLayout layout : {ModelLayout::S1, ModelLayout::S2})
        for (at::ScalarType dtype : {at::kFloat, at::kBFloat16})
            for (Weights format : {Weights::Float, Weights::Int8, Weights::Int4})
                for (KvMode kv : {KvMode::ActivePrefix, KvMode::Full}) {
                    const DualArConfig c = small_config(layout);
                    auto m = make_dual_ar_model(c, weights_as(c, random_weights(c, 11), format), at::kCPU, dtype);
                    const at::Tensor prompt = make_prompt(c, 12, 3, 5);
                    const Run ops = run(*m, prompt, false, kv), fused = run(*m, prompt, true, kv);
                    const double worst = worst_logit_diff(ops.stats, fused.stats);
                    std::printf("%s %s %s %s: %d fused blocks, codes %s, worst logit |d| %g\n",
                                layout == ModelLayout::S1 ? "S1" : "S2", dtype == at::kFloat ? "fp32" : "bf16",
                                name_of(format), kv == KvMode::Full ? "full" : "active", fused.fused,
                                at::equal(ops.codes, fused.codes) ? "equal" : "DIFFER", worst);
                    CHECK(ops.fused == 0);
                    // every decode block of every frame: (slow + fast layers · codebooks) per frame
                    CHECK(fused.fused > 0 || !kernels_built());
                    CHECK(ops.codes.size(1) == 24);
                    CHECK(at::equal(ops.codes, fused.codes));
                    CHECK(worst == 0.0);
                }
}

TEST_CASE(fused_block_in_a_team_step_gives_the_pools_bits) {
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16}) {
        const DualArConfig c = small_config(ModelLayout::S2);
        auto m = make_dual_ar_model(c, weights_as(c, random_weights(c, 13), Weights::Int4), at::kCPU, dtype);
        const at::Tensor prompt = make_prompt(c, 10, 2, 9);
        const Run ops = run(*m, prompt, false, KvMode::ActivePrefix);
        const Run team = run(*m, prompt, true, KvMode::ActivePrefix, true);
        CHECK(team.fused > 0 || !kernels_built());
        CHECK(at::equal(ops.codes, team.codes));
        CHECK(worst_logit_diff(ops.stats, team.stats) == 0.0);
    }
}

// Batched decode: the projections once for all rows, the rest per sequence; every member's codes
// and logits those of the ops' batch. Prompts of different lengths (positions differ in every
// batch frame), frame limits that differ (members leave, the batch shrinks), sampled and greedy.
TEST_CASE(fused_batch_gives_block_forward_batchs_bits) {
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    for (at::ScalarType dtype : {at::kFloat, at::kBFloat16})
        for (Weights format : {Weights::Float, Weights::Int8, Weights::Int4})
            for (int n : {4, 8}) {
                const DualArConfig c = small_config(n == 4 ? ModelLayout::S1 : ModelLayout::S2);
                auto m = make_dual_ar_model(c, weights_as(c, random_weights(c, 19), format), at::kCPU, dtype);
                std::vector<BatchItem> items;
                for (int i = 0; i < n; ++i) {
                    BatchItem it;
                    it.id = i;
                    it.prompt = make_prompt(c, 5 + 3 * i, i % 3, uint64_t(11 + i));
                    it.opts = greedy(6 + 2 * (i % 4), 12);
                    if (i % 2) it.opts.knobs = SampleKnobs{0.8, 0.8, 30};
                    it.seed = uint64_t(1000 + 7 * i);
                    items.push_back(std::move(it));
                }
                auto batch = [&](bool fused, int& blocks) {
                    const bool before = set_decode_block(fused);
                    FusedCounter counter;
                    auto results = generate_batch(*m, token_ids(*m), items, n);
                    blocks = g_fused.load();
                    set_decode_block(before);
                    return results;
                };
                int ops_blocks = 0, fused_blocks = 0;
                const auto ops = batch(false, ops_blocks), fused = batch(true, fused_blocks);
                bool same = ops.size() == fused.size();
                double worst = 0;
                for (size_t i = 0; same && i < ops.size(); ++i) {
                    same = at::equal(ops[i].codes, fused[i].codes) && ops[i].max_batch_seen == fused[i].max_batch_seen;
                    worst = std::max(worst, worst_logit_diff(ops[i].stats, fused[i].stats));
                }
                std::printf("batch %d %s %s: %d fused blocks, codes %s, worst logit |d| %g\n", n,
                            dtype == at::kFloat ? "fp32" : "bf16", name_of(format), fused_blocks, same ? "equal" : "DIFFER",
                            worst);
                CHECK(ops_blocks == 0);
                CHECK(fused_blocks > 0 || !kernels_built());
                CHECK(same);
                CHECK(worst == 0.0);
                CHECK(!ops.empty() && ops[0].max_batch_seen == n);  // they did decode together
            }
}

// The fused block hands its output buffers out again once no one holds them: a caller that keeps
// block outputs (or a view of one) while more blocks run must find them as they were, and each
// block's output must still be block_forward's. One layer, decoded position after position; every
// output is kept and compared at the end with a copy taken when it was made.
TEST_CASE(held_block_outputs_are_never_rewritten) {
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    const int64_t c = 64, h = 4, hkv = 2, d = 16, inter = 96, cap = 16;
    at::manual_seed(5);
    auto lin = [](int64_t n, int64_t k) { return make_linear(at::randn({n, k}) * 0.1, {}, {}, "w"); };
    BlockWeights w;
    w.attention.wqkv = lin((h + 2 * hkv) * d, c);
    w.attention.wo = lin(c, h * d);
    w.feed_forward = merge_feed_forward(lin(inter, c), lin(inter, c), lin(c, inter));
    w.attention_norm = at::rand({c}) + 0.5;
    w.ffn_norm = at::rand({c}) + 0.5;
    BlockDims dims;
    dims.n_head = h, dims.n_local_heads = hkv, dims.head_dim = d;
    const at::Tensor freqs = t2s::precompute_freqs_cis(cap, d, 10000.0);
    std::vector<at::Tensor> ops_outputs;
    for (bool fused : {false, true}) {
        const bool before = set_decode_block(fused);
        at::manual_seed(6);  // the same inputs both ways
        KvCache cache(1, hkv, d, cap, at::TensorOptions().dtype(at::kFloat));
        std::vector<at::Tensor> kept, copies, views;
        int fused_blocks = 0;
        {
            FusedCounter counter;
            c10::InferenceMode inference;  // views then hold the storage only, not the tensor (as in the codec)
            at::Tensor x = at::randn({1, 1, c});
            for (int64_t pos = 0; pos < 8; ++pos) {
                const AttentionSpan span = attention_span(KvMode::ActivePrefix, pos, 1, cap, at::kCPU);
                const CacheSlot slot{&cache, 0, pos, &span, CallSite::SlowDecode, {}};
                at::Tensor y = block_forward(x, w, dims, freqs.narrow(0, pos, 1), slot);
                copies.push_back(y.clone());
                if (pos % 3 == 0)
                    views.push_back(y.view({c}));  // a view alone keeps the storage
                else
                    kept.push_back(y);
                x = at::randn({1, 1, c});  // the next block's input is not this output
            }
            fused_blocks = g_fused.load();
        }
        set_decode_block(before);
        CHECK(fused_blocks == (fused && kernels_built() ? 8 : 0));
        for (size_t i = 0, k = 0, v = 0; i < copies.size(); ++i)
            CHECK(at::equal(i % 3 == 0 ? views[v++] : kept[k++].view({c}), copies[i].view({c})));
        if (!fused) ops_outputs = copies;
        else
            for (size_t i = 0; i < copies.size(); ++i) CHECK(at::equal(copies[i], ops_outputs[i]));
    }
}

// The fused block is Reef's attention and Reef's kernels; elsewhere the blocks keep their ops.
TEST_CASE(fused_block_runs_only_where_its_kernels_would) {
    const DualArConfig c = small_config(ModelLayout::S2);
    auto m = make_dual_ar_model(c, random_weights(c, 17), at::kCPU, at::kFloat);
    const at::Tensor prompt = make_prompt(c, 10, 2, 3);
    {
        const SdpaPolicyGuard math(SdpaPolicy::Math, CompileMode::Eager);
        CHECK(run(*m, prompt, true, KvMode::ActivePrefix).fused == 0);
    }
    const SdpaPolicyGuard reef(SdpaPolicy::Reef, CompileMode::Eager);
    {
        GemvPause pause(true);  // libtorch's linear: no kernel for the projections
        CHECK(run(*m, prompt, true, KvMode::ActivePrefix).fused == 0);
    }
    const Run fused = run(*m, prompt, true, KvMode::ActivePrefix);
    // prefill (several positions a call) stays with the ops: fewer fused blocks than block calls
    CHECK(fused.fused > 0 || !kernels_built());
}

TEST_MAIN()
