// safetensors read/write, sharding, strict header validation; verify_state_dict and
// make_random_weights.
#include <nlohmann/json.hpp>

#include <set>

#include "checkpoint/safetensors.h"
#include "checkpoint/verify.h"
#include "base/weight_memory.h"
#include "tst_checkpoint_util.h"

using namespace reef;
using ckpt_test::same;
namespace fs = std::filesystem;

namespace {

TensorMap all_dtypes() {
    TensorMap m;
    m["a.f64"] = at::arange(5, at::kDouble) / 3;
    m["a.f32"] = at::arange(12, at::kFloat).reshape({3, 4}) * 0.25;
    m["b.f16"] = at::arange(6, at::kFloat).to(at::kHalf) - 2;
    m["b.bf16"] = (at::arange(8, at::kFloat) * 1.5).to(at::kBFloat16).reshape({2, 2, 2});
    m["c.i64"] = at::arange(-3, 4, at::kLong) * (int64_t(1) << 40);
    m["c.i32"] = at::arange(-5, 5, at::kInt);
    m["c.i16"] = at::arange(-5, 5, at::kShort);
    m["c.i8"] = at::arange(-8, 8, at::kChar);
    m["c.u8"] = at::arange(0, 250, 7, at::kByte);
    m["d.bool"] = at::arange(7, at::kLong).remainder(2).to(at::kBool);
    m["e.scalar"] = at::scalar_tensor(3.5, at::kFloat);
    m["e.empty"] = at::empty({0, 4}, at::kFloat);
    m["e.noncontig"] = at::arange(12, at::kFloat).reshape({3, 4}).t();  // written contiguous
    return m;
}

void check_equal_maps(const TensorMap& got, const TensorMap& want) {
    CHECK_EQ(got.size(), want.size());
    for (const auto& [k, t] : want) {
        auto it = got.find(k);
        CHECK(it != got.end());
        if (it == got.end()) continue;
        const bool ok = same(it->second, t);
        ::reef_test::report(ok, "tensor equal", __FILE__, __LINE__, k);
    }
}

// A file with a hand-written header and `data_len` zero bytes of data.
std::string raw_file(const std::string& header, size_t data_len) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[size_t(i)] = char(uint64_t(header.size()) >> (8 * i));
    return s + header + std::string(data_len, '\0');
}

}  // namespace

TEST_CASE(round_trip_all_dtypes) {
    const fs::path dir = reef_test::temp_dir("st_round_trip");
    const TensorMap m = all_dtypes();
    save_safetensors((dir / "m.safetensors").string(), m, {{"format", "pt"}, {"note", "reef"}});
    CHECK(!fs::exists(dir / "m.safetensors.part"));
    const std::string bytes = ckpt_test::read_bytes(dir / "m.safetensors");
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | uint8_t(bytes[size_t(i)]);
    CHECK_EQ((8 + header_len) % 8, uint64_t(0));
    const auto header = nlohmann::json::parse(bytes.substr(8, header_len));
    CHECK(header["__metadata__"]["note"] == "reef");
    CHECK(header["b.bf16"]["dtype"] == "BF16");
    CHECK(header["c.u8"]["dtype"] == "U8");
    check_equal_maps(load_safetensors((dir / "m.safetensors").string()), m);
}

TEST_CASE(loaded_tensors_are_mapped_and_outlive_the_map) {
    const fs::path dir = reef_test::temp_dir("st_mapped");
    TensorMap m;
    m["x"] = at::arange(1000, at::kFloat);
    m["y"] = at::arange(10, at::kLong);
    const std::string path = (dir / "m.safetensors").string();
    save_safetensors(path, m);
    at::Tensor x;
    {
        TensorMap loaded = load_safetensors(path, TensorHome::Mapping);
        x = loaded.at("x");
        // Zero-copy: both tensors live in one mapping, y after x in name order.
        CHECK(static_cast<char*>(loaded.at("y").data_ptr()) - static_cast<char*>(x.data_ptr()) == 4000);
    }
    CHECK(same(x, m["x"]));   // the mapping survives the map
    x.mul_(2);                // copy-on-write: the file is untouched
    CHECK(same(load_safetensors(path).at("x"), m["x"]));
}

