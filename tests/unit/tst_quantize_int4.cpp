// Weight-only int4 (issue #44): Reef's quantizer against fish-speech's own group_quantize_tensor
// (values written by tests/parity/make_int4_fixture.sh from quantize.py itself, every group size);
// an int4 model's decode through the int4 kernel against the same weights dequantized through
// ATen; how far int4 logits are from the float model's (per projection and end of model, measured
// and printed); the kernel's bits independent of the thread count; hostile int4 state dicts
// refused by name; reef-cli quantize --format int4's folder (quantize_model) loads.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "nn/gemv.h"
#include "nn/linear.h"
#include "reef/engine.h"
#include "reef/quantize.h"
#include "quantize_test_util.h"
#include "t2s_fixtures.h"
#include "text2semantic/quantize_int4.h"
#include "text2semantic/quantize_int8.h"

using namespace reef;
using namespace t2s_test;
using namespace quantize_test;
namespace fs = std::filesystem;

namespace {

// [N, K/2] packed -> [N, K] values 0..15 (weight 2j low, 2j+1 high), unpacked here independently
at::Tensor unpack(const at::Tensor& packed) {
    const at::Tensor p = packed.to(at::kInt);
    return at::stack({p % 16, p.div(16, "floor")}, -1).view({packed.size(0), 2 * packed.size(1)});
}

TensorMap quantized(const DualArConfig& c, TensorMap w, int64_t group) {
    for (const std::string& key : linear_weight_keys(c)) {
        Int4Weight q = quantize_group_int4(w.at(key), group);
        const std::string stem = key.substr(0, key.size() - 6);
        w[key] = q.weight;
        w[stem + "scales"] = q.scales;
        w[stem + "zeros"] = q.zeros;
    }
    return w;
}


double cosine(const at::Tensor& a, const at::Tensor& b) {
    const at::Tensor x = a.to(at::kDouble).flatten(), y = b.to(at::kDouble).flatten();
    return (x * y).sum().item<double>() / (x.norm() * y.norm()).item<double>();
}

}  // namespace

// fish-speech's group_quantize_tensor, run by quantize.py's own code on the fixture's bf16 weights:
// Reef's quantizer gives the same 4-bit values and the same bf16 scales and zeros, every group size,
// including a constant group (the 1e-6 scale floor), a wide row and an outlier.
TEST_CASE(quantize_group_int4_equals_fish_speechs_group_quantize_tensor) {
    const fs::path file = fs::path(REEF_PARITY_FIXTURES_DIR) / "int4-groups.pth";
    const TensorMap ref = load_pth(file.string());
    for (int64_t group : {32, 64, 128, 256}) {
        const std::string name = "g" + std::to_string(group);
        const at::Tensor w = ref.at(name + ".w");
        const at::Tensor sz = ref.at(name + ".scales_and_zeros");  // [K/g, N, 2]
        const Int4Weight q = quantize_group_int4(w, group);
        CHECK(q.weight.scalar_type() == at::kByte && q.weight.size(1) * 2 == w.size(1));
        const bool values = at::equal(unpack(q.weight), ref.at(name + ".q").to(at::kInt));
        const bool scales = at::equal(q.scales, sz.select(2, 0).t().contiguous());
        const bool zeros = at::equal(q.zeros, sz.select(2, 1).t().contiguous());
        std::printf("group %lld: values %s, scales %s, zeros %s (fish-speech's group_quantize_tensor)\n", (long long)group,
                    values ? "equal" : "DIFFER", scales ? "equal" : "DIFFER", zeros ? "equal" : "DIFFER");
        CHECK(values && scales && zeros);
    }
    CHECK(has(error_of([] { quantize_group_int4(at::randn({4, 96}), 64); }), "does not divide"));
    CHECK(has(error_of([] { quantize_group_int4(at::randn({4, 96}), 48); }), "group size 48"));
    CHECK(has(error_of([] {
              at::Tensor w = at::randn({4, 64});
              w[1][3] = NAN;
              quantize_group_int4(w, 32);
          }),
          "not finite"));
}

