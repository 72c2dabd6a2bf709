// Codec: config presets, weight-norm fusion and strict verification, decode/encode of the tiny
// demo codec through codec.pth and safetensors.
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <filesystem>
#include <fstream>

#include "check.h"
#include "runtime/device.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "codec/codec.h"
#include "codec/codec_layers.h"
#include "codec/codec_weights.h"
#include "nn/attention.h"

using namespace reef;

// The tiny codec's tensors gain nothing from intra-op threads, and on a loaded 2-core machine
// oversubscription makes this binary 10x slower.
static const bool one_thread = [] {
    at::set_num_threads(1);
    return true;
}();

namespace {

std::string error_message(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

// Codes in range: row 0 < 4096, rows 1.. < 1024.
at::Tensor random_codes(const CodecConfig& c, int64_t t, uint64_t seed) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    auto codes = at::randint(c.codebook_size, {c.n_total_codebooks(), t}, gen, at::kLong);
    codes[0] = at::randint(c.semantic_codebook_size, {t}, gen, at::kLong);
    return codes;
}

const std::filesystem::path& tiny_dir() {
    static const auto dir = [] {
        auto d = reef_test::temp_dir("codec_tiny");
        write_demo_codec(d.string(), "tiny", 1234);
        return d;
    }();
    return dir;
}

}  // namespace

TEST_CASE(config_presets_and_json) {
    const auto real = codec_preset("s2-pro");
    CHECK_EQ(real.latent_dim(), 1024);
    CHECK_EQ(real.hop_length(), 512);
    CHECK_EQ(real.frame_length(), 2048);
    CHECK_EQ(real.n_total_codebooks(), 10);
    CHECK_EQ(real.quantizer_module.window_size, 128);
    CHECK_EQ(real.quantizer_module.n_layer, 8);
    CHECK_EQ(real.encoder_window, 512);
    CHECK_EQ(real.decoder_block_out(3), 96);
    real.validate("s2-pro");
    const auto tiny = codec_preset("tiny");
    tiny.validate("tiny");
    CHECK_EQ(tiny.frame_length(), 2048);
    CHECK_EQ(tiny.semantic_codebook_size, 4096);
    CHECK_EQ(tiny.codebook_size, 1024);
    const auto back = codec_config_from_json(codec_config_to_json(tiny), "roundtrip");
    CHECK(codec_config_to_json(back) == codec_config_to_json(tiny));
    CHECK(codec_expected_shapes(back) == codec_expected_shapes(tiny));
    // Missing fields fall back to the real numbers.
    CHECK(codec_expected_shapes(codec_config_from_json("{}", "empty")) == codec_expected_shapes(real));
    CHECK(load_codec_config(reef_test::temp_dir("codec_noconfig").string()).latent_dim() == 1024);
    // fish-speech's hard-coded frame_length = hop * 4.
    const auto msg = error_message([] {
        codec_config_from_json(R"({"quantizer": {"downsample_factor": [2, 4]}})", "bad.json");
    });
    CHECK(msg.find("bad.json") != std::string::npos && msg.find("downsample_factor") != std::string::npos);
    CHECK_THROWS(codec_preset("huge"));
    const auto yaml = codec_config_to_yaml(tiny);
    CHECK(yaml.find("window_size: 128") != std::string::npos);
    CHECK(yaml.find("input_dim: 64") != std::string::npos);
}