// Weights to keep hold nothing of the file: small tensors are copied too, so the mapping (and
// every page a fault mapped in it) goes when the load returns; the kernel's own list of this
// process's mappings is the witness.
TEST_CASE(weights_loaded_to_keep_leave_no_mapping_behind) {
    const fs::path dir = reef_test::temp_dir("st_unmapped");
    TensorMap m;
    m["big"] = at::arange(int64_t(1) << 19, at::kFloat);   // 2 MB: weight memory
    m["norm"] = at::arange(64, at::kFloat);                 // small
    const std::string path = (dir / "w.safetensors").string();
    save_safetensors(path, m);
    auto mapped = [&] {
        std::ifstream maps("/proc/self/maps");
        for (std::string line; std::getline(maps, line);)
            if (line.find(path) != std::string::npos) return true;
        return false;
    };
    const TensorMap kept = load_safetensors(path, TensorHome::WeightMemory);
    CHECK(mapped() != weight_memory_enabled());   // REEF_WEIGHT_MEMORY=0: views of the mapping, as before
    check_equal_maps(kept, m);
    const TensorMap views = load_safetensors(path, TensorHome::Mapping);
    CHECK(mapped());   // the witness sees a mapping when there is one
}

TEST_CASE(sharded_round_trip) {
    const fs::path dir = reef_test::temp_dir("st_sharded");
    const TensorMap m = all_dtypes();
    save_safetensors_sharded(dir.string(), m, 3);
    for (const char* f : {"model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors",
                          "model-00003-of-00003.safetensors", "model.safetensors.index.json"})
        CHECK(fs::exists(dir / f));
    std::ifstream in(dir / "model.safetensors.index.json");
    const auto index = nlohmann::json::parse(in);
    CHECK_EQ(index["weight_map"].size(), m.size());
    std::set<std::string> files;
    for (const auto& [k, f] : index["weight_map"].items()) files.insert(f.get<std::string>());
    CHECK_EQ(files.size(), size_t(3));  // every shard gets something
    check_equal_maps(load_safetensors_index((dir / "model.safetensors.index.json").string()), m);
}

TEST_CASE(missing_files) {
    const fs::path dir = reef_test::temp_dir("st_missing");
    EXPECT_REEF_ERROR(load_safetensors((dir / "nope.safetensors").string()), ErrorCode::ModelNotFound, "nope.safetensors");
    EXPECT_REEF_ERROR(load_safetensors_index((dir / "nope.json").string()), ErrorCode::ModelNotFound, "nope.json");
    TensorMap m{{"w", at::ones({4})}, {"v", at::ones({4})}};
    save_safetensors_sharded(dir.string(), m, 2);
    fs::remove(dir / "model-00002-of-00002.safetensors");
    EXPECT_REEF_ERROR(load_safetensors_index((dir / "model.safetensors.index.json").string()),
                      ErrorCode::ModelNotFound, "model-00002-of-00002.safetensors");
}

TEST_CASE(index_problems) {
    const fs::path dir = reef_test::temp_dir("st_index");
    save_safetensors((dir / "a.safetensors").string(), {{"w", at::ones({2})}});
    ckpt_test::write_bytes(dir / "i1.json", R"({"weight_map": {"w": "a.safetensors", "ghost": "a.safetensors"}})");
    EXPECT_REEF_ERROR(load_safetensors_index((dir / "i1.json").string()), ErrorCode::CorruptModel, "'ghost'");
    ckpt_test::write_bytes(dir / "i2.json", R"({"metadata": {}})");
    EXPECT_REEF_ERROR(load_safetensors_index((dir / "i2.json").string()), ErrorCode::CorruptModel, "weight_map");
    ckpt_test::write_bytes(dir / "i3.json", "{not json");
    EXPECT_REEF_ERROR(load_safetensors_index((dir / "i3.json").string()), ErrorCode::CorruptModel, "bad JSON");
}