// The int4 kernel (CPU rows: decode, and a short prompt's prefill, with the input quantized to
// int8 per group) against the same int4 weights dequantized and run through ATen (a GemvPause),
// fp32, both layouts: the first frame's logits (prefill through the kernel against ATen's GEMM)
// within the input's int8 rounding, and the greedy codes of 40 frames printed with their agreement
// (random weights' logits are flat: one flip and the runs part ways).
TEST_CASE(int4_kernel_decodes_as_the_dequantized_weights_do) {
    if (!gemv_int8_supported()) return reef_test::skip("built without the SIMD kernels");
    for (ModelLayout layout : {ModelLayout::S1, ModelLayout::S2}) {
        const DualArConfig c = small_config(layout);
        auto m = make_dual_ar_model(c, quantized(c, random_weights(c, 11), 32), at::kCPU, at::kFloat);
        CHECK(m->weight_format().bits == 4 && m->weight_format().group == 32);
        const at::Tensor prompt = make_prompt(c, 12, 3, 5);
        GenerateStats kernel_stats, aten_stats;
        const at::Tensor kernel_codes = codes_of_run(*m, prompt, greedy(40, 1), kernel_stats);
        at::Tensor aten_codes;
        {
            GemvPause pause(true);
            aten_codes = codes_of_run(*m, prompt, greedy(40, 1), aten_stats);
        }
        const at::Tensor a = kernel_stats.captured_logits.at(0), b = aten_stats.captured_logits.at(0);
        const double worst = (a - b).abs().max().item<double>(), top = b.abs().max().item<double>();
        const double agree = kernel_codes.eq(aten_codes).to(at::kDouble).mean().item<double>();
        std::printf("%s int4: first frame's logits, kernel vs ATen dequantized: cosine %.6f, max |d| %.3g of max |logit| "
                    "%.3f; greedy codes agree %.1f %% over 40 frames\n", layout == ModelLayout::S1 ? "S1" : "S2",
                    cosine(a, b), worst, top, 100 * agree);
        CHECK(worst > 0);  // the kernel ran: its input rounding is not ATen's
        // measured 0.9987 on both layouts: the int8 input costs about a tenth of what the int4
        // weights themselves cost against the float model (cosine 0.985-0.988, the next case)
        CHECK(cosine(a, b) > 0.995);
    }
}

// How far int4 is from the float model it was made from (random weights: a measure, not a verdict
// on speech). Per projection of layer 0 and the fast head: y = x·wᵀ on random inputs, max |Δ| and
// cosine against the float weight; end of model: the prefill logits' cosine and max |Δ|, and the
// greedy codes' agreement over 200 frames (random weights' logits are flat: the argmax flips on
// small moves; int8 agrees ~20 % on them too). Group 32 (the small model's widths).
TEST_CASE(int4_logits_stay_close_to_the_float_model) {
    for (ModelLayout layout : {ModelLayout::S1, ModelLayout::S2}) {
        const DualArConfig c = small_config(layout);
        const TensorMap w = random_weights(c, 21);
        const TensorMap q = quantized(c, w, 32);
        for (const char* key : {"layers.0.attention.wqkv.", "layers.0.feed_forward.w2.", "fast_output."}) {
            const std::string k = key;
            const Linear l = make_linear(q.at(k + "weight"), q.at(k + "scales"), {}, k, q.at(k + "zeros"));
            const at::Tensor x = at::randn({16, l.in_features()});
            const at::Tensor exact = at::matmul(x, w.at(k + "weight").to(at::kFloat).t());
            const at::Tensor got = at::matmul(x, dequantized(l, at::kFloat).t());
            std::printf("  %s%sweight int4 g32: cosine %.5f, max |d| %.4f of max |y| %.3f\n",
                        layout == ModelLayout::S1 ? "S1 " : "S2 ", key, cosine(exact, got),
                        (exact - got).abs().max().item<double>(), exact.abs().max().item<double>());
            CHECK(cosine(exact, got) > 0.99);
        }
        auto f = make_dual_ar_model(c, w, at::kCPU, at::kFloat);
        auto m = make_dual_ar_model(c, q, at::kCPU, at::kFloat);
        const at::Tensor prompt = make_prompt(c, 12, 3, 6);
        GenerateStats fs_, qs;
        const at::Tensor fc = codes_of_run(*f, prompt, greedy(200, 1), fs_);
        const at::Tensor qc = codes_of_run(*m, prompt, greedy(200, 1), qs);
        const at::Tensor a = fs_.captured_logits.at(0), b = qs.captured_logits.at(0);
        const double agree = fc.eq(qc).to(at::kDouble).mean().item<double>();
        std::printf("%s int4 g32: prefill logits cosine %.6f, max |d| %.4f (of max |logit| %.3f); greedy codes agree "
                    "%.1f %% over 200 frames\n", layout == ModelLayout::S1 ? "S1" : "S2", cosine(a, b),
                    (a - b).abs().max().item<double>(), a.abs().max().item<double>(), 100 * agree);
        CHECK(cosine(a, b) > 0.95);
    }
}

