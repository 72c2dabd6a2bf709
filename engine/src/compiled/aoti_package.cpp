#include "compiled/aoti_package.h"

#include <torch/version.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check.h"
#include "checkpoint/atomic_file.h"
#include "checkpoint/safetensors.h"
#include "compiled/exporter_paths.h"
#include "compiled/package_cache.h"
#include "compiled/subprocess.h"
#include "memory_check.h"
#include "base/cuda_memory.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/model_config.h"

namespace reef {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// 64-bit multiply-xor hash over 8-byte words: a content fingerprint (not a security measure)
// fast enough to run over a model's weights on every load (several GB/s).
class Hasher {
public:
    void add(const void* data, size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            mix(w);
        }
        uint64_t tail = 0;
        std::memcpy(&tail, p + i, n - i);
        mix(tail ^ (uint64_t(n) << 56));
    }
    void add(const std::string& s) { add(s.data(), s.size()); }
    std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(m_h ^ (m_h >> 29)));
        return buf;
    }

private:
    void mix(uint64_t w) {
        m_h ^= w * 0x9E3779B97F4A7C15ULL;
        m_h = ((m_h << 27) | (m_h >> 37)) * 0xC2B2AE3D27D4EB4FULL + 0x165667B19E3779F9ULL;
    }
    uint64_t m_h = 0x243F6A8885A308D3ULL;
};

std::string file_hash(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    Hasher h;
    std::vector<char> buf(1 << 22);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        if (in.gcount() > 0) h.add(buf.data(), size_t(in.gcount()));
    }
    return h.hex();
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const char* dtype_name(at::ScalarType t) {
    switch (t) {
    case at::kBFloat16: return "bfloat16";
    case at::kHalf: return "float16";
    default: return "float32";
    }
}

json dims_json(const DualArConfig& c) {
    return {{"n_layer", c.n_layer},
            {"n_head", c.n_head},
            {"n_local_heads", c.n_local_heads},
            {"head_dim", c.head_dim},
            {"dim", c.dim},
            {"norm_eps", c.norm_eps},
            {"num_codebooks", c.num_codebooks},
            {"codebook_size", c.codebook_size},
            {"semantic_begin_id", c.semantic_begin_id},
            {"semantic_end_id", c.semantic_end_id},
            {"scale_codebook_embeddings", c.scale_codebook_embeddings},
            {"norm_fastlayer_input", c.norm_fastlayer_input},
            {"n_fast_layer", c.n_fast_layer},
            {"fast_dim", c.fast_dim},
            {"fast_n_head", c.fast_n_head},
            {"fast_n_local_heads", c.fast_n_local_heads},
            {"fast_head_dim", c.fast_head_dim},
            {"max_cache_rows", find_multiple(c.max_seq_len, 8)}};
}

std::string cache_key(const TensorMap& weights, const json& spec_core, const std::string& exporter_text) {
    Hasher h;
    h.add(spec_core.dump());
    h.add(exporter_text);
    for (const auto& [name, t] : weights) {
        h.add(name);
        h.add(std::string(c10::toString(t.scalar_type())));
        for (int64_t s : t.sizes()) h.add(&s, sizeof s);
        const at::Tensor c = t.to(at::kCPU).contiguous();
        h.add(c.data_ptr(), c.nbytes());
    }
    return h.hex();
}

