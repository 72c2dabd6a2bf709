// Weight-only int8 (issue #44): quantize.py's arithmetic against an fp64 reference written here;
// an int8 model decoding through Reef's int8 kernel gives the greedy codes of fish-speech's own
// int8 arithmetic (linear(x, w.float())·scales, run through ATen under a GemvPause), S1 and S2
// layouts, fp32; how far int8 logits are from the float model's, measured and printed; hostile
// int8 state dicts refused by name; reef-cli quantize's folder (quantize_model) loads, and a
// fish-speech int8 folder (model.pth beside the bf16 safetensors quantize.py copies) is read as int8.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "kernels/cpu_target.h"
#include "nn/gemv.h"
#include "reef/engine.h"
#include "reef/quantize.h"
#include "quantize_test_util.h"
#include "t2s_fixtures.h"
#include "text2semantic/quantize_int8.h"

using namespace reef;
using namespace t2s_test;
using namespace quantize_test;
namespace fs = std::filesystem;

namespace {

// The float weights with every linear quantized as quantize.py stores it (int8 + bf16 scales).
TensorMap quantized(const DualArConfig& c, TensorMap w) {
    for (const std::string& key : linear_weight_keys(c)) {
        Int8Weight q = quantize_per_channel_int8(w.at(key));
        w[key] = q.weight;
        w[key.substr(0, key.size() - 6) + "scales"] = q.scales;
    }
    return w;
}

// What quantize.py's torch.save writes: its model was loaded in bf16, so the tensors it does not
// quantize are bf16 too.
TensorMap quantize_py_state_dict(const DualArConfig& c, TensorMap w) {
    for (auto& [key, t] : w)
        if (t.is_floating_point()) t = t.to(at::kBFloat16);
    return quantized(c, std::move(w));
}


}  // namespace