// The int4 rows run on the intra-op threads in pieces whose bounds do not depend on the thread that
// takes them: three threads give one thread's bits, one input row and three, every group size.
TEST_CASE(int4_kernel_gives_one_threads_bits_on_three) {
    if (!gemv_int8_supported()) return reef_test::skip("built without the SIMD kernels");
    const int before = at::get_num_threads();
    at::manual_seed(6);
    const at::Tensor wf = at::randn({4096, 256});
    for (int64_t group : {32, 256}) {
        const Int4Weight q = quantize_group_int4(wf, group);
        for (int64_t m : {1, 3}) {
            const at::Tensor x = at::randn({m, 256});
            at::set_num_threads(1);
            const at::Tensor one = gemv_int4(x, q.weight, q.scales, q.zeros);
            at::set_num_threads(3);
            const at::Tensor three = gemv_int4(x, q.weight, q.scales, q.zeros);
            CHECK(at::equal(one, three));
            // and both are the product they stand for, within the int8 input's rounding: each input
            // moves by at most max|x_g| / 254 against q·scale <= 15·scale (the zeros take exact sums)
            const Linear l{q.weight, q.scales, {}, q.zeros};
            const at::Tensor ref = at::matmul(x.to(at::kDouble), dequantized(l, at::kDouble).t());  // [m, N]
            const at::Tensor top = x.to(at::kDouble).view({m, 256 / group, group}).abs().amax(-1);  // [m, G]
            const at::Tensor bound = at::matmul(top * (15.0 * double(group) / 254.0), q.scales.to(at::kDouble).t());
            CHECK(((one.to(at::kDouble) - ref).abs() <= bound + 1e-4 * ref.abs() + 1e-5).all().item<bool>());
        }
    }
    at::set_num_threads(before);
}

