// Hostile model folders (issue #13) at the engine facade and at the loaders: each defect gives a
// CorruptModel / InsufficientMemory error naming the file and the problem, as a value, quickly,
// and the folder is left as it was. tests/unit/hostile_inputs.sh runs the same classes (and
// audio files) through reef-cli.
#include <caffe2/serialize/inline_container.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "checkpoint/model_file.h"
#include "checkpoint/pth_reader.h"
#include "codec/codec_config.h"
#include "memory_check.h"
#include "reef/engine.h"
#include "text2semantic/kv_cache.h"
#include "text2semantic/tokenizer_regex.h"
#include "tst_checkpoint_util.h"

using namespace reef;
using ckpt_test::write_bytes;
namespace fs = std::filesystem;

namespace {

#define EXPECT_ERROR(expr, code, needle) ckpt_test::expect_error([&] { (void)(expr); }, code, needle, __FILE__, __LINE__)

const fs::path& demo_s2() {
    static const fs::path dir = [] {
        const fs::path d = reef_test::temp_dir("hostile_demo") / "s2";
        const Status st = write_demo_model(d.string(), "tiny", "s2", 99);
        if (!st) std::fprintf(stderr, "demo model: %s\n", st.error().to_string().c_str());
        return d;
    }();
    return dir;
}

fs::path broken_copy(const std::string& name) {
    const fs::path d = reef_test::temp_dir("hostile_" + name) / "model";
    fs::copy(demo_s2(), d, fs::copy_options::recursive);
    return d;
}

void edit_json(const fs::path& p, const std::function<void(nlohmann::json&)>& fn) {
    std::ifstream in(p);
    nlohmann::json j = nlohmann::json::parse(in);
    fn(j);
    write_bytes(p, j.dump());
}

std::set<std::string> listing(const fs::path& d) {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(d)) out.insert(e.path().filename().string() + ":" +
                                                             std::to_string(e.is_regular_file() ? e.file_size() : 0));
    return out;
}

// Engine::load on `dir` must fail with `code`, naming `file` and every word, and leave the folder as it was.
void expect_load_error(const fs::path& dir, ErrorCode code, const std::string& file,
                       const std::vector<std::string>& words, int line) {
    const auto before = listing(dir);
    Engine engine;
    EngineConfig config;
    config.model_dir = dir.string();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = engine.load(config);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string why;
    if (r) why = "load succeeded";
    else {
        const std::string& m = r.error().message;
        if (r.error().code != code) why += "code " + std::string(error_code_name(r.error().code)) + "; ";
        if (m.find(file) == std::string::npos) why += "no file name '" + file + "'; ";
        for (const auto& w : words)
            if (m.find(w) == std::string::npos) why += "no '" + w + "'; ";
        if (!why.empty()) why += "message: " + m;
    }
    if (s > 20) why += " took " + std::to_string(s) + " s";
    if (listing(dir) != before) why += " the folder changed";
    reef_test::report(why.empty(), "hostile folder refused", __FILE__, line, why);
}

std::string binunicode(const std::string& s) {
    std::string out = "X";
    for (int i = 0; i < 4; ++i) out += char(uint32_t(s.size()) >> (8 * i));
    return out + s;
}

void write_zip(const fs::path& p, const std::string& pkl) {
    caffe2::serialize::PyTorchStreamWriter w(p.string());
    w.writeRecord("data.pkl", pkl.data(), pkl.size());
    w.writeEndOfFile();
}

}  // namespace

TEST_CASE(codec_rate_zero_is_an_error_not_sigfpe) {
    const fs::path d = broken_copy("codec_rate");
    edit_json(d / "codec_config.json", [](auto& j) { j["encoder_rates"] = {4, 0, 8, 8}; });
    expect_load_error(d, ErrorCode::CorruptModel, "codec_config.json", {"encoder_rates[1] is 0"}, __LINE__);
    // decoder side and a downsample factor of 0 too, straight at the parser
    EXPECT_ERROR(codec_config_from_json(R"({"decoder_rates": [8, 8, 0, 2]})", "c.json"), ErrorCode::CorruptModel,
                 "decoder_rates[2] is 0");
    EXPECT_ERROR(codec_config_from_json(R"({"quantizer": {"downsample_factor": [0, 2]}})", "c.json"),
                 ErrorCode::CorruptModel, "downsample_factor[0] is 0");
    EXPECT_ERROR(codec_config_from_json(R"({"sample_rate": 0})", "c.json"), ErrorCode::CorruptModel, "sample_rate is 0");
    EXPECT_ERROR(codec_config_from_json(R"({"encoder_dim": 1e300})", "c.json"), ErrorCode::CorruptModel,
                 "encoder_dim must be an integer");
}