TEST_CASE(real_key_names_and_shapes) {
    const auto shapes = codec_expected_shapes(codec_preset("default"));
    auto has = [&](const std::string& k, std::vector<int64_t> s) {
        auto it = shapes.find(k);
        const bool ok = it != shapes.end() && it->second == s;
        if (!ok) std::fprintf(stderr, "missing/wrong: %s\n", k.c_str());
        return ok;
    };
    CHECK(has("quantizer.semantic_quantizer.quantizers.0.codebook.weight", {4096, 8}));
    CHECK(has("quantizer.semantic_quantizer.quantizers.0.in_proj.weight", {8, 1024, 1}));
    CHECK(has("quantizer.quantizer.quantizers.8.out_proj.weight", {1024, 8, 1}));
    CHECK(has("quantizer.downsample.1.1.dwconv.conv.weight", {1024, 1, 7}));
    CHECK(has("quantizer.upsample.0.1.pwconv1.weight", {4096, 1024}));
    CHECK(has("quantizer.post_module.layers.7.attention.wqkv.weight", {3072, 1024}));
    CHECK(has("quantizer.pre_module.norm.weight", {1024}));
    CHECK(has("encoder.block.4.block.5.layers.3.feed_forward.w2.weight", {1024, 3072}));
    CHECK(has("encoder.block.0.conv.weight", {64, 1, 7}));
    CHECK(has("encoder.block.6.conv.weight", {1024, 1024, 3}));
    CHECK(has("decoder.model.0.conv.weight", {1536, 1024, 7}));
    CHECK(has("decoder.model.1.block.1.conv.weight", {1536, 768, 16}));  // ConvTranspose: in, out, k
    CHECK(has("decoder.model.4.block.4.block.3.conv.weight", {96, 96, 1}));
    CHECK(has("decoder.model.5.alpha", {1, 96, 1}));
    CHECK(has("decoder.model.6.conv.weight", {1, 96, 7}));
    CHECK(shapes.count("encoder.block.3.block.5.norm.weight") == 0);  // only the last block has one
    int64_t n = 0;
    for (const auto& [k, s] : shapes) {
        int64_t e = 1;
        for (auto d : s) e *= d;
        n += e;
    }
    // fish-speech's own DAC built from modded_dac_vq.yaml has 535 state-dict tensors and
    // 391,430,530 stored parameters (weight norm as g + v); fused, the g's are gone.
    std::printf("real codec parameters (fused): %lld\n", (long long)n);
    CHECK_EQ(n, int64_t(391'398'385));
    size_t stored_tensors = 0;
    for (const auto& p : codec_params(codec_preset("default"))) stored_tensors += p.weight_norm == WeightNormKind::None ? 1 : 2;
    CHECK_EQ(stored_tensors, size_t(535));
}

TEST_CASE(weight_norm_fusion_both_encodings) {
    c10::InferenceMode guard;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
    const auto v_conv = at::randn({5, 3, 7}, gen);       // Conv1d (out, in, k)
    const auto g_conv = at::rand({5, 1, 1}, gen) + 0.5;
    const auto v_tr = at::randn({6, 4, 4}, gen);         // ConvTranspose1d (in, out, k): g per input channel
    const auto g_tr = at::rand({6, 1, 1}, gen) + 0.5;
    TensorMap raw;
    raw["state_dict.generator.a.conv.parametrizations.weight.original0"] = g_conv;
    raw["state_dict.generator.a.conv.parametrizations.weight.original1"] = v_conv;
    raw["state_dict.generator.t.conv.parametrizations.weight.original0"] = g_tr;
    raw["state_dict.generator.t.conv.parametrizations.weight.original1"] = v_tr;
    raw["state_dict.generator.p.weight_g"] = g_conv;
    raw["state_dict.generator.p.weight_v"] = v_conv;
    raw["state_dict.generator.p.bias"] = at::ones({5});
    raw["state_dict.discriminator.x.weight"] = at::ones({1});
    const auto fused = prepare_codec_state_dict(raw, "test");
    CHECK_EQ(fused.size(), size_t(4));
    CHECK(fused.count("discriminator.x.weight") == 0);
    // Reference: row by row, W[i] = g[i] * v[i] / ||v[i]|| over every other dim.
    auto expect = [](const at::Tensor& g, const at::Tensor& v) {
        auto w = at::empty_like(v);
        for (int64_t i = 0; i < v.size(0); ++i) w[i] = v[i] * (g[i].item<float>() / v[i].norm().item<float>());
        return w;
    };
    CHECK(at::allclose(fused.at("a.conv.weight"), expect(g_conv, v_conv), 1e-5, 1e-6));
    CHECK(at::allclose(fused.at("t.conv.weight"), expect(g_tr, v_tr), 1e-5, 1e-6));
    CHECK(at::allclose(fused.at("p.weight"), expect(g_conv, v_conv), 1e-5, 1e-6));
    CHECK(at::equal(fused.at("p.bias"), at::ones({5})));
    // Per input channel for ConvTranspose: every fused row i has norm g[i].
    CHECK(at::allclose(fused.at("t.conv.weight").flatten(1).norm(2, {1}), g_tr.flatten(), 1e-5, 1e-6));

    TensorMap lone;
    lone["x.conv.parametrizations.weight.original0"] = g_conv;
    const auto m1 = error_message([&] { prepare_codec_state_dict(lone, "lone.pth"); });
    CHECK(m1.find("lone.pth") != std::string::npos && m1.find("original1") != std::string::npos);
    TensorMap bad;
    bad["x.weight_g"] = at::ones({4, 1, 1});
    bad["x.weight_v"] = v_conv;
    const auto m2 = error_message([&] { prepare_codec_state_dict(bad, "bad.pth"); });
    CHECK(m2.find("x.weight") != std::string::npos && m2.find("[4, 1, 1]") != std::string::npos);
}