// The CPU layout in blocks of 16 rows (nn/linear.h int4_blocks, kernels/gemv_int4_blocks.h): the
// same weights (back in rows bit for bit, dequantized bit for bit), the product they stand for
// within the int8 input's rounding on one thread and three alike, and a long prompt's prefill
// (dequantized blocks, then a GEMM) with the rows layout's bits.
TEST_CASE(int4_blocks_hold_the_rows_weights_and_give_their_products) {
    if (!gemv_int8_supported()) return reef_test::skip("built without the SIMD kernels");
    const int before = at::get_num_threads();
    at::manual_seed(11);
    const Int4Weight q = quantize_group_int4(at::randn({96, 512}) * 0.05, 64);
    const at::Tensor bias = at::randn({96});
    const Linear rows{q.weight, q.scales, bias, q.zeros};
    const Linear blocks = int4_blocks(rows);
    CHECK(blocks.int4_blocked() && blocks.weight.sizes() == at::IntArrayRef({6, 64, 64}) &&
          blocks.scales.sizes() == at::IntArrayRef({6, 8, 16}));
    CHECK(blocks.out_features() == 96 && blocks.in_features() == 512 && blocks.group() == 64);
    const Linear back = int4_rows(blocks);
    CHECK(at::equal(back.weight, q.weight) && at::equal(back.scales, q.scales) && at::equal(back.zeros, q.zeros));
    CHECK(at::equal(dequantized(blocks, at::kFloat), dequantized(rows, at::kFloat)));
    const at::Tensor w = dequantized(rows, at::kDouble);  // [96, 512]
    for (int64_t m : {1, 3}) {
        const at::Tensor x = at::randn({m, 512});
        at::set_num_threads(1);
        const at::Tensor one = gemv_int4(x, blocks.weight, blocks.scales, blocks.zeros, bias);
        at::set_num_threads(3);
        const at::Tensor three = gemv_int4(x, blocks.weight, blocks.scales, blocks.zeros, bias);
        CHECK(at::equal(one, three));
        const at::Tensor ref = at::matmul(x.to(at::kDouble), w.t()) + bias.to(at::kDouble);
        const at::Tensor top = x.to(at::kDouble).view({m, 8, 64}).abs().amax(-1);  // [m, G]
        const at::Tensor bound = at::matmul(top * (15.0 * 64 / 254.0), q.scales.to(at::kDouble).t());
        CHECK(((one.to(at::kDouble) - ref).abs() <= bound + 1e-4 * ref.abs() + 1e-5).all().item<bool>());
    }
    at::set_num_threads(before);
    const at::Tensor prompt = at::randn({1, 40, 512}).to(at::kBFloat16);
    const Linear rows16{q.weight, q.scales, bias.to(at::kBFloat16), q.zeros};
    CHECK(at::equal(project(prompt, int4_blocks(rows16)), project(prompt, rows16)));
}

// A long bf16 prompt (more rows than the kernels take): int4 goes through the matrix dequantized a
// block of rows at a time (nn/linear.cpp; three blocks here), int8 through fish-speech's
// linear(x, w.to(bf16))·scales (a blockwise int8 measured slower on s1-mini: 477-524 ms against
// 381-402 ms for a 111-token prefill). Each row's output within bf16's rounding of the fp64 product
// with the same quantized weights, and of the whole matrix converted at once (a GemvPause).
TEST_CASE(long_bf16_prompts_go_through_blockwise_dequantization) {
    if (!gemv_int8_supported()) return reef_test::skip("built without the SIMD kernels");
    at::manual_seed(8);
    const at::Tensor wf = at::randn({2500, 2048}) * 0.05;  // blocks of 1024 rows
    const at::Tensor bias = at::randn({2500}).to(at::kBFloat16);
    const Int4Weight q4 = quantize_group_int4(wf, 128);
    const Int8Weight q8 = quantize_per_channel_int8(wf);
    const Linear l4{q4.weight, q4.scales, bias, q4.zeros};
    const Linear l8 = make_linear(q8.weight, q8.scales, bias, "w8");
    const at::Tensor x = at::randn({1, 40, 2048}).to(at::kBFloat16);
    for (const Linear* l : {&l4, &l8}) {
        const at::Tensor y = project(x, *l);
        CHECK(y.sizes() == at::IntArrayRef({1, 40, 2500}) && y.scalar_type() == at::kBFloat16);
        const at::Tensor ref = at::matmul(x.to(at::kDouble), dequantized(*l, at::kDouble).t()) + bias.to(at::kDouble);
        const double top = ref.abs().max().item<double>();
        const double err = (y.to(at::kDouble) - ref).abs().max().item<double>();
        at::Tensor whole;
        {
            GemvPause pause(true);
            whole = project(x, *l);
        }
        const double apart = (y.to(at::kDouble) - whole.to(at::kDouble)).abs().max().item<double>();
        std::printf("%s: max |d| %.4f against fp64 (max |y| %.2f), %.4f against the whole matrix at once\n",
                    l->int4() ? "int4, 40 bf16 rows through 3 dequantized blocks" : "int8, 40 bf16 rows", err, top, apart);
        CHECK(err <= 0.02 * top);
        CHECK(apart <= 0.02 * top);
    }
}