TEST_CASE(index_shards_stay_inside_the_folder) {
    const fs::path outside = reef_test::temp_dir("hostile_outside");
    fs::copy_file(demo_s2() / "model.safetensors", outside / "stolen.safetensors", fs::copy_options::overwrite_existing);
    const auto make = [&](const std::string& name, const std::string& shard) {
        const fs::path d = broken_copy(name);
        nlohmann::json idx = {{"weight_map", {{"text_model.model.norm.weight", shard}}}};
        write_bytes(d / "model.safetensors.index.json", idx.dump());
        return d;
    };
    expect_load_error(make("dotdot", "../../hostile_outside/stolen.safetensors"), ErrorCode::CorruptModel,
                      "model.safetensors.index.json", {"climbs out"}, __LINE__);
    expect_load_error(make("absolute", (outside / "stolen.safetensors").string()), ErrorCode::CorruptModel,
                      "model.safetensors.index.json", {"absolute path"}, __LINE__);
    // a plain name inside the folder is fine
    const fs::path d = make("plain", "model.safetensors");
    CHECK(confined_path(d, "config.json", "idx") == d / "config.json");
}

// The Hugging Face hub cache: every file of snapshots/<rev>/ is a symlink into ../../blobs/. The
// index's names are plain, so such a folder must load (confinement is about names, not links).
TEST_CASE(hub_cache_snapshot_of_symlinks_loads) {
    const fs::path cache = reef_test::temp_dir("hostile_hub_cache");
    fs::remove_all(cache);
    const fs::path blobs = cache / "blobs", snap = cache / "snapshots" / "0123abc";
    fs::create_directories(blobs);
    fs::create_directories(snap);
    int n = 0;
    for (const auto& e : fs::directory_iterator(demo_s2())) {
        const fs::path blob = blobs / ("blob" + std::to_string(n++));
        fs::copy_file(e.path(), blob);
        fs::create_symlink(fs::path("../..") / "blobs" / blob.filename(), snap / e.path().filename());
    }
    // shard the weights through an index, as the real S2-Pro folder is
    const fs::path weights = snap / "model.safetensors";
    fs::rename(weights, snap / "model-00001-of-00001.safetensors");
    std::ifstream in(blobs / fs::read_symlink(snap / "model-00001-of-00001.safetensors").filename(), std::ios::binary);
    uint64_t header_len = 0;
    in.read(reinterpret_cast<char*>(&header_len), 8);
    std::string header(header_len, '\0');
    in.read(header.data(), std::streamsize(header_len));
    nlohmann::json map;
    const nlohmann::json tensors = nlohmann::json::parse(header);  // named: items() would dangle on a temporary
    for (const auto& [key, value] : tensors.items())
        if (key != "__metadata__") map[key] = "model-00001-of-00001.safetensors";
    write_bytes(snap / "model.safetensors.index.json", nlohmann::json({{"weight_map", map}}).dump());
    Engine engine;
    EngineConfig c;
    c.model_dir = snap.string();
    c.load_codec = true;
    const auto r = engine.load(c);
    CHECK(r.ok());
    if (!r.ok()) std::fprintf(stderr, "%s\n", r.error().to_string().c_str());
}

TEST_CASE(config_sizes_are_bounded) {
    for (const auto& [field, value] : std::vector<std::pair<std::string, int64_t>>{
             {"max_seq_len", int64_t(1) << 40}, {"vocab_size", int64_t(1) << 40}, {"n_layer", 1000000000}}) {
        const fs::path d = broken_copy("config_" + field);
        edit_json(d / "config.json", [&](auto& j) { j["text_config"][field] = value; });
        expect_load_error(d, ErrorCode::CorruptModel, "config.json", {field, "out of range"}, __LINE__);
    }
}

TEST_CASE(model_larger_than_memory_is_refused_before_loading) {
    const fs::path d = broken_copy("too_big");
    edit_json(d / "config.json", [](auto& j) {
        auto& t = j["text_config"];
        t["dim"] = 65536, t["n_layer"] = 1024, t["n_head"] = 512, t["n_local_heads"] = 512, t["head_dim"] = 128;
        t["intermediate_size"] = 262144, t["max_seq_len"] = 524288;
    });
    expect_load_error(d, ErrorCode::InsufficientMemory, "config.json", {"needs", "GB is available"}, __LINE__);
}

