// Parity with fish-speech's own modded DAC: tests/unit/data/codec_oracle holds what fish-speech
// (HEAD 3dd1f85, fp32 CPU, 1 thread) computed on the tiny demo codec written by
// write_demo_codec(dir, "tiny", 1234) — see make_fixture.py there. 150 frames pass the
// post_module window (128) and the 300000-sample clip the encoder window (512 encoder frames).
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "check.h"
#include "codec/codec.h"

using namespace reef;

static const bool one_thread = [] {
    at::set_num_threads(1);  // the fixture was made with one thread (same reduction order)
    return true;
}();

namespace {

std::filesystem::path fixture_dir() {
    const char* src = std::getenv("REEF_SOURCE_DIR");
    return std::filesystem::path(src ? src : ".") / "tests/unit/data/codec_oracle";
}

at::Tensor read_bin(const std::string& name, at::ScalarType type) {
    const auto path = fixture_dir() / name;
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw std::runtime_error("missing fixture " + path.string());
    const auto bytes = int64_t(f.tellg());
    f.seekg(0);
    auto out = at::empty({bytes / int64_t(at::elementSize(type))}, type);
    f.read(static_cast<char*>(out.data_ptr()), bytes);
    return out;
}

const Codec& tiny_codec() {
    static const auto codec = [] {
        const auto dir = reef_test::temp_dir("codec_oracle_tiny");
        write_demo_codec(dir.string(), "tiny", 1234);
        return Codec::load(dir.string(), at::kCPU, at::kFloat);
    }();
    return *codec;
}

}  // namespace

TEST_CASE(decode_matches_fish_speech) {
    const auto codes = read_bin("codes.bin", at::kLong).view({10, -1});
    const auto ref = read_bin("pcm_strided.bin", at::kFloat);
    const auto pcm = tiny_codec().decode(codes);
    CHECK_EQ(pcm.numel(), codes.size(1) * 2048);
    const auto ours = pcm.slice(0, 0, pcm.numel(), 31);
    CHECK_EQ(ours.numel(), ref.numel());
    const double diff = (ours - ref).abs().max().item<double>();
    std::printf("decode %lld frames: max |reef - fish-speech| = %.3g (ref std %.4f)\n", (long long)codes.size(1),
                diff, ref.std().item<double>());
    CHECK(diff < 1e-4);
    // Streaming reproduces it too, in chunks of 16 frames.
    auto dec = tiny_codec().streaming_decoder();
    std::vector<at::Tensor> parts;
    for (int64_t s = 0; s < codes.size(1); s += 16) parts.push_back(dec->push(codes.narrow(1, s, std::min<int64_t>(16, codes.size(1) - s))));
    const double sdiff = (at::cat(parts).slice(0, 0, pcm.numel(), 31) - ref).abs().max().item<double>();
    std::printf("streaming (16-frame chunks): max |reef - fish-speech| = %.3g\n", sdiff);
    CHECK(sdiff < 1e-4);
}

TEST_CASE(encode_matches_fish_speech) {
    const auto ref = read_bin("enc.bin", at::kLong).view({10, -1});
    const auto t = at::arange(300000, at::kFloat) / 44100.0;
    const auto wav = 0.3 * at::sin(2 * M_PI * 220.0 * t) + 0.1 * at::sin(2 * M_PI * 1250.0 * t);
    const auto codes = tiny_codec().encode(wav);
    CHECK_EQ(codes.size(0), ref.size(0));
    CHECK_EQ(codes.size(1), ref.size(1));
    if (codes.sizes() != ref.sizes()) return;
    const int64_t mismatches = (codes != ref).sum().item<int64_t>();
    std::printf("encode %lld frames: %lld of %lld codes differ from fish-speech\n", (long long)codes.size(1),
                (long long)mismatches, (long long)codes.numel());
    // Exact here; a different CPU ISA could flip a near-tie (and the residual codes after it).
    CHECK(mismatches * 100 <= codes.numel());
}

TEST_MAIN()