// A row of more groups than the kernel keeps factors for (65536 inputs at group 32: 2048 groups)
// takes the dequantized path instead, and gives the product it stands for.
TEST_CASE(rows_wider_than_the_kernel_takes_are_dequantized) {
    at::manual_seed(9);
    const Int4Weight q = quantize_group_int4(at::randn({4, 65536}) * 0.05, 32);
    const Linear l{q.weight, q.scales, {}, q.zeros};
    CHECK(l.scales.size(1) > int4_kernel_max_groups());
    const at::Tensor x = at::randn({1, 1, 65536});
    const at::Tensor y = project(x, l);
    const at::Tensor ref = at::matmul(x.to(at::kDouble), dequantized(l, at::kDouble).t());
    CHECK((y.to(at::kDouble) - ref).abs().max().item<double>() <= 1e-3 * ref.abs().max().item<double>() + 1e-4);
}

// A hostile or broken int4 state dict is refused, naming the key, before any tensor is converted.
TEST_CASE(hostile_int4_state_dicts_are_refused) {
    const DualArConfig c = small_config(ModelLayout::S1);
    const TensorMap good = quantized(c, random_weights(c, 3), 32);
    auto refuse = [&](auto&& edit) {
        TensorMap w = good;
        edit(w);
        return error_of([&] { make_dual_ar_model(c, std::move(w), at::kCPU, at::kFloat); });
    };
    const std::string wo = "layers.0.attention.wo.";
    CHECK(has(refuse([&](TensorMap& w) { w.erase(wo + "zeros"); }), wo + "zeros is missing"));
    CHECK(has(refuse([&](TensorMap& w) { w.erase(wo + "scales"); }), wo + "scales is missing"));
    // scales of the wrong shape: a row short, a group short (the group no longer divides K), 1-D
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "scales"] = w.at(wo + "scales").narrow(0, 0, 5); }), wo + "scales"));
    CHECK(has(refuse([&](TensorMap& w) {
              w[wo + "scales"] = at::ones({32, 3}, at::kBFloat16);
              w[wo + "zeros"] = at::zeros({32, 3}, at::kBFloat16);
          }),
          "do not split the 32 inputs"));
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "scales"] = w.at(wo + "scales").flatten(); }), wo + "scales"));
    // a truncated pack: a byte short of every row, or a row short
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "weight"] = w.at(wo + "weight").narrow(1, 0, 15).contiguous(); }),
              wo + "weight"));
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "weight"] = w.at(wo + "weight").narrow(0, 0, 31).contiguous(); }),
              wo + "weight"));
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "scales"] = w.at(wo + "scales").to(at::kFloat); }), "must be bf16"));
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "zeros"] = at::full_like(w.at(wo + "zeros"), INFINITY); }), "not finite"));
    CHECK(has(refuse([&](TensorMap& w) { w[wo + "scales"] = -w.at(wo + "scales"); }), "not finite (or a scale <= 0)"));
    // zeros beside a float weight; a uint8 embedding
    CHECK(has(refuse([&](TensorMap& w) { w["fast_output.weight"] = random_weights(c, 3).at("fast_output.weight"); }),
              "fast_output.scales is present but fast_output.weight is not int8 or int4"));
    CHECK(has(refuse([](TensorMap& w) { w["fast_embeddings.weight"] = w.at("fast_embeddings.weight").to(at::kByte); }),
              "fast_embeddings.weight is uint8 (int4), but only the linear projections and the embedding tables can be "
              "quantized"));
    CHECK(has(refuse([](TensorMap& w) { w["embeddings.weight"] = w.at("embeddings.weight").to(at::kByte); }),
              "embeddings.weight is int4 (packed uint8) but embeddings.scales is missing"));
    CHECK(refuse([](TensorMap&) {}).empty());  // the untouched dict loads
}