TEST_CASE(corrupt_headers_are_named) {
    const fs::path dir = reef_test::temp_dir("st_corrupt");
    auto load_raw = [&](const std::string& name, const std::string& bytes) {
        ckpt_test::write_bytes(dir / name, bytes);
        return load_safetensors((dir / name).string());
    };
    const auto C = ErrorCode::CorruptModel;
    EXPECT_REEF_ERROR(load_raw("short", "abc"), C, "truncated");
    EXPECT_REEF_ERROR(load_raw("hugelen", std::string("\xff\xff\xff\xff\x00\x00\x00\x00", 8) + "{}"), C, "exceeds 100 MB");
    EXPECT_REEF_ERROR(load_raw("cut_header", raw_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8).substr(0, 20)),
                      C, "truncated: header length");
    EXPECT_REEF_ERROR(load_raw("badjson", raw_file("{\"w\": [", 0)), C, "bad header JSON");
    EXPECT_REEF_ERROR(load_raw("notobj", raw_file("[1, 2]", 0)), C, "not a JSON object");
    EXPECT_REEF_ERROR(load_raw("dtype", raw_file(R"({"w":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}})", 2)),
                      C, "tensor 'w' has unsupported dtype");
    EXPECT_REEF_ERROR(load_raw("outside", raw_file(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", 12)),
                      C, "tensor 'w' data_offsets [0, 16) fall outside");
    EXPECT_REEF_ERROR(load_raw("size", raw_file(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}})", 16)),
                      C, "tensor 'w' spans 16 bytes but its dtype and shape need 12");
    EXPECT_REEF_ERROR(load_raw("negdim", raw_file(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4)),
                      C, "bad dimension");
    EXPECT_REEF_ERROR(load_raw("overlap", raw_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12)),
                      C, "'a' and 'b' overlap");
    EXPECT_REEF_ERROR(load_raw("nooffsets", raw_file(R"({"w":{"dtype":"F32","shape":[2]}})", 8)), C, "needs dtype");

    // A real file cut short: the last tensor's data runs past the end.
    TensorMap m{{"a", at::ones({16})}, {"z", at::ones({16})}};
    save_safetensors((dir / "ok.safetensors").string(), m);
    const std::string good = ckpt_test::read_bytes(dir / "ok.safetensors");
    EXPECT_REEF_ERROR(load_raw("truncated.safetensors", good.substr(0, good.size() - 10)), C, "tensor 'z'");
    EXPECT_REEF_ERROR(load_raw("truncated.safetensors", good.substr(0, good.size() - 10)), C, "truncated.safetensors");
}

TEST_CASE(unaligned_data_is_copied) {
    // A header length that is not a multiple of 8 (other writers) leaves F32 data misaligned.
    const fs::path dir = reef_test::temp_dir("st_unaligned");
    const std::string header = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";  // odd length
    std::string bytes = raw_file(header, 0);
    const float vals[2] = {1.25f, -3.0f};
    bytes.append(reinterpret_cast<const char*>(vals), 8);
    ckpt_test::write_bytes(dir / "u.safetensors", bytes);
    const at::Tensor w = load_safetensors((dir / "u.safetensors").string()).at("w");
    CHECK_EQ(reinterpret_cast<uintptr_t>(w.data_ptr()) % 4, uintptr_t(0));
    CHECK(w[0].item<float>() == 1.25f && w[1].item<float>() == -3.0f);
}

// Tensors of 1 MiB or more (the weights decode streams) leave the file's mapping for aligned memory
// of their own (base/weight_memory.h): the file's offsets are only 8-byte aligned (here 48 mod 64,
// the writer's header), and a 512-bit load of a row would span two cache lines. Smaller ones
// stay mapped. The values are the file's either way, and the file is not changed by writes.
TEST_CASE(large_tensors_get_aligned_weight_memory) {
    if (!weight_memory_enabled()) return reef_test::skip("REEF_WEIGHT_MEMORY=0 or no mmap in this build");
    const fs::path dir = reef_test::temp_dir("st_weight_memory");
    TensorMap m;
    m["big"] = (at::arange(3 * 262144, at::kFloat).reshape({768, 1024}) * 0.5).to(at::kBFloat16);  // 1.5 MiB
    m["big32"] = at::arange(300000, at::kFloat);                                                    // 1.14 MiB
    m["small"] = at::arange(1000, at::kFloat);
    const std::string path = (dir / "m.safetensors").string();
    save_safetensors(path, m);
    TensorMap loaded = load_safetensors(path);
    for (const char* k : {"big", "big32"}) {
        const at::Tensor& t = loaded.at(k);
        CHECK(same(t, m[k]));
        CHECK(in_weight_memory(t));
        CHECK_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, uintptr_t(0));
    }
    CHECK(same(loaded.at("small"), m["small"]));
    CHECK(!in_weight_memory(loaded.at("small")));
    // the file's own offset of "big" is not 64-byte aligned: the copy is what aligned it
    const std::string bytes = ckpt_test::read_bytes(dir / "m.safetensors");
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | uint8_t(bytes[size_t(i)]);
    const auto header = nlohmann::json::parse(bytes.substr(8, header_len));
    const uint64_t file_offset = 8 + header_len + header["big"]["data_offsets"][0].get<uint64_t>();
    std::printf("'big' at file offset %llu (%llu mod 64)\n", (unsigned long long)file_offset,
                (unsigned long long)(file_offset % 64));
    loaded.at("big").mul_(2);
    CHECK(same(load_safetensors(path).at("big"), m["big"]));  // the file is untouched
    // a model bound for a GPU reads the mapping: no host copy before the transfer
    const TensorMap mapped = load_safetensors(path, TensorHome::Mapping);
    for (const char* k : {"big", "big32"}) CHECK(same(mapped.at(k), m[k]) && !in_weight_memory(mapped.at(k)));
    // to_weight_memory: a copy in weight memory for a large CPU tensor, the tensor itself otherwise
    const at::Tensor c = at::rand({1024, 512});
    const at::Tensor moved = to_weight_memory(c);
    CHECK(in_weight_memory(moved) && moved.data_ptr() != c.data_ptr() && moved.equal(c));
    CHECK(to_weight_memory(moved).data_ptr() == moved.data_ptr());
    const at::Tensor s = at::rand({16});
    CHECK(to_weight_memory(s).data_ptr() == s.data_ptr());
}

