// safetensors reader: the file is memory-mapped once; every tensor is a view of that mapping whose
// deleter holds a shared_ptr to it, so the mapping lives exactly as long as some tensor does.
// Layout: u64 little-endian header length N, N bytes of JSON header, then the data buffer; each
// header entry gives dtype, shape and [begin, end) offsets relative to the data buffer.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "check.h"
#include "checkpoint/dtype_names.h"
#include "checkpoint/model_file.h"
#include "checkpoint/safetensors.h"
#include "input_limits.h"
#include "base/weight_memory.h"

namespace reef {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The reference implementation refuses headers above 100 MB; real headers are a few hundred KB.
constexpr uint64_t kMaxHeaderBytes = 100ull << 20;

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
    throw ReefError(ErrorCode::CorruptModel, "safetensors file '" + path + "': " + what,
                    "re-download or re-create the model files");
}

struct Mapping {
    void* addr = nullptr;
    size_t len = 0;
    ~Mapping() {
        if (addr) ::munmap(addr, len);
    }
};

// Private copy-on-write mapping: in-place ops on a loaded tensor never touch the file and never
// fault on read-only pages.
std::shared_ptr<Mapping> map_file(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw ReefError(ErrorCode::ModelNotFound, "safetensors file not found: '" + path + "'");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw ReefError(ErrorCode::Io, "cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        throw ReefError(ErrorCode::Io, "cannot stat '" + path + "': " + std::strerror(errno));
    }
    auto m = std::make_shared<Mapping>();
    m->len = size_t(st.st_size);
    if (m->len < 8) {
        ::close(fd);
        corrupt(path, "truncated: " + std::to_string(m->len) + " bytes, less than the 8-byte header length");
    }
    void* addr = ::mmap(nullptr, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (addr == MAP_FAILED) throw ReefError(ErrorCode::Io, "cannot mmap '" + path + "': " + std::strerror(errno));
    m->addr = addr;
    return m;
}

// Drops the mapping's pages that lie wholly inside [p, p + n) from this process (the file keeps
// them; a later read would fault them in again, unchanged: the mapping is private and these pages
// were only read). Pages shared with a neighbouring tensor stay.
void release_pages(void* p, size_t n) {
    const auto page = uintptr_t(::sysconf(_SC_PAGESIZE));
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) / page * page;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

struct Entry {
    std::string name;
    c10::ScalarType dtype;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;
};

Entry parse_entry(const std::string& path, const std::string& name, const json& v, uint64_t data_len) {
    const std::string where = "tensor '" + name + "'";
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets"))
        corrupt(path, where + " needs dtype, shape and data_offsets");
    Entry e;
    e.name = name;
    const json& dt = v["dtype"];
    const auto type = dt.is_string() ? dtype_from_safetensors(dt.get<std::string>()) : std::nullopt;
    if (!type) corrupt(path, where + " has unsupported dtype " + dt.dump());
    e.dtype = *type;
    const json& shape = v["shape"];
    if (!shape.is_array()) corrupt(path, where + " shape is not an array");
    // numel * itemsize must not overflow: every dimension is bounded by the file size.
    uint64_t nbytes = uint64_t(c10::elementSize(e.dtype));
    for (const json& d : shape) {
        if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<int64_t>() >= 0))
            corrupt(path, where + " has a bad dimension " + d.dump());
        const uint64_t n = d.get<uint64_t>();
        if (n > (uint64_t(1) << 48) || (n != 0 && nbytes > (uint64_t(1) << 62) / n))
            corrupt(path, where + " is too large");
        nbytes *= n;
        e.shape.push_back(int64_t(n));
    }
    const json& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
        corrupt(path, where + " data_offsets must be two non-negative integers");
    e.begin = off[0].get<uint64_t>();
    e.end = off[1].get<uint64_t>();
    if (e.begin > e.end || e.end > data_len)
        corrupt(path, where + " data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                          ") fall outside the data buffer of " + std::to_string(data_len) + " bytes (file truncated?)");
    if (e.end - e.begin != nbytes)
        corrupt(path, where + " spans " + std::to_string(e.end - e.begin) + " bytes but its dtype and shape need " +
                          std::to_string(nbytes));
    return e;
}

json parse_header(const std::string& path, const Mapping& m, uint64_t& header_len) {
    const auto* base = static_cast<const uint8_t*>(m.addr);
    header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | base[i];
    if (header_len > kMaxHeaderBytes) corrupt(path, "header length " + std::to_string(header_len) + " exceeds 100 MB");
    if (header_len > m.len - 8)
        corrupt(path, "truncated: header length " + std::to_string(header_len) + " but only " +
                          std::to_string(m.len - 8) + " bytes follow");
    json header;
    try {
        header = json::parse(base + 8, base + 8 + header_len);
    } catch (const json::exception& e) {
        corrupt(path, std::string("bad header JSON: ") + e.what());
    }
    if (!header.is_object()) corrupt(path, "header is not a JSON object");
    return header;
}

