// Sampling on hand-made distributions, without a model (text2semantic/sampler.h: pure functions): the top-p crossing
// rule, top-k, temperature, greedy, the exponential race's frequencies, the bias, RAS and the S1
// repetition penalty.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <vector>

#include <set>

#include "check.h"
#include "text2semantic/sampler.h"
#include "text2semantic/sort_ranks.h"
#include "text2semantic/top_p_cut.h"

using namespace reef;

namespace {

at::Tensor logits_of(const std::vector<double>& probs) {
    return at::log(at::tensor(probs, at::kDouble)).to(at::kFloat);
}

}  // namespace

TEST_CASE(top_p_removes_the_crossing_token) {
    // sorted probs 0.5, 0.3, 0.15, 0.05: cum 0.5, 0.8, 0.95, 1.0
    const at::Tensor logits = logits_of({0.15, 0.5, 0.05, 0.3});
    // top_p 0.7: cum 0.8 > 0.7 removes rank 1 (the crossing token); only rank 0 is kept (HF keeps it)
    at::Tensor p = logits_to_probs(logits, 1.0, 0.7, 100);
    CHECK_NEAR(p[1].item<float>(), 1.0, 1e-6);
    CHECK_NEAR(p[3].item<float>(), 0.0, 0);
    // top_p 0.85: ranks 0, 1 kept (cum 0.5, 0.8), renormalised 0.5/0.8, 0.3/0.8
    p = logits_to_probs(logits, 1.0, 0.85, 100);
    CHECK_NEAR(p[1].item<float>(), 0.625, 1e-6);
    CHECK_NEAR(p[3].item<float>(), 0.375, 1e-6);
    CHECK_NEAR(p[0].item<float>(), 0.0, 0);
    // top_p tiny: rank 0 is always kept
    p = logits_to_probs(logits, 1.0, 1e-6, 100);
    CHECK_NEAR(p[1].item<float>(), 1.0, 1e-6);
    // top_p 1.0: nothing removed (cum never exceeds 1 by more than rounding) -> original probs
    p = logits_to_probs(logits, 1.0, 1.0, 100);
    CHECK_NEAR(p[2].item<float>(), 0.05, 1e-5);
}

// fish-speech's logits_to_probs written out here with ATen's ops (the whole row sorted, the
// cumulative softmax, the removed ranks scattered back): the reference the sampler's CPU cut
// (top_p_cut.h) must give bit for bit, whether it takes its own way or falls back to the sort.
struct Reference {
    at::Tensor kept;   // [V] bool: not removed
    at::Tensor probs;  // [V]
};
Reference reference_probs(const at::Tensor& logits, double temperature, double top_p, int64_t top_k) {
    const auto [sorted, idx] = at::sort(logits, -1, true);
    const at::Tensor cum = at::cumsum(at::softmax(sorted, -1), -1);
    const at::Tensor ranks = at::arange(sorted.size(0), logits.options().dtype(at::kLong));
    const at::Tensor remove = cum.gt(top_p).logical_or(ranks.ge(top_k)).logical_and(ranks.ne(0));
    const at::Tensor removed = remove.scatter(-1, idx, remove);
    const at::Tensor kept = logits.masked_fill(removed, -INFINITY);
    return {removed.logical_not(), at::softmax(kept / std::max(temperature, 1e-5), -1)};
}

