// .pth (torch zip) reading and writing: round trip, a real torch.save fixture (nested dict,
// OrderedDict with _metadata, shared storages, views), and hostile or broken files.
#include <caffe2/serialize/inline_container.h>

#include <cstdlib>
#include <map>

#include "checkpoint/pth_reader.h"
#include "tst_checkpoint_util.h"

using namespace reef;
using ckpt_test::same;
namespace fs = std::filesystem;
using namespace std::string_literals;

namespace {

fs::path fixture(const char* name) {
    const char* src = std::getenv("REEF_SOURCE_DIR");
    return fs::path(src ? src : ".") / "tests/unit/data" / name;
}

// A torch zip with the given data.pkl and storage records, written with the same writer torch uses.
void write_zip(const fs::path& p, const std::string& pkl, const std::map<std::string, std::string>& records = {}) {
    caffe2::serialize::PyTorchStreamWriter w(p.string());
    w.writeRecord("data.pkl", pkl.data(), pkl.size());
    for (const auto& [name, bytes] : records) w.writeRecord(name, bytes.data(), bytes.size());
    w.writeEndOfFile();
}

std::string binunicode(const std::string& s) {
    std::string out = "X";
    for (int i = 0; i < 4; ++i) out += char(uint32_t(s.size()) >> (8 * i));
    return out + s;
}

// {'w': _rebuild_tensor_v2(storage('0', FloatStorage, numel 4), offset, (n,), (1,), False, OrderedDict())}
std::string one_tensor_pickle(int offset, int n) {
    std::string p = "\x80\x02}(" + binunicode("w") + "ctorch._utils\n_rebuild_tensor_v2\n((" + binunicode("storage") +
                    "ctorch\nFloatStorage\n" + binunicode("0") + binunicode("cpu") + "K\x04tQ";
    p += "K" + std::string(1, char(offset)) + "K" + std::string(1, char(n)) + "\x85K\x01\x85\x89";
    p += "ccollections\nOrderedDict\n)RtRu.";
    return p;
}

std::string four_floats() {
    const float v[4] = {1, 2, 3, 4};
    return std::string(reinterpret_cast<const char*>(v), sizeof v);
}

}  // namespace

TEST_CASE(round_trip) {
    const fs::path dir = reef_test::temp_dir("pth_round_trip");
    TensorMap m;
    m["layers.0.w"] = at::arange(12, at::kFloat).reshape({3, 4}) / 7;
    m["layers.0.b"] = (at::arange(5, at::kFloat) - 2).to(at::kBFloat16);
    m["h"] = at::arange(6, at::kFloat).to(at::kHalf);
    m["ids"] = at::arange(-3, 3, at::kLong) * (int64_t(1) << 40);
    m["i32"] = at::arange(-70000, 70000, 10000, at::kInt);
    m["mask"] = at::arange(5, at::kLong).remainder(2).to(at::kBool);
    m["u8"] = at::arange(0, 200, 9, at::kByte);
    m["scalar"] = at::scalar_tensor(2.5, at::kDouble);
    m["empty"] = at::empty({0, 3}, at::kFloat);
    m["view"] = at::arange(20, at::kFloat).reshape({4, 5}).t();  // saved contiguous
    const std::string path = (dir / "m.pth").string();
    save_pth(path, m);
    CHECK(!fs::exists(path + ".part"));
    const TensorMap got = load_pth(path);
    CHECK_EQ(got.size(), m.size());
    for (const auto& [k, t] : m) {
        const bool ok = got.count(k) && same(got.at(k), t);
        ::reef_test::report(ok, "round trip", __FILE__, __LINE__, k);
    }
    // The zip holds what torch.load expects.
    caffe2::serialize::PyTorchStreamReader r(path);
    CHECK(r.hasRecord("data.pkl") && r.hasRecord("byteorder") && r.hasRecord("version") && r.hasRecord("data/0"));
}

TEST_CASE(torch_save_fixture) {
    const TensorMap m = load_pth(fixture("pth_torch_save.pth").string());
    // 10 state_dict tensors + linear.weight/bias; epoch, meta.* and Linear's _metadata are not tensors.
    CHECK_EQ(m.size(), size_t(12));
    CHECK(same(m.at("state_dict.f32"), at::arange(6, at::kFloat).reshape({2, 3}) * 0.5));
    const float bf[3] = {1.5f, -2.0f, 0.25f};
    CHECK(same(m.at("state_dict.bf16"), at::from_blob((void*)bf, {3}, at::kFloat).to(at::kBFloat16)));
    CHECK(same(m.at("state_dict.f16"), at::tensor({0.5, -1.0}, at::kFloat).reshape({1, 2}).to(at::kHalf)));
    const at::Tensor base = at::arange(12, at::kLong).reshape({3, 4});
    CHECK(same(m.at("state_dict.i64"), base));
    const at::Tensor& t = m.at("state_dict.i64_t");
    CHECK(same(t, base.t()));
    CHECK(!t.is_contiguous());
    CHECK(t.data_ptr() == m.at("state_dict.i64").data_ptr());  // one storage, not two copies
    CHECK(same(m.at("state_dict.i32"), at::arange(-2, 2, at::kInt)));
    CHECK(same(m.at("state_dict.flag"), at::tensor({1, 0, 1}, at::kLong).to(at::kBool)));
    CHECK(m.at("state_dict.scalar").dim() == 0 && m.at("state_dict.scalar").item<float>() == 7.25f);
    CHECK(same(m.at("state_dict.slice"), at::arange(3, 7, at::kFloat)));
    CHECK_EQ(m.at("state_dict.slice").storage_offset(), int64_t(3));
    CHECK(m.at("linear.weight").sizes() == at::IntArrayRef({2, 3}));
    CHECK(m.at("linear.bias").sizes() == at::IntArrayRef({2}));
    CHECK(!m.count("epoch") && !m.count("meta.name") && !m.count("linear._metadata"));
}