// reef-cli quantize --format int4's engine half: the folder loads as int4 with the source's
// parameter count, its linears at about a quarter of bf16's bytes, quantization.json naming the
// format and group; a group that does not divide the model's inputs is refused before any work,
// and the load's size estimate is the bytes the loaded model holds.
TEST_CASE(quantize_model_writes_an_int4_folder_that_loads) {
    const fs::path dir = reef_test::temp_dir("quantize_int4");
    const std::string src = (dir / "tiny").string(), out = (dir / "tiny-int4").string();
    CHECK(write_demo_model(src, "tiny", "s2", 3).ok());
    QuantizeOptions int4;
    int4.format = "int4";
    int4.group = 32;
    auto r = quantize_model(src, out, int4);
    CHECK(r.ok());
    if (!r.ok()) return;
    std::ifstream marker(out + "/quantization.json");
    const std::string text((std::istreambuf_iterator<char>(marker)), std::istreambuf_iterator<char>());
    CHECK(has(text, "\"format\": \"int4\"") && has(text, "\"group\": 32"));
    auto f = load_dual_ar_model(src, at::kCPU, at::kBFloat16);
    auto q = load_dual_ar_model(out, at::kCPU, at::kBFloat16);
    CHECK(q->weight_format().bits == 4 && q->weight_format().group == 32 && q->weight_format().name() == "int4-g32");
    CHECK_EQ(q->n_parameters(), f->n_parameters());
    const DualArConfig c = load_model_config(out);
    const uint64_t estimate = model_weight_bytes(c, at::kBFloat16, WeightFormat::int4(32));
    std::printf("int4 folder: weights %lld bytes held, %llu estimated, bf16 source %lld\n", (long long)q->weight_bytes(),
                (unsigned long long)estimate, (long long)f->weight_bytes());
    CHECK(uint64_t(q->weight_bytes()) == estimate);
    CHECK(q->weight_bytes() < f->weight_bytes());
    const auto size = model_folder_size(out, Precision::Bf16);
    CHECK(size.ok() && size.value().format == "int4-g32" && size.value().bytes < size.value().int8_bytes);

    QuantizeOptions odd = int4;
    odd.group = 256;  // the tiny model's projections take 64 or 128 inputs
    auto bad = quantize_model(src, (dir / "bad").string(), odd);
    CHECK(!bad.ok() && has(bad.error().message, "does not divide"));
    CHECK(!fs::exists(dir / "bad"));
    odd.group = 48;
    CHECK(!quantize_model(src, (dir / "bad").string(), odd).ok());
    auto again = quantize_model(out, (dir / "twice").string(), int4);
    CHECK(!again.ok() && has(again.error().message, "already quantized"));
}