// Rows drawn so ties are common (bf16-rounded logits, as the models give them; a few values only;
// -inf entries as the semantic bias makes them), many top_p/top_k pairs, sizes from 1 to a codebook.
TEST_CASE(cpu_top_p_cut_keeps_what_the_sort_keeps) {
    at::manual_seed(21);
    int rows = 0, cut_found = 0, mismatches = 0, bad_cut = 0;
    for (int64_t n : {1, 2, 7, 64, 4096})
        for (int kind = 0; kind < 4; ++kind)
            for (int rep = 0; rep < 6; ++rep) {
                at::Tensor x = at::randn({n}) * (1 + rep);
                if (kind == 1) x = x.to(at::kBFloat16).to(at::kFloat);              // bf16 ties
                if (kind == 2) x = at::randint(0, 6, {n}).to(at::kFloat);            // a few values
                if (kind == 3) x = x.masked_fill(at::rand({n}).lt(0.5), -INFINITY);  // biased rows
                if (kind == 3) x[0] = 0.5;                                            // one finite at least
                const at::Tensor finite = x.ne(-INFINITY);
                for (double top_p : {1e-6, 0.3, 0.7, 0.8, 0.95, 1.0})
                    for (int64_t top_k : {int64_t(1), int64_t(2), int64_t(30), int64_t(4096), int64_t(1) << 40}) {
                        ++rows;
                        const Reference want = reference_probs(x, 0.7, top_p, top_k);
                        if (!at::equal(logits_to_probs(x, 0.7, top_p, top_k), want.probs)) ++mismatches;
                        if (const auto t = top_p_cut_cpu(x, top_p, top_k)) {
                            ++cut_found;
                            // the kept tokens are the logits above the cut and the tied ones named
                            // (a -inf one has no probability either way)
                            at::Tensor kept = x.gt(t->threshold);
                            for (const int64_t id : t->tied_kept) kept[id] = x[id].eq(t->threshold).item<bool>();
                            if (!at::equal(kept.logical_and(finite), want.kept.logical_and(finite))) ++bad_cut;
                        }
                    }
            }
    std::printf("%d rows: %d cut without the sort, %d mismatches, %d wrong cuts\n", rows, cut_found, mismatches, bad_cut);
    CHECK(mismatches == 0);
    CHECK(bad_cut == 0);
    CHECK_EQ(cut_found, rows);  // no NaN or +inf in these rows: the sort never runs
    // NaN or +inf in the row: no answer (the sort decides how they rank)
    CHECK(!top_p_cut_cpu(at::tensor({1.0f, NAN, 2.0f}), 0.8, 30).has_value());
    CHECK(!top_p_cut_cpu(at::tensor({1.0f, INFINITY, 2.0f}), 0.8, 30).has_value());
    // a tie across the cut: the tied id at::sort ranks first; one inside the kept ranks: a plain cut
    const at::Tensor tie = at::tensor({3.0f, 1.0f, 1.0f, 0.0f});
    const auto across = top_p_cut_cpu(tie, 1.0, 2);
    CHECK(across.has_value() && across->threshold == 1.0f && across->tied_kept.size() == 1 &&
          across->tied_kept[0] == std::get<1>(at::sort(tie, -1, true))[1].item<int64_t>());
    const auto inside = top_p_cut_cpu(at::tensor({3.0f, 3.0f, 1.0f, 0.0f}), 1.0, 2);
    CHECK(inside.has_value() && inside->threshold == 1.0f && inside->tied_kept.empty());
}

// settle_ranks against at::sort itself: rows where ties are the rule (bf16-rounded, a few values,
// -inf and NaN entries), lengths from 2 to the S2 vocabulary, many rank windows; the ids at the
// wanted ranks, in order, must be at::sort's.
TEST_CASE(settled_ranks_are_atens_sort_order) {
    at::manual_seed(8);
    int windows = 0, wrong = 0;
    for (int r = 0; r < 120; ++r) {
        const int64_t n = r % 6 == 0 ? 155776 : (r % 6 == 1 ? 4097 : (r % 6 == 2 ? 4096 : 2 + (r * 131) % 3000));
        at::Tensor x = (at::randn({n}) * (1 + r % 5)).to(at::kBFloat16).to(at::kFloat);
        if (r % 4 == 1) x = at::randint(0, 1 + r % 7, {n}).to(at::kFloat);
        if (r % 5 == 2) x = x.masked_fill(at::rand({n}).lt(0.3), -INFINITY);
        if (r % 9 == 4) x = x.masked_fill(at::rand({n}).lt(0.01), NAN);
        const at::Tensor order = std::get<1>(at::sort(x, -1, true));
        const int64_t* want = order.const_data_ptr<int64_t>();
        const float* v = x.const_data_ptr<float>();
        for (int w = 0; w < 4; ++w) {
            const int64_t lo = (r * 977 + w * 4099) % n, hi = std::min(n, lo + 1 + (w * 37 + r) % 200);
            std::vector<RankedLogit> row;
            for (int64_t i = 0; i < n; ++i) row.push_back({v[i], i});
            settle_ranks(row, lo, hi);
            ++windows;
            for (int64_t k = lo; k < hi; ++k)
                if (row[size_t(k)].id != want[k]) {
                    ++wrong;
                    break;
                }
        }
    }
    std::printf("%d rank windows, %d not at::sort's\n", windows, wrong);
    CHECK_EQ(wrong, 0);
}