TEST_CASE(forbidden_global_is_refused) {
    // The fixture's pickle would run os.system("echo ...") in an unrestricted unpickler.
    EXPECT_REEF_ERROR(load_pth(fixture("pth_evil.pth").string()), ErrorCode::CorruptModel, "refuses global 'os.system'");
    const fs::path dir = reef_test::temp_dir("pth_hostile");
    // STACK_GLOBAL (protocol 4) spelling of builtins.eval
    write_zip(dir / "eval.pth", "\x80\x04" + binunicode("builtins") + binunicode("eval") + "\x93" + binunicode("1") + "\x85R.");
    EXPECT_REEF_ERROR(load_pth((dir / "eval.pth").string()), ErrorCode::CorruptModel, "refuses global 'builtins.eval'");
    // An allowed name called in a disallowed way: a storage type as a function.
    write_zip(dir / "call.pth", "\x80\x02" "ctorch\nFloatStorage\n)R.");
    EXPECT_REEF_ERROR(load_pth((dir / "call.pth").string()), ErrorCode::CorruptModel, "refuses to call 'torch.FloatStorage'");
}

TEST_CASE(malformed_pickles) {
    const fs::path dir = reef_test::temp_dir("pth_malformed");
    const auto C = ErrorCode::CorruptModel;
    auto load_zip = [&](const std::string& name, const std::string& pkl, const std::map<std::string, std::string>& rec) {
        write_zip(dir / name, pkl, rec);
        return load_pth((dir / name).string());
    };
    // The well-formed variant loads: a sanity check of the hand-made bytes.
    const TensorMap ok = load_zip("ok.pth", one_tensor_pickle(1, 3), {{"data/0", four_floats()}});
    CHECK(same(ok.at("w"), at::tensor({2.0, 3.0, 4.0}, at::kFloat)));

    EXPECT_REEF_ERROR(load_zip("offset.pth", one_tensor_pickle(2, 3), {{"data/0", four_floats()}}), C,
                      "reaches outside its storage of 4 elements");
    EXPECT_REEF_ERROR(load_zip("short.pth", one_tensor_pickle(0, 3), {{"data/0", four_floats().substr(0, 8)}}), C,
                      "fewer than 4 elements");
    EXPECT_REEF_ERROR(load_zip("norecord.pth", one_tensor_pickle(0, 3), {}), C, "missing storage record 'data/0'");
    EXPECT_REEF_ERROR(load_zip("opcode.pth", "\x80\x02}\xff.", {}), C, "unsupported pickle opcode 0xff at offset 3");
    EXPECT_REEF_ERROR(load_zip("trunc.pth", one_tensor_pickle(0, 3).substr(0, 40), {{"data/0", four_floats()}}), C,
                      "truncated pickle");
    EXPECT_REEF_ERROR(load_zip("underflow.pth", "\x80\x02s.", {}), C, "stack underflow");
    EXPECT_REEF_ERROR(load_zip("memo.pth", "\x80\x02h\x05.", {}), C, "memo slot 5");
    EXPECT_REEF_ERROR(load_zip("list.pth", "\x80\x02]." , {}), C, "is a list, not a state_dict");
    EXPECT_REEF_ERROR(load_zip("cycle.pth", "\x80\x02}q\x00X\x01\x00\x00\x00" "ah\x00" "s."s, {}), C, "nested deeper");
}

TEST_CASE(broken_files) {
    const fs::path dir = reef_test::temp_dir("pth_broken");
    EXPECT_REEF_ERROR(load_pth((dir / "none.pth").string()), ErrorCode::ModelNotFound, "none.pth");
    ckpt_test::write_bytes(dir / "text.pth", "this is not a zip file at all");
    EXPECT_REEF_ERROR(load_pth((dir / "text.pth").string()), ErrorCode::CorruptModel, "not a readable torch zip");
    save_pth((dir / "good.pth").string(), {{"w", at::arange(4096, at::kFloat)}});
    const std::string good = ckpt_test::read_bytes(dir / "good.pth");
    ckpt_test::write_bytes(dir / "cut.pth", good.substr(0, good.size() / 2));
    EXPECT_REEF_ERROR(load_pth((dir / "cut.pth").string()), ErrorCode::CorruptModel, "cut.pth");
    EXPECT_REEF_ERROR(save_pth("/nonexistent-dir/x.pth", {{"w", at::ones({1})}}), ErrorCode::Io, "x.pth.part");
}

TEST_MAIN()