// reef-cli quantize --embeddings: the token and codebook tables quantized too (int8 per row, int4
// per group), the tied head with them; the folder loads, holds fewer bytes than without, its size
// estimate is what it holds, and its first frame's logits stay near the folder that kept the
// tables in bf16 (printed, per format).
TEST_CASE(quantized_embedding_tables_load_and_stay_close) {
    const fs::path dir = reef_test::temp_dir("quantize_embeddings");
    const std::string src = (dir / "tiny").string();
    CHECK(write_demo_model(src, "tiny", "s2", 4).ok());  // S2: the head is tied to the embeddings
    for (const char* format : {"int8", "int4"}) {
        QuantizeOptions kept, all;
        kept.format = all.format = format;
        kept.group = all.group = 32;
        all.embeddings = true;
        const std::string a = (dir / (std::string(format) + "-kept")).string(), b = (dir / (std::string(format) + "-all")).string();
        CHECK(quantize_model(src, a, kept).ok());
        auto r = quantize_model(src, b, all);
        CHECK(r.ok());
        if (!r.ok()) continue;
        const TensorMap stored = load_safetensors(b + "/model.safetensors", TensorHome::Mapping);
        const at::ScalarType want = std::string(format) == "int8" ? at::kChar : at::kByte;
        CHECK(stored.at("embeddings.weight").scalar_type() == want && stored.count("embeddings.scales"));
        CHECK(stored.at("codebook_embeddings.weight").scalar_type() == want);
        CHECK(stored.at("fast_embeddings.weight").scalar_type() == at::kBFloat16);
        auto ma = load_dual_ar_model(a, at::kCPU, at::kFloat);
        auto mb = load_dual_ar_model(b, at::kCPU, at::kFloat);
        CHECK(mb->weight_bytes() < ma->weight_bytes());
        CHECK_EQ(mb->n_parameters(), ma->n_parameters());
        const DualArConfig c = load_model_config(b);
        WeightFormat f = std::string(format) == "int8" ? WeightFormat::int8() : WeightFormat::int4(32);
        f.embeddings = true;
        CHECK(uint64_t(mb->weight_bytes()) == model_weight_bytes(c, at::kFloat, f));
        const at::Tensor prompt = make_prompt(c, 12, 3, 9);
        GenerateStats sa, sb;
        codes_of_run(*ma, prompt, greedy(4, 1), sa);
        codes_of_run(*mb, prompt, greedy(4, 1), sb);
        const double cos = cosine(sa.captured_logits.at(0), sb.captured_logits.at(0));
        std::printf("%s, embedding tables quantized too: first frame's logits cosine %.6f against bf16 tables; weights "
                    "%lld -> %lld bytes\n", format, cos, (long long)ma->weight_bytes(), (long long)mb->weight_bytes());
        // measured: int8 0.99985, int4 (group 32, the tied head included) 0.972
        CHECK(cos > (std::string(format) == "int8" ? 0.999 : 0.95));
        CHECK(mb->weight_format().embeddings && !ma->weight_format().embeddings);
    }
}

// A model that cannot fit is refused before anything is read, the codec included (it loads before
// the text2semantic weights): the tiny demo's config.json made 100 GB wide, and its codec.pth
// corrupt, gives InsufficientMemory (not the codec's error) with the way out; the same folder marked
// int8 points at quantizing its bf16 source to int4 instead of quantizing it again.
TEST_CASE(a_model_too_large_is_refused_before_the_codec_loads) {
    const fs::path dir = reef_test::temp_dir("too_large");
    const std::string src = (dir / "huge").string();
    CHECK(write_demo_model(src, "tiny", "s1", 5).ok());
    {
        std::ifstream in(src + "/config.json");
        nlohmann::json j = nlohmann::json::parse(in);
        nlohmann::json& t = j.contains("text_config") ? j["text_config"] : j;
        t["dim"] = 65536, t["n_head"] = 512, t["n_local_heads"] = 512, t["head_dim"] = 128, t["intermediate_size"] = 262144;
        std::ofstream(src + "/config.json") << j.dump(2);
    }
    std::ofstream(src + "/codec.pth", std::ios::trunc) << "not a torch zip";
    EngineConfig config;
    config.model_dir = src;
    Engine engine;
    auto r = engine.load(config);
    CHECK(!r.ok());
    if (r.ok()) return;
    std::printf("refused: %s / %s\n", r.error().message.c_str(), r.error().hint.c_str());
    CHECK(r.error().code == ErrorCode::InsufficientMemory);
    CHECK(has(r.error().hint, "int8 needs") && has(r.error().hint, "--format int4"));
    std::ofstream(src + "/quantization.json") << R"({"format": "int8"})";
    auto q = engine.load(config);
    CHECK(!q.ok() && q.error().code == ErrorCode::InsufficientMemory);
    if (!q.ok()) CHECK(has(q.error().hint, "quantize the bf16 model this folder was made from"));
}

TEST_MAIN()