// Greedy picks and the race's argmax are ATen's argmax: the first of tied maxima, a NaN beating
// everything (the first NaN), -inf rows; sizes from 1 to a codebook.
TEST_CASE(greedy_pick_is_atens_argmax) {
    at::manual_seed(8);
    at::Generator gen = make_request_generator(at::kCPU, 1);
    SampleKnobs greedy;
    greedy.temperature = 0;
    int differ = 0, rows = 0;
    for (int64_t n : {1, 2, 3, 17, 4096})
        for (int kind = 0; kind < 5; ++kind)
            for (int rep = 0; rep < 20; ++rep) {
                at::Tensor x = at::randn({n});
                if (kind == 1) x = at::randint(0, 3, {n}).to(at::kFloat);                       // ties
                if (kind == 2) x = x.masked_fill(at::rand({n}).lt(0.05), NAN);                 // NaNs
                if (kind == 3) x = at::full({n}, -INFINITY);                                   // all -inf
                if (kind == 4) x = x.masked_fill(at::rand({n}).lt(0.5), -0.0).abs().neg();     // -0 and 0 ties
                ++rows;
                differ += sample(x, greedy, gen).item<int64_t>() != at::argmax(x).item<int64_t>();
            }
    std::printf("%d rows, %d picks differ from at::argmax\n", rows, differ);
    CHECK_EQ(differ, 0);
}

TEST_CASE(top_p_uses_untempered_probabilities) {
    // With temperature 0.5 the tempered probs would be sharper, but the cut is on the raw softmax.
    const at::Tensor logits = logits_of({0.5, 0.3, 0.2});
    const at::Tensor p = logits_to_probs(logits, 0.5, 0.85, 100);
    // kept: ranks 0, 1; tempered: 0.5², 0.3² renormalised
    CHECK_NEAR(p[0].item<float>(), 0.25 / 0.34, 1e-5);
    CHECK_NEAR(p[1].item<float>(), 0.09 / 0.34, 1e-5);
    CHECK_NEAR(p[2].item<float>(), 0.0, 0);
}

TEST_CASE(top_k_and_temperature) {
    const at::Tensor logits = logits_of({0.1, 0.2, 0.3, 0.4});
    at::Tensor p = logits_to_probs(logits, 1.0, 1.0, 2);
    CHECK_NEAR(p[3].item<float>(), 0.4 / 0.7, 1e-5);
    CHECK_NEAR(p[2].item<float>(), 0.3 / 0.7, 1e-5);
    CHECK_NEAR(p[1].item<float>(), 0.0, 0);
    // temperature 2: p ∝ sqrt(p)
    p = logits_to_probs(logits, 2.0, 1.0, 100);
    const double z = std::sqrt(0.1) + std::sqrt(0.2) + std::sqrt(0.3) + std::sqrt(0.4);
    CHECK_NEAR(p[0].item<float>(), std::sqrt(0.1) / z, 1e-5);
    // temperature 0 is clipped to 1e-5: one-hot on the argmax
    p = logits_to_probs(logits, 0.0, 1.0, 100);
    CHECK_NEAR(p[3].item<float>(), 1.0, 1e-6);
}

