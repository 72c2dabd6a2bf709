// Streaming decode: chunked output equals the whole-utterance decode (max abs difference below
// 1e-4) for chunk sizes down to 1 frame, including past the transformer window; every conv carries
// its left context between chunks; the window transformer continued through its cache equals one pass.
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include "check.h"
#include "codec/codec.h"
#include "codec/codec_layers.h"
#include "codec/codec_weights.h"

using namespace reef;

// The tiny codec's tensors gain nothing from intra-op threads, and on a loaded 2-core machine
// oversubscription makes this binary 10x slower.
static const bool one_thread = [] {
    at::set_num_threads(1);
    return true;
}();

namespace {

constexpr double kTolerance = 1e-4;

at::Tensor random_codes(const CodecConfig& c, int64_t t, uint64_t seed) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    auto codes = at::randint(c.codebook_size, {c.n_total_codebooks(), t}, gen, at::kLong);
    codes[0] = at::randint(c.semantic_codebook_size, {t}, gen, at::kLong);
    return codes;
}

std::unique_ptr<Codec> make_codec(const CodecConfig& config, uint64_t seed) {
    return Codec::from_state_dict(config, make_demo_codec_state_dict(config, seed), at::kCPU, at::kFloat, "demo");
}

// Pushes `codes` in chunks of `chunk` frames and returns the concatenated samples.
at::Tensor stream(const Codec& codec, const at::Tensor& codes, int64_t chunk) {
    auto dec = codec.streaming_decoder();
    std::vector<at::Tensor> parts;
    for (int64_t s = 0; s < codes.size(1); s += chunk) {
        const int64_t n = std::min(chunk, codes.size(1) - s);
        const auto out = dec->push(codes.narrow(1, s, n));
        CHECK_EQ(out.numel(), n * 2048);  // every push returns exactly its frames' samples
        parts.push_back(out);
    }
    CHECK_EQ(dec->finish().numel(), 0);
    return at::cat(parts);
}

double max_diff(const at::Tensor& a, const at::Tensor& b) { return (a - b).abs().max().item<double>(); }

}  // namespace

// Each conv carries its own left context between chunks (ConvStream), so chunks decode every frame
// once: a causal conv (dilated, grouped) and a causal transposed conv (k = 2s and k = s) fed in
// chunks equal the whole sequence.
TEST_CASE(streamed_convs_equal_the_whole_sequence) {
    c10::InferenceMode guard;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
    const auto x = at::randn({1, 6, 29}, gen);
    const auto w = at::randn({6, 3, 7}, gen), b = at::randn({6}, gen);  // groups 2: [C_out, C_in/2, k]
    for (int64_t dilation : {1, 3, 9}) {
        const auto whole = causal_conv1d(x, w, b, 1, dilation, 2);
        at::Tensor state;
        std::vector<at::Tensor> parts;
        for (int64_t s = 0, n = 1; s < 29; s += n, n = n % 5 + 1)
            parts.push_back(causal_conv1d(x.narrow(2, s, std::min<int64_t>(n, 29 - s)), w, b, 1, dilation, 2, &state));
        CHECK(max_diff(at::cat(parts, 2), whole) < 1e-5);
        CHECK_EQ(state.size(2), 6 * dilation);  // k_eff - 1 inputs kept
    }
    for (auto [k, stride] : {std::pair<int64_t, int64_t>{8, 4}, {4, 2}, {3, 3}}) {
        const auto wt = at::randn({6, 5, k}, gen), bt = at::randn({5}, gen);
        const auto whole = causal_conv_transpose1d(x, wt, bt, stride);
        at::Tensor state;
        std::vector<at::Tensor> parts;
        for (int64_t s = 0, n = 2; s < 29; s += n, n = n % 4 + 1)
            parts.push_back(causal_conv_transpose1d(x.narrow(2, s, std::min<int64_t>(n, 29 - s)), wt, bt, stride, &state));
        const auto streamed = at::cat(parts, 2);
        CHECK_EQ(streamed.size(2), 29 * stride);
        CHECK(max_diff(streamed, whole) < 1e-5);
    }
}

TEST_CASE(window_transformer_cache_equals_one_pass) {
    c10::InferenceMode guard;
    auto config = codec_preset("tiny");
    config.quantizer_module.window_size = 5;
    const auto raw = make_demo_codec_state_dict(config, 8);
    CodecWeights w(prepare_codec_state_dict(raw, "demo"));
    WindowTransformer tr(w, {"quantizer.post_module", 2, 2, 32, 5, 10000.0, 1e-5});
    auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
    const auto x = at::randn({1, 64, 23}, gen);
    const auto full = tr.forward(x);
    WindowKvCache cache;
    std::vector<at::Tensor> parts;
    for (int64_t s = 0, n = 1; s < 23; s += n, n = n % 4 + 1) parts.push_back(tr.forward(x.narrow(2, s, std::min<int64_t>(n, 23 - s)), &cache));
    CHECK(max_diff(at::cat(parts, 2), full) < 1e-5);
    CHECK_EQ(cache.next_pos, 23);
    CHECK_EQ(cache.k[0].size(2), 4);  // window - 1 positions kept
    // The window really limits attention: two layers of window 5 reach 2 * (window - 1) = 8 frames
    // back, so changing frame 0 leaves frames >= 9 unchanged.
    auto x2 = x.clone();
    x2.narrow(2, 0, 1).add_(1.0);
    const auto full2 = tr.forward(x2);
    CHECK(max_diff(full2.narrow(2, 9, 14), full.narrow(2, 9, 14)) < 1e-6);
    CHECK(max_diff(full2.narrow(2, 0, 1), full.narrow(2, 0, 1)) > 1e-4);
}

TEST_CASE(tiny_stream_equals_whole_decode) {
    const auto codec = make_codec(codec_preset("tiny"), 1234);
    const auto codes = random_codes(codec->config(), 40, 3);
    const auto whole = codec->decode(codes);
    for (int64_t chunk : {1, 3, 8, 40}) {
        const double d = max_diff(stream(*codec, codes, chunk), whole);
        std::printf("tiny chunk %lld: max |stream - whole| = %.3g\n", (long long)chunk, d);
        CHECK(d < kTolerance);
    }
}

TEST_CASE(small_window_stream_past_window_and_context) {
    // Window 4 and 60 frames: the KV cache is truncated many times, the conv states carried 60 times.
    auto config = codec_preset("tiny");
    config.quantizer_module.window_size = 4;
    const auto codec = make_codec(config, 77);
    const auto codes = random_codes(config, 60, 9);
    const auto whole = codec->decode(codes);
    for (int64_t chunk : {1, 2, 7}) {
        const double d = max_diff(stream(*codec, codes, chunk), whole);
        std::printf("window-4 chunk %lld: max |stream - whole| = %.3g\n", (long long)chunk, d);
        CHECK(d < kTolerance);
    }
    // finish() resets: a second utterance on the same decoder starts from position 0 again.
    auto dec = codec->streaming_decoder();
    dec->push(codes.narrow(1, 0, 5));
    dec->finish();
    CHECK_EQ(dec->frames_pushed(), 0);
    CHECK(max_diff(dec->push(codes.narrow(1, 0, 6)), whole.narrow(0, 0, 6 * 2048)) < kTolerance);
    CHECK_EQ(dec->push(codes.narrow(1, 0, 0)).numel(), 0);
}

TEST_MAIN()