TEST_CASE(kv_cache_beyond_memory_is_an_error) {
    // 2 x 1024 layers x 1024 heads x 2048 x 2^19 rows x 4 B = 2^53 B: no machine has it.
    EXPECT_ERROR(KvCache(1024, 1024, 2048, int64_t(1) << 19, at::TensorOptions().dtype(at::kFloat)),
                 ErrorCode::InsufficientMemory, "KV cache of 524288 positions");
    EXPECT_ERROR(check_memory_fits(10'000'000'000ull, 1'000'000'000ull, at::kCPU, "the model"),
                 ErrorCode::InsufficientMemory, "the model needs 10.00 GB, 1.00 GB is available on cpu");
    const auto avail = available_memory(at::kCPU);
    CHECK(avail.has_value() && *avail > 0);
    KvCache small(2, 2, 16, 64, at::TensorOptions().dtype(at::kFloat));  // what fits still works
    CHECK_EQ(small.capacity(), int64_t(64));
}

TEST_CASE(pickle_shared_subdicts_do_not_expand) {
    // d0 = {}; d_i = {'a': d_{i-1}, 'b': d_{i-1}} through the memo: 2^31 paths in ~300 bytes.
    // Each level is memoised and popped; only the last stays on the stack as the root.
    std::string p = std::string("\x80\x02}q", 4) + char(0) + "0";
    for (int i = 1; i <= 30; ++i) {
        p += "}(" + binunicode("a") + "h" + char(i - 1) + binunicode("b") + "h" + char(i - 1) + "uq" + char(i);
        if (i < 30) p += "0";
    }
    p += ".";
    const fs::path f = reef_test::temp_dir("hostile_pickle") / "model.pth";
    write_zip(f, p);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_ERROR(load_pth(f.string()), ErrorCode::CorruptModel, "model.pth: the pickle expands to more than");
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

TEST_CASE(pickle_broadcast_view_is_refused) {
    // {'w': _rebuild_tensor_v2(storage of 1 float, 0, (100000, 100000), (0, 0), False, OrderedDict())}
    std::string p = "\x80\x02}(" + binunicode("w") + "ctorch._utils\n_rebuild_tensor_v2\n((" + binunicode("storage") +
                    "ctorch\nFloatStorage\n" + binunicode("0") + binunicode("cpu") + "K\x01tQ";
    p += std::string("K\x00J\xa0\x86\x01\x00J\xa0\x86\x01\x00\x86K\x00K\x00\x86\x89", 19);
    p += "ccollections\nOrderedDict\n)RtRu.";
    const fs::path f = reef_test::temp_dir("hostile_broadcast") / "codec.pth";
    caffe2::serialize::PyTorchStreamWriter w(f.string());
    w.writeRecord("data.pkl", p.data(), p.size());
    const float one = 1.0f;
    w.writeRecord("data/0", &one, sizeof one);
    w.writeEndOfFile();
    EXPECT_ERROR(load_pth(f.string()), ErrorCode::CorruptModel, "more elements than its storage");
}

TEST_CASE(regex_backtracking_hits_the_match_limit) {
    Pcre2Regex re("(a+)+b", "evil/tokenizer.json");
    const std::string text = std::string(40, 'a') + "c b";
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_ERROR(re.for_each_match(text, [](size_t, size_t) {}), ErrorCode::CorruptModel,
                 "evil/tokenizer.json: the pre-tokenizer regex hit its match limit");
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
    // an ordinary pattern still matches normally
    Pcre2Regex ok("a+", "ok");
    int n = 0;
    ok.for_each_match("aa b aaa", [&](size_t, size_t) { ++n; });
    CHECK_EQ(n, 2);
}

TEST_CASE(special_files_and_huge_files_are_refused) {
    const fs::path d = reef_test::temp_dir("hostile_files");
    const fs::path fifo = d / "config.json";
    CHECK(::mkfifo(fifo.c_str(), 0600) == 0);
    EXPECT_ERROR(read_model_text(fifo, 1 << 20, "model config"), ErrorCode::CorruptModel, "not a regular file");
    const fs::path big = d / "tokenizer.json";
    { std::ofstream(big).put('x'); }
    fs::resize_file(big, 2 << 20);
    EXPECT_ERROR(read_model_text(big, 1 << 20, "tokenizer"), ErrorCode::CorruptModel, "tokenizer.json: the tokenizer is 2097152 bytes");
}

TEST_MAIN()