TEST_CASE(greedy_takes_the_argmax_without_rng) {
    at::Generator gen = make_request_generator(at::kCPU, 1);
    at::Generator ref = make_request_generator(at::kCPU, 1);
    const at::Tensor logits = logits_of({0.1, 0.2, 0.6, 0.1});
    CHECK_EQ(sample(logits, SampleKnobs{0.0, 0.8, 30}, gen).item<int64_t>(), 2);
    CHECK_EQ(sample(logits, SampleKnobs{0.8, 0.8, 1}, gen).item<int64_t>(), 2);
    // no draw was made: the generator still gives the reference stream
    CHECK_NEAR(at::rand({1}, gen).item<float>(), at::rand({1}, ref).item<float>(), 0);
}

TEST_CASE(exponential_race_matches_the_distribution) {
    const std::vector<double> probs{0.05, 0.4, 0.25, 0.2, 0.1};
    const at::Tensor logits = logits_of(probs);
    at::Generator gen = make_request_generator(at::kCPU, 1234);
    const int n = 20000;
    std::vector<int> counts(probs.size(), 0);
    for (int i = 0; i < n; ++i) ++counts[size_t(sample(logits, SampleKnobs{1.0, 1.0, 100}, gen).item<int64_t>())];
    double chi2 = 0;
    for (size_t i = 0; i < probs.size(); ++i) {
        const double e = n * probs[i];
        chi2 += (counts[i] - e) * (counts[i] - e) / e;
    }
    // 4 degrees of freedom: P(chi2 > 18.47) = 0.001
    CHECK(chi2 < 18.47);
    // top_p 0.7 (cum 0.4, 0.65, 0.85): ranks 0, 1 kept -> only ids 1 and 2, 0.4:0.25
    std::vector<int> cut(probs.size(), 0);
    for (int i = 0; i < 4000; ++i) ++cut[size_t(sample(logits, SampleKnobs{1.0, 0.7, 100}, gen).item<int64_t>())];
    CHECK_EQ(cut[0] + cut[3] + cut[4], 0);
    CHECK_NEAR(double(cut[1]) / 4000, 0.4 / 0.65, 0.03);
}

TEST_CASE(same_seed_same_draws) {
    const at::Tensor logits = at::randn({1000});
    at::Generator a = make_request_generator(at::kCPU, 99), b = make_request_generator(at::kCPU, 99);
    at::Generator c = make_request_generator(at::kCPU, 100);
    int same_c = 0;
    for (int i = 0; i < 50; ++i) {
        const int64_t x = sample(logits, SampleKnobs{1.0, 0.95, 200}, a).item<int64_t>();
        const int64_t y = sample(logits, SampleKnobs{1.0, 0.95, 200}, b).item<int64_t>();
        const int64_t z = sample(logits, SampleKnobs{1.0, 0.95, 200}, c).item<int64_t>();
        CHECK_EQ(x, y);
        same_c += x == z;
    }
    CHECK(same_c < 50);
}

TEST_CASE(stream_matches_torch_manual_seed_order) {
    // multinomial_sample_one_no_sync consumes exactly one rand_like(probs) per call, so a
    // generator seeded like torch.manual_seed(s) reproduces fish-speech's q = -log(U) draws.
    at::Generator gen = make_request_generator(at::kCPU, 42);
    at::Generator ref = at::make_generator<at::CPUGeneratorImpl>(42);
    const at::Tensor probs = at::softmax(at::randn({300}), -1);
    const int64_t got = multinomial_sample_one_no_sync(probs, gen).item<int64_t>();
    const at::Tensor u = at::rand({300}, ref);
    CHECK_EQ(got, at::argmax(probs / -at::log(u)).item<int64_t>());
    // many draws of several sizes (the sampler's CPU draw is its own loop over the generator, not
    // at::rand): every pick as at::rand's U gives it, and the generators in step afterwards
    int differ = 0;
    for (int i = 0; i < 200; ++i) {
        const at::Tensor p = at::softmax(at::randn({1 + (i * 37) % 4096}), -1);
        const int64_t pick = multinomial_sample_one_no_sync(p, gen).item<int64_t>();
        differ += pick != at::argmax(p / -at::log(at::rand({p.numel()}, ref))).item<int64_t>();
    }
    CHECK_EQ(differ, 0);
    CHECK(at::equal(at::rand({17}, gen), at::rand({17}, ref)));
    // and the draw itself, value for value
    for (int64_t n : {1, 5, 624, 625, 4096, 10000})
        CHECK(at::equal(uniform_draw({n}, gen, at::TensorOptions().dtype(at::kFloat)), at::rand({n}, ref)));
    CHECK(at::equal(at::rand({3}, gen), at::rand({3}, ref)));
}