void check_no_overlap(const std::string& path, std::vector<Entry>& entries) {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    for (size_t i = 1; i < entries.size(); ++i) {
        const Entry& a = entries[i - 1];
        const Entry& b = entries[i];
        if (b.begin < a.end) corrupt(path, "tensors '" + a.name + "' and '" + b.name + "' overlap");
    }
}

}  // namespace

TensorMap load_safetensors(const std::string& path, TensorHome home) {
    const std::shared_ptr<Mapping> m = map_file(path);
    uint64_t header_len = 0;
    const json header = parse_header(path, *m, header_len);
    const uint64_t data_start = 8 + header_len;
    const uint64_t data_len = m->len - data_start;

    if (header.size() > size_t(limits::kMaxTensors))
        corrupt(path, "header lists " + std::to_string(header.size()) + " tensors, more than the limit of " +
                          std::to_string(limits::kMaxTensors));
    std::vector<Entry> entries;
    for (const auto& [name, v] : header.items()) {
        if (name == "__metadata__") continue;
        entries.push_back(parse_entry(path, name, v, data_len));
    }
    check_no_overlap(path, entries);

    TensorMap out;
    auto* data = static_cast<uint8_t*>(m->addr) + data_start;
    for (const Entry& e : entries) {
        const auto opts = at::TensorOptions().dtype(e.dtype);
        if (e.end == e.begin) {
            out[e.name] = at::empty(e.shape, opts);
            continue;
        }
        void* ptr = data + e.begin;
        const size_t bytes = size_t(e.end - e.begin);
        if (home == TensorHome::WeightMemory && weight_memory_enabled() && bytes >= kWeightMemoryMinBytes) {
            // Large tensors (the weights decode streams) are copied into aligned, huge-page memory
            // (base/weight_memory.h), and the file's pages only they used are dropped from this
            // process at once, so the copy does not double the resident memory while a model loads.
            out[e.name] = weight_memory_from(ptr, bytes, e.shape, e.dtype);
            release_pages(ptr, bytes);
            continue;
        }
        at::Tensor t = at::from_blob(ptr, e.shape, [m](void*) {}, opts);
        // Writers other than ours may leave the data unaligned for its dtype; kernels expect alignment.
        // Weights to keep take the small tensors out too (norms, scales): one of them left on the
        // mapping would keep it, and with it every page a fault mapped beside what was read. Where
        // the file system keeps large folios a fault maps 2 MB, which no release of part of it
        // drops: S2-Pro int8 kept ~4 MB per weight, 0.39 GB in all, for its scales' sake.
        const bool keep = home == TensorHome::WeightMemory && weight_memory_enabled();
        if (keep || reinterpret_cast<uintptr_t>(ptr) % c10::elementSize(e.dtype) != 0)
            t = t.clone();
        out[e.name] = std::move(t);
    }
    return out;
}

TensorMap load_safetensors_index(const std::string& index_json_path, TensorHome home) {
    const std::string text = read_model_text(index_json_path, limits::kMaxIndexFileBytes, "safetensors index");
    json index;
    try {
        index = json::parse(text);
    } catch (const json::exception& e) {
        throw ReefError(ErrorCode::CorruptModel, "safetensors index '" + index_json_path + "': bad JSON: " + e.what());
    }
    if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object())
        throw ReefError(ErrorCode::CorruptModel, "safetensors index '" + index_json_path + "' has no weight_map object");

    // shard file -> the keys the index promises it holds
    std::map<std::string, std::vector<std::string>> shards;
    for (const auto& [key, file] : index["weight_map"].items()) {
        if (!file.is_string())
            throw ReefError(ErrorCode::CorruptModel,
                            "safetensors index '" + index_json_path + "': weight_map['" + key + "'] is not a file name");
        shards[file.get<std::string>()].push_back(key);
    }
    const fs::path dir = fs::path(index_json_path).parent_path();
    // Every shard is confined before any is opened: a bad name later in the list must not let
    // earlier shards be mapped for nothing.
    std::map<std::string, std::string> shard_paths;
    for (const auto& [file, keys] : shards)
        shard_paths[file] = confined_path(dir.empty() ? fs::path(".") : dir, file, "safetensors index '" + index_json_path + "'").string();
    std::error_code ec;
    TensorMap out;
    for (const auto& [file, keys] : shards) {
        const std::string& shard_path = shard_paths.at(file);
        if (!fs::is_regular_file(shard_path, ec))
            throw ReefError(ErrorCode::ModelNotFound,
                            "shard '" + shard_path + "' listed in '" + index_json_path + "' is missing");
        TensorMap part = load_safetensors(shard_path, home);
        for (const std::string& key : keys)
            if (!part.count(key))
                throw ReefError(ErrorCode::CorruptModel, "shard '" + shard_path + "' lacks tensor '" + key +
                                                             "' that '" + index_json_path + "' places there");
        for (auto& [key, t] : part) {
            if (out.count(key))
                throw ReefError(ErrorCode::CorruptModel, "tensor '" + key + "' appears in more than one shard of '" +
                                                             index_json_path + "'");
            out.emplace(key, std::move(t));
        }
    }
    return out;
}

}  // namespace reef