TEST_CASE(strict_verification_names_keys) {
    const auto config = codec_preset("tiny");
    auto raw = make_demo_codec_state_dict(config, 3);
    raw.erase("decoder.model.0.conv.parametrizations.weight.original0");
    raw.erase("decoder.model.0.conv.parametrizations.weight.original1");
    raw["quantizer.post_module.norm.weight"] = at::ones({63});
    const auto msg = error_message([&] { Codec::from_state_dict(config, raw, at::kCPU, at::kFloat, "codec.pth"); });
    std::printf("error: %s\n", msg.c_str());
    CHECK(msg.find("decoder.model.0.conv.weight") != std::string::npos);
    CHECK(msg.find("quantizer.post_module.norm.weight") != std::string::npos);
    // The real file against a tiny config: a shape error, not a crash.
    auto tiny = make_demo_codec_state_dict(config, 3);
    CHECK_THROWS(Codec::from_state_dict(codec_preset("default"), tiny, at::kCPU, at::kFloat, "codec.pth"));
}

TEST_CASE(demo_writer_and_decode) {
    const auto dir = tiny_dir();
    const auto size = std::filesystem::file_size(dir / "codec.pth");
    std::printf("tiny codec.pth: %.2f MB\n", double(size) / 1e6);
    CHECK(size < 4'000'000);
    CHECK(std::filesystem::exists(dir / "codec_config.json"));
    CHECK(std::filesystem::exists(dir / "codec_config.yaml"));
    // The file stores weight norm like the real one.
    const auto raw = load_pth((dir / "codec.pth").string());
    CHECK(raw.count("decoder.model.1.block.1.conv.parametrizations.weight.original0") == 1);
    CHECK(raw.count("quantizer.quantizer.quantizers.3.in_proj.weight_v") == 1);
    CHECK(raw.count("decoder.model.0.conv.weight") == 0);

    const auto codec = Codec::load(dir.string(), at::kCPU, at::kFloat);
    CHECK(codec->config().preset == "tiny");
    std::printf("tiny codec parameters: %lld\n", (long long)codec->n_parameters());
    CHECK(codec->n_parameters() > 100'000 && codec->n_parameters() < 1'000'000);
    const auto codes = random_codes(codec->config(), 12, 5);
    BackendRecorder::current().reset();
    const auto pcm = codec->decode(codes);
    // Window attention goes through reef::attention, recorded under its own call site.
    CHECK(BackendRecorder::current().last(CallSite::CodecWindow) != SdpaBackend::Unknown);
    CHECK(BackendRecorder::current().last(CallSite::SlowPrefill) == SdpaBackend::Unknown);
    CHECK_EQ(pcm.numel(), 12 * 2048);
    CHECK(pcm.scalar_type() == at::kFloat && pcm.device().is_cpu());
    CHECK(at::isfinite(pcm).all().item<bool>());
    CHECK(pcm.abs().max().item<float>() <= 1.0f);
    const float std_dev = pcm.std().item<float>();
    std::printf("tiny decode: std %.4f max %.4f\n", std_dev, pcm.abs().max().item<float>());
    CHECK(std_dev > 1e-3);
    // Deterministic: a second writer with the same seed gives the same audio; another seed does not.
    const auto dir2 = reef_test::temp_dir("codec_tiny_again");
    write_demo_codec(dir2.string(), "tiny", 1234);
    CHECK(at::equal(Codec::load(dir2.string(), at::kCPU, at::kFloat)->decode(codes), pcm));
    const auto dir3 = reef_test::temp_dir("codec_tiny_other");
    write_demo_codec(dir3.string(), "tiny", 99);
    CHECK(!at::allclose(Codec::load(dir3.string(), at::kCPU, at::kFloat)->decode(codes), pcm));
    // Frames are causal: a changed last frame leaves the earlier samples unchanged.
    auto changed = codes.clone();
    changed.select(1, 11).fill_(3);
    const auto pcm2 = codec->decode(changed);
    CHECK(at::allclose(pcm2.narrow(0, 0, 11 * 2048), pcm.narrow(0, 0, 11 * 2048), 1e-5, 1e-6));
    CHECK(!at::allclose(pcm2.narrow(0, 11 * 2048, 2048), pcm.narrow(0, 11 * 2048, 2048)));
    CHECK_EQ(codec->decode(codes.narrow(1, 0, 0)).numel(), 0);
    CHECK_THROWS(codec->decode(codes.narrow(0, 0, 9)));
    CHECK_THROWS(codec->decode(codes.to(at::kFloat)));
}

TEST_CASE(decode_clamps_out_of_range_codes) {
    const auto codec = Codec::load(tiny_dir().string(), at::kCPU, at::kFloat);
    auto codes = random_codes(codec->config(), 6, 11);
    auto wild = codes.clone();
    wild[0][2] = 5000;  // > 4095: clamped to 4095
    wild[4][1] = 3000;  // S2's fast head can emit up to 4095 in rows 1..9: clamped to 1023
    auto clamped = codes.clone();
    clamped[0][2] = 4095;
    clamped[4][1] = 1023;
    const auto before = wild.clone();
    CHECK(at::equal(codec->decode(wild), codec->decode(clamped)));
    CHECK(at::equal(wild, before));  // never in place on the caller's tensor
    auto negative = codes.clone();
    negative[3][0] = -1;
    CHECK_THROWS(codec->decode(negative));
}

TEST_CASE(encode_two_seconds) {
    const auto codec = Codec::load(tiny_dir().string(), at::kCPU, at::kFloat);
    const int64_t s = 2 * 44100;
    const auto t = at::arange(s, at::kFloat) / 44100.0;
    const auto pcm = 0.3 * at::sin(2 * M_PI * 220.0 * t) + 0.1 * at::sin(2 * M_PI * 1250.0 * t);
    const auto codes = codec->encode(pcm);
    CHECK_EQ(codes.size(0), 10);
    CHECK_EQ(codes.size(1), (s + 2047) / 2048);  // 44 = ceil(2 s * 21.53 Hz)
    CHECK(codes.scalar_type() == at::kLong);
    CHECK(codes.min().item<int64_t>() >= 0);
    CHECK(codes[0].max().item<int64_t>() < 4096);
    CHECK(codes.narrow(0, 1, 9).max().item<int64_t>() < 1024);
    // Different audio gives different codes; the same audio the same codes.
    CHECK(at::equal(codec->encode(pcm), codes));
    CHECK(!at::equal(codec->encode(pcm * 0.5 + 0.05), codes));
    // Encode is causal too: the first frames do not change when audio is appended.
    const auto longer = codec->encode(at::cat({pcm, pcm.narrow(0, 0, 10000)}));
    CHECK_EQ(longer.size(1), (s + 10000 + 2047) / 2048);
    CHECK(at::equal(longer.narrow(1, 0, 40), codes.narrow(1, 0, 40)));
    CHECK_EQ(codec->encode(at::zeros({1}, at::kFloat)).size(1), 1);
    // Round trip shape: codes decode to whole frames.
    CHECK_EQ(codec->decode(codes).numel(), codes.size(1) * 2048);
    CHECK_THROWS(codec->encode(at::zeros({2, 100}, at::kFloat)));
}

// A codec loaded with its encoder for later: the same decode bits and parameter count, the encoder
// read on the first encode (the same codes), and never before: an encoder weight of the wrong shape
// refuses the whole codec at once, but the lazy one only when asked to encode, with the reason.
TEST_CASE(encoder_read_on_first_encode) {
    const auto eager = Codec::load(tiny_dir().string(), at::kCPU, at::kFloat);
    const auto lazy = Codec::load(tiny_dir().string(), at::kCPU, at::kFloat, /*encoder_later=*/true);
    CHECK(eager->encoder_loaded() && !lazy->encoder_loaded());
    CHECK_EQ(lazy->n_parameters(), eager->n_parameters());
    const auto codes = random_codes(eager->config(), 7, 3);
    CHECK(at::equal(lazy->decode(codes), eager->decode(codes)));
    CHECK(!lazy->encoder_loaded());
    const auto t = at::arange(44100, at::kFloat) / 44100.0;
    const auto pcm = 0.3 * at::sin(2 * M_PI * 330.0 * t);
    CHECK(at::equal(lazy->encode(pcm), eager->encode(pcm)));
    CHECK(lazy->encoder_loaded());

    // load_pth with a filter: the kept tensors, equal to a whole read's
    const std::string file = (tiny_dir() / "codec.pth").string();
    const TensorMap all = load_pth(file);
    const TensorMap decoding = load_pth(file, [](const std::string& k) { return !codec_encode_only(k); });
    size_t encoding = 0;
    for (const auto& [k, v] : all) {
        if (codec_encode_only(k)) {
            ++encoding;
            CHECK(decoding.count(k) == 0);
        } else {
            CHECK(at::equal(decoding.at(k), v));
        }
    }
    CHECK(encoding > 0 && decoding.size() + encoding == all.size());

    const auto dir = reef_test::temp_dir("codec_bad_encoder");
    TensorMap bad = all;
    std::string victim;
    for (const auto& [k, v] : bad)
        if (k.rfind("encoder.", 0) == 0 && v.dim() == 3) {
            victim = k;
            break;
        }
    CHECK(!victim.empty());
    if (victim.empty()) return;
    bad[victim] = at::zeros({3, 3, 3});
    save_pth((dir / "codec.pth").string(), bad);
    std::filesystem::copy_file(tiny_dir() / "codec_config.json", dir / "codec_config.json");
    CHECK_THROWS(Codec::load(dir.string(), at::kCPU, at::kFloat));
    const auto later = Codec::load(dir.string(), at::kCPU, at::kFloat, true);
    CHECK(at::equal(later->decode(codes), eager->decode(codes)));
    for (int attempt = 0; attempt < 2; ++attempt) {   // refused each time, nothing half-made kept
        std::string why;
        try {
            later->encode(pcm);
        } catch (const ReefError& e) {
            why = e.what();
        }
        std::printf("lazy encoder refused: %s\n", why.c_str());
        CHECK(why.find("codec.pth") != std::string::npos);
        CHECK(!later->encoder_loaded());
    }
}

TEST_CASE(safetensors_and_bf16) {
    const auto codec = Codec::load(tiny_dir().string(), at::kCPU, at::kFloat);
    const auto codes = random_codes(codec->config(), 5, 21);
    const auto ref = codec->decode(codes);
    // A fused safetensors file (plain "weight" keys) with a generator. prefix loads the same.
    const auto dir = reef_test::temp_dir("codec_st");
    auto raw = load_pth((tiny_dir() / "codec.pth").string());
    TensorMap prefixed;
    for (auto& [k, v] : prepare_codec_state_dict(raw, "x")) prefixed["generator." + k] = v;
    save_safetensors((dir / "codec.safetensors").string(), prefixed);
    std::filesystem::copy_file(tiny_dir() / "codec_config.json", dir / "codec_config.json");
    const auto st = Codec::load(dir.string(), at::kCPU, at::kFloat);
    CHECK(at::allclose(st->decode(codes), ref, 1e-5, 1e-6));
    // bf16 weights: same length, still in range, close to fp32.
    const auto bf = Codec::load(tiny_dir().string(), at::kCPU, at::kBFloat16);
    const auto pcm_bf = bf->decode(codes);
    CHECK_EQ(pcm_bf.numel(), ref.numel());
    CHECK(pcm_bf.scalar_type() == at::kFloat);
    CHECK(pcm_bf.abs().max().item<float>() <= 1.0f);
    const double rel = (pcm_bf - ref).norm().item<double>() / ref.norm().item<double>();
    std::printf("bf16 vs fp32 relative error: %.4f\n", rel);
    CHECK(rel < 0.2);
    CHECK_THROWS(Codec::load(reef_test::temp_dir("codec_empty").string(), at::kCPU, at::kFloat));
}

// The codec runs in fp32 on a CPU without native bf16 (there libtorch emulates bf16 arithmetic
// and a bf16 codec takes minutes); with AVX-512 BF16, and on any GPU, in the model's dtype. The
// CPU's flags come from /proc/cpuinfo, independently of the compiler builtin the code asks.
TEST_CASE(codec_dtype_follows_the_cpus_bf16_support) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    bool has_bf16 = false, seen = false;
    while (std::getline(in, line))
        if (line.rfind("flags", 0) == 0) {
            has_bf16 = (line + " ").find(" avx512_bf16 ") != std::string::npos;
            seen = true;
            break;
        }
    if (!seen) {
        reef_test::skip("no x86 flags line in /proc/cpuinfo");
        return;
    }
    CHECK(reef::codec_dtype(at::kCPU, at::kFloat) == at::kFloat);
    CHECK(reef::codec_dtype(at::kCPU, at::kBFloat16) == (has_bf16 ? at::kBFloat16 : at::kFloat));
    CHECK(reef::codec_dtype(at::kCPU, at::kHalf) == at::kFloat);
    CHECK(reef::codec_dtype(at::Device(at::kCUDA, 0), at::kBFloat16) == at::kBFloat16);
}

TEST_MAIN()