// The CPU race reads −log U only where probs > 0 (a top-k / top-p cut leaves ≤ top_k of them) and,
// for a row-restricted head, from one draw over the whole vocabulary at the rows' ids: every pick
// must be ATen's argmax(probs / −log(rand(V))[ids]) of the same stream, including rows where one
// token holds all the probability, rows with a NaN (the whole row decides then) and rows whose
// probabilities are tiny.
TEST_CASE(race_over_cut_rows_and_a_restricted_head) {
    at::Generator gen = make_request_generator(at::kCPU, 5);
    at::Generator ref = at::make_generator<at::CPUGeneratorImpl>(5);
    at::manual_seed(5);
    int differ = 0, rows = 0;
    for (int i = 0; i < 300; ++i) {
        const int64_t n = 1 + (i * 53) % 4097;
        at::Tensor logits = at::randn({n}) * (1 + i % 4);
        if (i % 3 == 0) logits = logits.to(at::kBFloat16).to(at::kFloat);  // ties
        const at::Tensor probs = logits_to_probs(logits, 0.8, i % 5 == 0 ? 1.0 : 0.8, i % 7 == 0 ? n : 30);
        at::Tensor p = probs;
        if (i % 11 == 0) p = p * 1e-30;                          // denormal and zero products
        if (i % 29 == 0) p = p.clone(), p[n / 2] = NAN;          // the whole row's argmax
        if (i % 31 == 0) p = p.clone(), p[n / 3] = INFINITY;     // inf / q, and inf / inf = NaN where U = 0
        SampleDraw draw;
        at::Tensor ids;
        if (i % 2) {  // a head restricted to n ascending ids of a larger vocabulary
            const int64_t vocab = n + 1 + (i * 7919) % 20000;
            ids = std::get<0>(at::sort(at::randperm(vocab).narrow(0, 0, n)));
            draw = {vocab, ids};
        }
        const int64_t got = multinomial_sample_one_no_sync(p, gen, false, draw).item<int64_t>();
        at::Tensor q = -at::log(at::rand({draw.size > 0 ? draw.size : n}, ref));
        if (ids.defined()) q = q.index_select(0, ids);
        differ += got != at::argmax(p / q).item<int64_t>();
        ++rows;
    }
    std::printf("%d rows, %d picks differ\n", rows, differ);
    CHECK_EQ(differ, 0);
    CHECK(at::equal(at::rand({9}, gen), at::rand({9}, ref)));
}

TEST_CASE(s1_exponential_draw_matches_its_stream_and_distribution) {
    at::Generator gen = make_request_generator(at::kCPU, 7);
    at::Generator ref = at::make_generator<at::CPUGeneratorImpl>(7);
    const at::Tensor probs = at::softmax(at::randn({64}), -1);
    const int64_t got = multinomial_sample_one_no_sync(probs, gen, true).item<int64_t>();
    const at::Tensor q = at::empty_like(probs).exponential_(1.0, ref);
    CHECK_EQ(got, at::argmax(probs / q).item<int64_t>());
    const at::Tensor logits = logits_of({0.2, 0.5, 0.3});
    std::vector<int> counts(3, 0);
    SampleKnobs k{1.0, 1.0, 100};
    k.exponential = true;
    for (int i = 0; i < 6000; ++i) ++counts[size_t(sample(logits, k, gen).item<int64_t>())];
    CHECK_NEAR(counts[1] / 6000.0, 0.5, 0.03);
    CHECK_NEAR(counts[0] / 6000.0, 0.2, 0.03);
}