// quantize.py: scale = max(-min(w_min, 0), max(w_max, 0)) / 127.5 in fp32, floored at fp32's eps;
// q = clamp(round-half-even(w / scale), -128, 127); scales stored as bf16. Recomputed here per
// element in double from the fp32 scale, rows including an all-zero one and one of a single value.
TEST_CASE(quantize_per_channel_matches_quantize_py_arithmetic) {
    at::Tensor w = at::randn({9, 70}, at::kFloat).to(at::kBFloat16).to(at::kFloat);
    w[3].zero_();
    w[5].fill_(-0.25);
    w[6] = w[6].abs();  // positive only: the max side alone sets the scale
    const Int8Weight q = quantize_per_channel_int8(w);
    CHECK(q.weight.scalar_type() == at::kChar && q.scales.scalar_type() == at::kBFloat16);
    CHECK(q.weight.sizes() == w.sizes() && q.scales.numel() == 9);
    int bad = 0;
    for (int64_t r = 0; r < 9; ++r) {
        float lo = 0, hi = 0;
        for (int64_t i = 0; i < 70; ++i) lo = std::min(lo, w[r][i].item<float>()), hi = std::max(hi, w[r][i].item<float>());
        float scale = std::max(-lo, hi) / 127.5f;
        scale = std::max(scale, 1.1920928955078125e-07f);
        if (q.scales[r].item<float>() != at::tensor(scale).to(at::kBFloat16).item<float>()) ++bad;
        for (int64_t i = 0; i < 70; ++i) {
            const double v = double(w[r][i].item<float>() / scale);
            const double fl = std::floor(v), frac = v - fl;
            double rounded = frac > 0.5 ? fl + 1 : frac < 0.5 ? fl : (std::fmod(fl, 2.0) == 0 ? fl : fl + 1);
            rounded = std::min(127.0, std::max(-128.0, rounded));
            if (double(q.weight[r][i].item<int8_t>()) != rounded) ++bad;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK(q.weight[3].abs().max().item<int>() == 0);
    CHECK(q.weight[5].eq(q.weight[5][0]).all().item<bool>() && q.weight[5][0].item<int>() <= -127);
}

// The int8 kernel (CPU, decode rows) against fish-speech's own arithmetic on the same int8 weights:
// greedy codes identical over 40 frames, fp32, both layouts. Under a GemvPause the int8 projections
// run linear(x, w.to(fp32))·scales through ATen, which is WeightOnlyInt8Linear.forward.
TEST_CASE(int8_kernel_decodes_as_fish_speechs_int8_arithmetic) {
    for (ModelLayout layout : {ModelLayout::S1, ModelLayout::S2}) {
        const DualArConfig c = small_config(layout);
        auto m = make_dual_ar_model(c, quantized(c, random_weights(c, 11)), at::kCPU, at::kFloat);
        CHECK(m->weight_format().bits == 8);
        const at::Tensor prompt = make_prompt(c, 12, 3, 5);
        GenerateStats kernel_stats, aten_stats;
        kernels::reset_ran_target();
        const at::Tensor kernel_codes = codes_of_run(*m, prompt, greedy(40, 2), kernel_stats);
        CHECK(!kernels::ran_target().empty() || !gemv_int8_supported());
        at::Tensor aten_codes;
        {
            GemvPause pause(true);
            aten_codes = codes_of_run(*m, prompt, greedy(40, 2), aten_stats);
        }
        CHECK(kernel_codes.size(1) == 40);
        CHECK(at::equal(kernel_codes, aten_codes));
        const double worst = worst_logit_diff(kernel_stats, aten_stats);
        std::printf("%s: int8 kernel vs ATen int8, 40 greedy frames identical; worst logit |d| %.3g\n",
                    layout == ModelLayout::S1 ? "S1" : "S2", worst);
        CHECK(worst < 1e-4);
    }
}

// A bf16 model's int8 decode takes the int16-input kernel (nn/linear.h): its logits against fish-speech's
// arithmetic in bf16 (linear(x, w.to(bf16))·scales through ATen under a GemvPause) differ by bf16
// roundings only, measured on the first decode frame.
TEST_CASE(bf16_int8_kernel_stays_within_bf16_rounding_of_the_aten_path) {
    const DualArConfig c = small_config(ModelLayout::S2);
    auto m = make_dual_ar_model(c, quantized(c, random_weights(c, 12)), at::kCPU, at::kBFloat16);
    const at::Tensor prompt = make_prompt(c, 12, 3, 7);
    GenerateStats kernel_stats, aten_stats;
    codes_of_run(*m, prompt, greedy(8, 3), kernel_stats);
    {
        GemvPause pause(true);
        codes_of_run(*m, prompt, greedy(8, 3), aten_stats);
    }
    // frame 1: the first decode frame (the prefill's rows take the ATen path in both runs), after
    // the same first token
    const at::Tensor a = kernel_stats.captured_logits.at(1), b = aten_stats.captured_logits.at(1);
    CHECK(at::equal(kernel_stats.captured_logits.at(0), aten_stats.captured_logits.at(0)));
    const double worst = (a - b).abs().max().item<double>(), top = b.abs().max().item<double>();
    std::printf("bf16 int8: first decode frame's logits, int16-input kernel vs ATen: max |d| %.4f of max |logit| %.3f\n",
                worst, top);
    CHECK(worst > 0);                 // the kernel ran: its rounding is not ATen's
    CHECK(worst <= 0.05 * top);
}

// The int8 rows run on the intra-op threads, in pieces whose bounds do not depend on which thread
// takes them: three threads give the bits one thread gives, for the exact fp32 input and for the
// int16-quantized one every thread reads (that path once crashed on a second thread, which read
// its own, empty, thread_local copy of the input's scales). 4096 rows of 256: pieces for everyone.
TEST_CASE(int8_kernels_give_one_threads_bits_on_three) {
    if (!gemv_int8_supported()) return reef_test::skip("built without the SIMD kernels");
    const int before = at::get_num_threads();
    at::manual_seed(5);
    const at::Tensor w = at::randint(-128, 128, {4096, 256}, at::kChar);
    const at::Tensor s = at::rand({4096}) * 0.01 + 1e-3;
    for (bool exact : {true, false})
        for (int64_t m : {1, 3}) {
            const at::Tensor x = at::randn({m, 256});
            at::set_num_threads(1);
            const at::Tensor one = gemv_int8(x, w, s, {}, exact);
            at::set_num_threads(3);
            const at::Tensor three = gemv_int8(x, w, s, {}, exact);
            CHECK(at::equal(one, three));
            // and both are the product they stand for (int16 input: its rounding, ~1e-4 relative)
            const at::Tensor ref = at::matmul(x.to(at::kDouble), (w.to(at::kDouble) * s.to(at::kDouble).unsqueeze(1)).t());
            CHECK((one.to(at::kDouble) - ref).abs().max().item<double>() <= (exact ? 1e-3 : 5e-2) * ref.abs().max().item<double>());
        }
    at::set_num_threads(before);
}

// How far int8 is from the float model it was made from (random weights: a measure, not a verdict on
// speech): the prefill logits' cosine and max |Δ|, and the greedy codes' agreement over 200 frames.
TEST_CASE(int8_logits_stay_close_to_the_float_model) {
    for (ModelLayout layout : {ModelLayout::S1, ModelLayout::S2}) {
        const DualArConfig c = small_config(layout);
        const TensorMap w = random_weights(c, 21);
        auto f = make_dual_ar_model(c, w, at::kCPU, at::kFloat);
        auto q = make_dual_ar_model(c, quantized(c, w), at::kCPU, at::kFloat);
        const at::Tensor prompt = make_prompt(c, 12, 3, 6);
        GenerateStats fs_, qs;
        const at::Tensor fc = codes_of_run(*f, prompt, greedy(200, 1), fs_);
        const at::Tensor qc = codes_of_run(*q, prompt, greedy(200, 1), qs);
        const at::Tensor a = fs_.captured_logits.at(0).to(at::kDouble), b = qs.captured_logits.at(0).to(at::kDouble);
        const double cosine = (a * b).sum().item<double>() / (a.norm() * b.norm()).item<double>();
        const double worst = (a - b).abs().max().item<double>();
        const double agree = fc.eq(qc).to(at::kDouble).mean().item<double>();
        std::printf("%s: prefill logits cosine %.6f, max |d| %.4f (of max |logit| %.3f); greedy codes agree %.1f %% "
                    "over 200 frames\n", layout == ModelLayout::S1 ? "S1" : "S2", cosine, worst,
                    a.abs().max().item<double>(), 100 * agree);
        CHECK(cosine > 0.999);
    }
}

// A hostile or broken int8 state dict is refused, naming the key, before any tensor is converted.
TEST_CASE(hostile_int8_state_dicts_are_refused) {
    const DualArConfig c = small_config(ModelLayout::S1);
    const TensorMap good = quantized(c, random_weights(c, 3));
    auto refuse = [&](auto&& edit) {
        TensorMap w = good;
        edit(w);
        return error_of([&] { make_dual_ar_model(c, std::move(w), at::kCPU, at::kFloat); });
    };
    CHECK(has(refuse([](TensorMap& w) { w.erase("layers.0.attention.wo.scales"); }),
              "layers.0.attention.wo.weight is int8 but layers.0.attention.wo.scales is missing"));
    CHECK(has(refuse([](TensorMap& w) { w["layers.1.feed_forward.w2.scales"] = at::ones({3}, at::kBFloat16); }),
              "layers.1.feed_forward.w2.scales"));
    CHECK(has(refuse([](TensorMap& w) { w["embeddings.weight"] = w.at("embeddings.weight").to(at::kChar); }),
              "embeddings.weight is int8 but embeddings.scales is missing"));
    CHECK(has(refuse([](TensorMap& w) { w["fast_embeddings.weight"] = w.at("fast_embeddings.weight").to(at::kChar); }),
              "fast_embeddings.weight is int8, but only the linear projections and the embedding tables can be quantized"));
    CHECK(has(refuse([&](TensorMap& w) {
                  const Int8Weight q = quantize_per_channel_int8(w.at("norm.weight").unsqueeze(0));
                  w["norm.weight"] = q.weight.squeeze(0);
              }),
              "norm.weight is int8"));
    CHECK(has(refuse([&](TensorMap& w) {
                  w["fast_output.weight"] = random_weights(c, 3).at("fast_output.weight");  // float, scales kept
              }),
              "fast_output.scales is present but fast_output.weight is not int8"));
    CHECK(has(refuse([](TensorMap& w) { w["layers.0.attention.wqkv.scales"] = -w.at("layers.0.attention.wqkv.scales"); }),
              "not a positive finite number"));
    CHECK(has(refuse([](TensorMap& w) {
                  w["layers.0.attention.wqkv.scales"] = at::full_like(w.at("layers.0.attention.wqkv.scales"), NAN);
              }),
              "not a positive finite number"));
    CHECK(has(refuse([](TensorMap& w) { w["layers.0.attention.wqkv.scales_and_zeros"] = at::zeros({1, 8, 2}); }),
              "int4 pack"));
    CHECK(has(refuse([](TensorMap& w) {
                  w["layers.0.attention.wqkv.scales"] = w.at("layers.0.attention.wqkv.scales").to(at::kInt);
              }),
              "must be floating point"));
    CHECK(refuse([](TensorMap&) {}).empty());  // the untouched dict loads
}

// reef-cli quantize's engine half: the folder it writes loads as int8 with the parameters of the
// source, half the linears' bytes, every other file copied; cancel writes nothing; an int8 source,
// an unknown format and a non-empty target are refused (int4: tst_quantize_int4).
TEST_CASE(quantize_model_writes_a_folder_that_loads) {
    const fs::path dir = reef_test::temp_dir("quantize_model");
    const std::string src = (dir / "tiny").string(), out = (dir / "tiny-q").string();
    CHECK(write_demo_model(src, "tiny", "s1", 3).ok());
    auto r = quantize_model(src, out);
    CHECK(r.ok());
    if (!r.ok()) return;
    CHECK(r.value().quantized > 0 && r.value().bytes_after < r.value().bytes_before);
    for (const char* f : {"config.json", "codec.pth", "tokenizer.tiktoken", "quantization.json", "model.safetensors"})
        CHECK(fs::exists(fs::path(out) / f));
    CHECK(!fs::exists(fs::path(out) / "model.pth"));
    const TensorMap stored = load_safetensors(out + "/model.safetensors", TensorHome::Mapping);
    CHECK(stored.at("layers.0.attention.wqkv.weight").scalar_type() == at::kChar);
    CHECK(stored.at("layers.0.attention.wqkv.scales").scalar_type() == at::kBFloat16);
    auto f = load_dual_ar_model(src, at::kCPU, at::kBFloat16);
    auto q = load_dual_ar_model(out, at::kCPU, at::kBFloat16);
    CHECK(q->weight_format().bits == 8 && f->weight_format().bits != 8);
    CHECK_EQ(q->n_parameters(), f->n_parameters());
    CHECK(q->decode_weight_bytes(1) < f->decode_weight_bytes(1));

    int calls = 0;
    QuantizeOptions cancel;
    cancel.progress = [&](int, int, const std::string&) { return ++calls < 3; };
    auto c = quantize_model(src, (dir / "cancelled").string(), cancel);
    CHECK(!c.ok() && c.error().code == ErrorCode::Cancelled);
    CHECK(!fs::exists(dir / "cancelled"));
    for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path().filename().string().find(".part") == std::string::npos);

    auto again = quantize_model(out, (dir / "twice").string());
    CHECK(!again.ok() && has(again.error().message, "already quantized"));
    QuantizeOptions int2;
    int2.format = "int2";
    auto i2 = quantize_model(src, (dir / "int2").string(), int2);
    CHECK(!i2.ok() && has(i2.error().message, "unknown quantization format 'int2'"));
    auto busy = quantize_model(src, out);
    CHECK(!busy.ok() && busy.error().code == ErrorCode::Io);
}

// quantize.py --mode int8 copies the source folder (bf16 weights included) to
// checkpoints/fs-1.2-int8-<time> and writes its int8 state dict to model.pth there; fish-speech
// knows the format by "int8" in the folder's name. Reef reads that model.pth, not the bf16 copy:
// the model is int8 and decodes exactly as the folder reef-cli quantize made from the same weights.
TEST_CASE(a_fish_speech_int8_folder_reads_its_model_pth) {
    const fs::path dir = reef_test::temp_dir("fish_int8");
    const std::string src = (dir / "tiny").string(), fish = (dir / "fs-1.2-int8-20261204_120000").string();
    CHECK(write_demo_model(src, "tiny", "s2", 5).ok());
    fs::copy(src, fish, fs::copy_options::recursive);
    const DualArConfig c = load_model_config(src);
    const ExpectedShapes expected = expected_shapes(c);
    TensorMap w = read_text2semantic_weights(src, nullptr, &expected, TensorHome::Mapping);
    save_pth(fish + "/model.pth", quantize_py_state_dict(c, w));
    auto q = load_dual_ar_model(fish, at::kCPU, at::kFloat);
    CHECK(q->weight_format().bits == 8);
    auto r = quantize_model(src, (dir / "reef-q").string());
    CHECK(r.ok());
    auto reef_q = load_dual_ar_model((dir / "reef-q").string(), at::kCPU, at::kFloat);
    const at::Tensor prompt = make_prompt(c, 10, 2, 3);
    GenerateStats a, b;
    CHECK(at::equal(codes_of_run(*q, prompt, greedy(39), a), codes_of_run(*reef_q, prompt, greedy(39), b)));
    // the same folder without "int8" in its name is fish-speech's bf16 model again (safetensors first)
    const std::string plain = (dir / "renamed").string();
    fs::rename(fish, plain);
    CHECK(load_dual_ar_model(plain, at::kCPU, at::kFloat)->weight_format().bits != 8);
}

TEST_MAIN()