TEST_CASE(save_errors) {
    EXPECT_REEF_ERROR(save_safetensors("/nonexistent-dir/x.safetensors", {{"w", at::ones({1})}}), ErrorCode::Io,
                      "/nonexistent-dir/x.safetensors.part");
    EXPECT_REEF_ERROR(save_safetensors(reef_test::temp_dir("st_save_err") / "c.safetensors",
                                       {{"w", at::ones({1}, at::kComplexFloat)}}),
                      ErrorCode::InvalidArgument, "ComplexFloat");
}

TEST_CASE(verify_reports_missing_and_wrong_shapes) {
    TensorMap t{{"a.weight", at::zeros({2, 3})}, {"b.weight", at::zeros({4})}, {"extra", at::zeros({1})}};
    verify_state_dict(t, {{"a.weight", {2, 3}}, {"b.weight", {4}}}, "ok.pth");  // extra keys are fine
    const ExpectedShapes want{{"a.weight", {2, 3}}, {"b.weight", {5}}, {"c.weight", {1}}, {"d.bias", {1}}};
    EXPECT_REEF_ERROR(verify_state_dict(t, want, "codec.pth"), ErrorCode::ShapeMismatch,
                      "codec.pth: 2 missing, 1 with the wrong shape, 1 unexpected: missing c.weight; missing d.bias; "
                      "b.weight is [4], expected [5]");
    ExpectedShapes many;
    for (int i = 0; i < 20; ++i) many[std::string("k").append(std::to_string(i))] = {1};
    EXPECT_REEF_ERROR(verify_state_dict({}, many, "big"), ErrorCode::ShapeMismatch, "; and 12 more");
}

TEST_CASE(random_weights_are_deterministic) {
    const ExpectedShapes shapes{{"layers.0.attention_norm.weight", {64}},
                                {"layers.0.attention.wqkv.weight", {192, 256}},
                                {"layers.0.attention.wqkv.bias", {192}},
                                {"block.0.alpha", {1, 8, 1}},
                                {"layers.0.attention_layer_scale.gamma", {64}},
                                {"embeddings.weight", {100, 64}}};
    const TensorMap a = make_random_weights(shapes, 42);
    const TensorMap b = make_random_weights(shapes, 42);
    const TensorMap c = make_random_weights(shapes, 43);
    CHECK_EQ(a.size(), shapes.size());
    for (const auto& [k, s] : shapes) {
        CHECK(a.at(k).sizes() == at::IntArrayRef(s));
        CHECK(a.at(k).scalar_type() == at::kFloat);
        CHECK(same(a.at(k), b.at(k)));
    }
    CHECK(!same(a.at("layers.0.attention.wqkv.weight"), c.at("layers.0.attention.wqkv.weight")));
    CHECK(same(a.at("layers.0.attention_norm.weight"), at::ones({64})));
    CHECK(same(a.at("layers.0.attention_layer_scale.gamma"), at::ones({64})));
    CHECK(same(a.at("block.0.alpha"), at::ones({1, 8, 1})));
    CHECK(same(a.at("layers.0.attention.wqkv.bias"), at::zeros({192})));
    // N(0, 1/fan_in): std 1/16 for fan_in 256 (49152 draws: well within 2 %)
    CHECK_NEAR(a.at("layers.0.attention.wqkv.weight").std().item<double>(), 1.0 / 16, 1.0 / 16 * 0.02);
    CHECK_NEAR(a.at("layers.0.attention.wqkv.weight").mean().item<double>(), 0.0, 0.002);
    CHECK_NEAR(a.at("embeddings.weight").std().item<double>(), 1.0 / 8, 1.0 / 8 * 0.05);
}

TEST_MAIN()