TEST_CASE(semantic_bias_allows_semantic_ids_and_im_end) {
    const at::Tensor bias = semantic_logit_bias(20, 10, 15, 3, false, at::kCPU);
    CHECK_NEAR(bias[10].item<float>(), 0, 0);
    CHECK_NEAR(bias[15].item<float>(), 0, 0);
    CHECK_NEAR(bias[3].item<float>(), 0, 0);
    CHECK(std::isinf(bias[9].item<float>()) && bias[9].item<float>() < 0);
    CHECK(std::isinf(bias[16].item<float>()));
    const at::Tensor suppressed = semantic_logit_bias(20, 10, 15, 3, true, at::kCPU);
    CHECK(std::isinf(suppressed[3].item<float>()));
    // biased sampling never leaves the allowed set
    at::Generator gen = make_request_generator(at::kCPU, 3);
    const at::Tensor logits = at::randn({20});
    for (int i = 0; i < 200; ++i) {
        const int64_t t = sample(logits + bias, SampleKnobs{1.0, 1.0, 30}, gen).item<int64_t>();
        CHECK(t == 3 || (t >= 10 && t <= 15));
    }
}

TEST_CASE(ras_window_holds_the_last_ten) {
    RasWindow w;
    CHECK(w.contains(0));  // zero-initialised
    for (int64_t i = 1; i <= 10; ++i) w.accept(100 + i);
    CHECK(!w.contains(0));
    CHECK(w.contains(101));
    w.accept(200);
    CHECK(!w.contains(101));
    CHECK(w.contains(110) && w.contains(200));
}

TEST_CASE(s1_repetition_penalty_and_window) {
    at::Tensor logits = at::tensor(std::vector<float>{2.0f, -2.0f, 1.0f, 0.5f});
    apply_repetition_penalty(logits, {0, 1, 1}, 2.0);  // duplicates penalise once
    CHECK_NEAR(logits[0].item<float>(), 1.0, 1e-6);
    CHECK_NEAR(logits[1].item<float>(), -4.0, 1e-6);
    CHECK_NEAR(logits[2].item<float>(), 1.0, 1e-6);

    // the same penalty from a device-side window tensor
    at::Tensor again = at::tensor(std::vector<float>{2.0f, -2.0f, 1.0f, 0.5f});
    apply_repetition_penalty(again, at::tensor(std::vector<int64_t>{1, 0, 1}), 2.0);
    CHECK(again.equal(logits));

    RepetitionWindow rep(2);
    std::vector<int64_t> w = rep.window_ids(0);
    CHECK_EQ(w.size(), size_t(kS1PenaltyWindow));
    CHECK_EQ(w[0], 0);
    for (int64_t i = 1; i <= 3; ++i) rep.accept(std::vector<int64_t>{i, 100 + i});
    w = rep.window_ids(1);
    std::set<int64_t> ids(w.begin(), w.end());
    CHECK((ids == std::set<int64_t>{0, 101, 102, 103}));  // zero padding until the window fills
    for (int64_t i = 4; i <= 20; ++i) rep.accept(std::vector<int64_t>{i, 100 + i});
    w = rep.window_ids(1);
    ids = std::set<int64_t>(w.begin(), w.end());
    std::set<int64_t> last16;
    for (int64_t i = 105; i <= 120; ++i) last16.insert(i);
    CHECK(ids == last16);  // the last 16 of 101..120, no padding left
}

TEST_CASE(knobs_round_through_the_model_dtype) {
    const SampleKnobs k = round_knobs(SampleKnobs{0.8, 0.9, 30}, at::kBFloat16);
    CHECK_NEAR(k.temperature, 0.80078125, 0);
    CHECK_NEAR(k.top_p, 0.8984375, 0);  // torch.tensor(0.9, dtype=bfloat16)
    CHECK_NEAR(round_knobs(SampleKnobs{0.8, 0.9, 30}, at::kFloat).temperature, double(0.8f), 0);
}

TEST_MAIN()