// A cache entry is trusted only when its manifest lists both packages with the sizes and hashes
// they have now.
bool entry_valid(const fs::path& dir, json* manifest_out) {
    std::error_code ec;
    if (!fs::exists(dir / "manifest.json", ec)) return false;
    try {
        const json m = json::parse(read_text(dir / "manifest.json"));
        for (const char* name : {"slow.pt2", "fast.pt2"}) {
            const json& f = m.at("files").at(name);
            const fs::path p = dir / name;
            if (!fs::exists(p, ec) || fs::file_size(p, ec) != f.at("bytes").get<uint64_t>()) return false;
            if (file_hash(p) != f.at("hash").get<std::string>()) return false;
        }
        if (manifest_out) *manifest_out = m;
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// Keeps the cache under its size limit ($REEF_AOTI_CACHE_GB, default 20 GB; every entry holds a
// copy of a model's weights): the least recently used entries go first, never `keep`.
void prune_cache(const fs::path& root, const fs::path& keep) {
    double limit_gb = 20;
    if (const char* v = std::getenv("REEF_AOTI_CACHE_GB"); v && *v) limit_gb = std::atof(v);
    struct Entry {
        fs::path dir;
        fs::file_time_type used;
        uintmax_t bytes = 0;
    };
    std::vector<Entry> entries;
    uintmax_t total = 0;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(root, ec)) {
        if (!d.is_directory(ec) || !fs::exists(d.path() / "manifest.json", ec)) continue;
        Entry e{d.path(), fs::last_write_time(d.path() / "manifest.json", ec), 0};
        for (const auto& f : fs::directory_iterator(d.path(), ec))
            if (f.is_regular_file(ec)) e.bytes += f.file_size(ec);
        total += e.bytes;
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const auto limit = uintmax_t(limit_gb * 1e9);
    for (const Entry& e : entries) {
        if (total <= limit) break;
        if (e.dir == keep) continue;
        fs::remove_all(e.dir, ec);
        total -= e.bytes;
    }
}

class TempDir {
public:
    explicit TempDir(fs::path p) : m_path(std::move(p)) { fs::create_directories(m_path); }
    ~TempDir() {
        std::error_code ec;
        if (!m_path.empty()) fs::remove_all(m_path, ec);
    }
    const fs::path& path() const { return m_path; }
    void release() { m_path.clear(); }

private:
    fs::path m_path;
};

// What a user does when the exporter's Python lacks the matching torch.
std::string matching_python_hint() {
    return "run `reef-cli compile --setup` (a private venv with torch " + std::string(TORCH_VERSION) +
           "), or set REEF_PYTHON to a Python with torch==" + std::string(TORCH_VERSION);
}

[[noreturn]] void throw_no_python(const std::string& python, const ChildResult& r) {
    throw ReefError(ErrorCode::BackendUnavailable,
                    "compile mode 'aot-inductor' needs Python with torch " + std::string(TORCH_VERSION) +
                        " to compile the decode step, and '" + python + "' " + child_failure(r),
                    matching_python_hint() + ", or use compile mode 'eager'");
}

// The exporter's Python must have the torch this libtorch is: asked first (a few seconds), before
// gigabytes of weights are written for a compile that could not run.
void check_exporter_python(const std::string& python, const std::string& exporter) {
    const ChildResult r = run_child({python, exporter, "--check-torch", TORCH_VERSION}, {}, {}, {});
    if (r.spawn_failed) throw_no_python(python, r);
    if (r.exit_code != 0)
        throw ReefError(ErrorCode::BackendUnavailable, "compile mode 'aot-inductor': " + child_failure(r),
                        matching_python_hint() + ", or use compile mode 'eager'");
}

// Disk: the weights file, the two packages (which hold the weights again) and Inductor's
// intermediate files; memory: the exporter holds the weights and the compiled constants.
void check_compile_resources(const fs::path& root, uint64_t weight_bytes) {
    const uint64_t disk_needed = bytes_product({weight_bytes, 3}) + (uint64_t(256) << 20);
    const int64_t disk_free = free_disk_bytes(root);
    if (disk_free >= 0 && uint64_t(disk_free) < disk_needed)
        throw ReefError(ErrorCode::Io,
                        "compile mode 'aot-inductor': compiling the decode step needs about " +
                            std::to_string((disk_needed + (1u << 29)) >> 30) + " GB free in " + root.string() + ", " +
                            std::to_string(uint64_t(disk_free) >> 20) + " MB are free",
                        "free disk space, or set REEF_CACHE_DIR to a folder on a larger disk");
    require_memory(bytes_product({weight_bytes, 2}), c10::Device(c10::kCPU),
                   "compiling the decode step (the exporter holds the weights twice)");
}

double compile_timeout_s() {
    const char* v = std::getenv("REEF_AOTI_TIMEOUT_S");
    const double s = v && *v ? std::atof(v) : 0;
    return s > 0 ? s : 3600;
}

}  // namespace

bool aoti_kernel_profile() {
    const char* v = std::getenv("REEF_AOTI_KERNEL_PROFILE");
    return v && std::string(v) == "1";
}

void discard_aoti_package(const AotiPackage& package) {
    std::error_code ec;
    fs::remove(fs::path(package.dir) / "manifest.json", ec);
}

namespace {

// What one cache entry is made from: the exporter's spec, the weights it is given, and the key.
struct EntryPlan {
    std::string exporter;
    json spec;
    TensorMap weights;
    std::string key;
    fs::path root, dir;
};

EntryPlan plan_entry(const DualArModel& model, const at::Tensor& head, const AotiCompileOptions& o) {
    EntryPlan e;
    const bool cuda = model.device().is_cuda();
    e.exporter = exporter_path();
    const std::string exporter_text = read_text(e.exporter);
    if (exporter_text.empty())
        throw ReefError(ErrorCode::BackendUnavailable,
                        "compile mode 'aot-inductor': the exporter script " + e.exporter + " is missing",
                        "set REEF_AOTI_EXPORTER to reef_aoti_export.py, or use compile mode 'eager'");
    // Everything that decides whether the package's code runs here is in the key (package_cache.h):
    // the host's instruction-set features and GPU architecture, and Reef's own version.
    const std::string gpu_arch = cuda ? cuda_device_arch(model.device().index()) : "";
    e.spec = {{"torch_version", TORCH_VERSION},
              {"reef_version", REEF_VERSION},
              {"host", host_code_features(gpu_arch)},
              {"device", cuda ? "cuda" : "cpu"},
              {"dtype", dtype_name(model.dtype())},
              {"sdpa", to_string(o.policy)},  // resolved: math, auto or one backend
              {"kv_mode", to_string(o.kv_mode)},
              {"dims", dims_json(model.config())}};
    if (aoti_kernel_profile()) e.spec["kernel_profile"] = true;
    e.weights = model.decode_step_weights(head);
    e.key = cache_key(e.weights, e.spec, exporter_text);
    // The key holds the GPU's architecture, not its index: one package serves every GPU of that
    // architecture. The exporter compiles on the GPU the model is on (cuda:N), not on cuda:0.
    if (cuda) e.spec["device"] = "cuda:" + std::to_string(model.device().index());
    e.root = private_cache_root();
    e.dir = e.root / e.key;
    return e;
}

}  // namespace

std::string aoti_entry_dir(const DualArModel& model, const at::Tensor& head, const AotiCompileOptions& options) {
    return plan_entry(model, head, options).dir.string();
}

AotiPackage ensure_aoti_package(const DualArModel& model, const at::Tensor& head, const AotiCompileOptions& o) {
    EntryPlan plan = plan_entry(model, head, o);
    const std::string& exporter = plan.exporter;
    json& spec = plan.spec;
    const TensorMap& weights = plan.weights;
    const std::string& key = plan.key;
    const fs::path& root = plan.root;
    const fs::path& dir = plan.dir;
    sweep_stale_temps(root);  // the leftovers of compiles that were killed or crashed

    AotiPackage pkg;
    pkg.dir = dir.string();
    pkg.slow_path = (dir / "slow.pt2").string();
    pkg.fast_path = (dir / "fast.pt2").string();
    pkg.sdpa_policy = o.policy;
    pkg.kv_mode = o.kv_mode;
    json manifest;
    if (entry_valid(dir, &manifest)) {
        pkg.from_cache = true;
        pkg.compile_s = manifest.value("compile_s", 0.0);
        std::error_code ec;
        fs::last_write_time(dir / "manifest.json", fs::file_time_type::clock::now(), ec);  // recently used
        return pkg;
    }

    // The cheap checks first, before the weights are written or a compiler starts.
    const std::string python = exporter_python();
    check_exporter_python(python, exporter);
    uint64_t weight_bytes = 0;
    for (const auto& [name, t] : weights) weight_bytes += uint64_t(t.nbytes());
    check_compile_resources(root, weight_bytes);

    std::error_code ec;
    TempDir tmp(temp_entry_path(root, key));
    const auto t0 = Clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    std::string last_status;
    auto progress = [&](const std::string& what) {  // once per change of text or second, not per poll
        std::string line = what + " (" + std::to_string(int(seconds())) + " s)";
        if (!o.progress || line == last_status) return;
        last_status = line;
        o.progress(line);
    };
    progress("compiling the decode step: writing its weights");
    save_safetensors((tmp.path() / "weights.safetensors").string(), weights);
    spec["weights"] = (tmp.path() / "weights.safetensors").string();
    spec["out_dir"] = tmp.path().string();
    spec["threads"] = o.threads;
    {
        AtomicFileWriter f((tmp.path() / "spec.json").string());
        const std::string text = spec.dump(2);
        f.write(text.data(), text.size());
        f.commit();
    }
    std::string last = "starting " + python;
    const double timeout_s = compile_timeout_s();
    bool timed_out = false;
    progress("compiling the decode step: " + last);
    // Inductor's own cache goes in the temporary folder too: it would otherwise keep a copy of
    // every compiled package (weights included) in /tmp; Reef's cache is the one that lasts.
    // $REEF_INDUCTOR_CACHE_DIR names a folder that lasts instead, for those who compile the same
    // graphs over and over (CI's compiled-arm tests, .ci/run): Inductor then reuses its kernels.
    const char* lasting = std::getenv("REEF_INDUCTOR_CACHE_DIR");
    const std::string inductor_dir = lasting && *lasting ? lasting : (tmp.path() / "inductor").string();
    const ChildResult r = run_child(
        {python, exporter, (tmp.path() / "spec.json").string()},
        {{"PYTHONUNBUFFERED", "1"}, {"TORCHINDUCTOR_CACHE_DIR", inductor_dir}},
        [&](const std::string& line) {
            const std::string tag = "reef-export: ";
            if (line.rfind(tag, 0) == 0) last = line.substr(tag.size());
            progress("compiling the decode step: " + last);
        },
        [&] {
            if (o.should_abort && o.should_abort()) return true;
            if (seconds() > timeout_s) return timed_out = true;
            progress("compiling the decode step: " + last);  // the seconds keep counting between lines
            return false;
        });
    if (r.aborted && timed_out)
        throw ReefError(ErrorCode::BackendUnavailable,
                        "compile mode 'aot-inductor': the decode-step compile took longer than " +
                            std::to_string(int(timeout_s)) + " s and was stopped",
                        "raise REEF_AOTI_TIMEOUT_S, or use compile mode 'eager'");
    if (r.aborted) throw ReefError(ErrorCode::Cancelled, "the decode-step compile was cancelled");
    if (r.spawn_failed) throw_no_python(python, r);
    if (r.exit_code != 0 && std::getenv("REEF_AOTI_KEEP_FAILED")) tmp.release();  // for debugging the exporter
    if (r.exit_code != 0)
        throw ReefError(ErrorCode::BackendUnavailable,
                        "compile mode 'aot-inductor': the decode-step export failed: " + child_failure(r),
                        r.exit_code == 3 ? matching_python_hint() : std::string("use compile mode 'eager'"));

    fs::remove(tmp.path() / "weights.safetensors", ec);
    fs::remove_all(tmp.path() / "inductor", ec);
    pkg.compile_s = seconds();
    json files = json::object();
    for (const char* name : {"slow.pt2", "fast.pt2"}) {
        const fs::path p = tmp.path() / name;
        if (!fs::exists(p, ec))
            throw ReefError(ErrorCode::BackendUnavailable,
                            std::string("compile mode 'aot-inductor': the exporter wrote no ") + name);
        files[name] = {{"bytes", fs::file_size(p)}, {"hash", file_hash(p)}};
    }
    const json m = {{"files", files},     {"compile_s", pkg.compile_s}, {"torch", TORCH_VERSION},
                    {"spec", spec},       {"reef", REEF_VERSION}};
    {
        AtomicFileWriter f((tmp.path() / "manifest.json").string());
        const std::string text = m.dump(2);
        f.write(text.data(), text.size());
        f.commit();
    }
    // Publish the entry in one rename; a valid entry another process published first is kept.
    std::string why;
    if (!publish_entry(tmp.path(), dir, [](const fs::path& d) { return entry_valid(d, nullptr); }, &why))
        throw ReefError(ErrorCode::Io, "compile mode 'aot-inductor': cannot store the package in " + dir.string() +
                                           ": " + why);
    tmp.release();
    prune_cache(root, dir);
    return pkg;
}

}  // namespace reef
