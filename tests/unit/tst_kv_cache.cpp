// KvCache sizing, growth and index writes; the attention span of each KvMode.
#include <ATen/ATen.h>

#include "check.h"
#include "reef/result.h"
#include "text2semantic/kv_cache.h"

using namespace reef;

TEST_CASE(capacity_is_sized_to_the_request) {
    CHECK_EQ(kv_capacity_for(100, 50, 64, 32768), 216);   // round_up(214, 8)
    CHECK_EQ(kv_capacity_for(100, 50, 0, 32768), 152);
    CHECK_EQ(kv_capacity_for(4000, 1024, 64, 4093), 4096);  // capped at max_seq_len rounded to 8
    KvCache c(2, 2, 4, 13, at::TensorOptions().dtype(at::kFloat));
    CHECK_EQ(c.capacity(), 16);
    CHECK_EQ(c.n_layer(), 2);
    CHECK_EQ(c.bytes(), int64_t(2 * 2 * 2 * 16 * 4 * 4));
    CHECK_EQ(c.keys(1, 16).size(2), 16);
}

TEST_CASE(update_writes_rows_and_growth_keeps_them) {
    KvCache c(1, 2, 3, 8, at::TensorOptions().dtype(at::kFloat));
    const at::Tensor k = at::arange(2 * 2 * 3, at::kFloat).view({1, 2, 2, 3});
    c.update(0, 5, k, -k);
    CHECK(at::equal(c.keys(0, 7).narrow(2, 5, 2), k));
    CHECK(at::equal(c.values(0, 7).narrow(2, 5, 2), -k));
    CHECK_EQ(c.keys(0, 5).abs().sum().item<float>(), 0.0f);
    c.ensure_capacity(9);
    CHECK_EQ(c.capacity(), 16);
    CHECK(at::equal(c.keys(0, 7).narrow(2, 5, 2), k));
    CHECK_EQ(c.keys(0, 16).narrow(2, 8, 8).abs().sum().item<float>(), 0.0f);
    c.ensure_capacity(4);  // never shrinks
    CHECK_EQ(c.capacity(), 16);
    bool threw = false;
    try {
        c.update(0, 15, k, k);  // rows 15..16 overflow
    } catch (const ReefError&) {
        threw = true;
    }
    CHECK(threw);
    c.reset();
    CHECK_EQ(c.keys(0, 16).abs().sum().item<float>(), 0.0f);
}

TEST_CASE(attention_span_per_mode) {
    // ActivePrefix decode: exact-length prefix, no mask
    AttentionSpan s = attention_span(KvMode::ActivePrefix, 9, 1, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 10);
    CHECK(!s.mask.has_value());
    // ActivePrefix prefill: causal T x T
    s = attention_span(KvMode::ActivePrefix, 0, 4, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 4);
    CHECK(s.mask.has_value());
    CHECK(at::equal(s.mask->view({4, 4}), at::ones({4, 4}, at::kBool).tril()));
    // Full decode: the whole capacity, keys <= position visible
    s = attention_span(KvMode::Full, 9, 1, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 32);
    CHECK_EQ(s.mask->sum().item<int64_t>(), 10);
    CHECK(s.mask->view({32})[9].item<bool>());
    CHECK(!s.mask->view({32})[10].item<bool>());
    // Full prefill: causal rows padded with false
    s = attention_span(KvMode::Full, 0, 3, 8, at::kCPU);
    CHECK_EQ(s.mask->sum().item<int64_t>(), 6);
}

TEST_MAIN()
