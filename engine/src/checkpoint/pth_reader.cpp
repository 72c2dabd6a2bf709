// .pth (torch zip) read and write: caffe2's PyTorchStreamReader/Writer handle the zip records,
// our restricted unpickler (pickle_reader.h) and pickler (pickle_writer.h) the data.pkl record.
#include "checkpoint/pth_reader.h"

#include <caffe2/serialize/inline_container.h>

#include <filesystem>
#include <map>

#include "check.h"
#include "checkpoint/atomic_file.h"
#include "checkpoint/dtype_names.h"
#include "checkpoint/pickle_reader.h"
#include "checkpoint/pickle_writer.h"
#include "input_limits.h"

namespace reef {

namespace {

using pickle::Kind;
using pickle::Value;
using pickle::ValuePtr;

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
    throw ReefError(ErrorCode::CorruptModel, path + ": " + what, "re-download or re-create the model files");
}

// A zip record's size is checked against the file before it is read: getRecord allocates the
// size the zip directory claims, and a compressed record can claim terabytes in a few bytes.
// torch.save stores records uncompressed, so a real record always fits in its file.
uint64_t record_size(caffe2::serialize::PyTorchStreamReader& reader, const std::string& name, const std::string& path,
                     uint64_t file_size) {
    const uint64_t size = reader.getRecordSize(name);
    if (size > file_size)
        corrupt(path, "zip record '" + name + "' claims " + std::to_string(size) + " bytes, more than the whole file (" +
                          std::to_string(file_size) + " bytes): a compressed record, which torch.save never writes");
    return size;
}

std::tuple<at::DataPtr, size_t> read_record(caffe2::serialize::PyTorchStreamReader& reader, const std::string& name,
                                            const std::string& path, uint64_t file_size) {
    record_size(reader, name, path, file_size);
    return reader.getRecord(name);
}

// Storage records by key; a key read twice (views of one storage) is shared, not copied.
class StorageLoader {
public:
    // defer: storages are made without their data (fill() reads it later), so that a caller keeping
    // only some tensors reads only their records
    StorageLoader(caffe2::serialize::PyTorchStreamReader& reader, const std::string& path, uint64_t file_size,
                  bool defer = false)
        : m_reader(reader), m_path(path), m_file_size(file_size), m_defer(defer) {}

    // A deferred storage's record read into it (its size checked against the record's again).
    void fill(at::Storage storage) {   // a handle: its data is the tensors' too
        if (storage.data() != nullptr || storage.nbytes() == 0) return;
        const auto key = m_deferred.find(storage.unsafeGetStorageImpl());
        if (key == m_deferred.end()) corrupt(m_path, "a tensor's storage is not one of the file's records");
        auto [ptr, size] = read_record(m_reader, "data/" + key->second, m_path, m_file_size);
        if (size != storage.nbytes()) corrupt(m_path, "storage 'data/" + key->second + "' changed size while being read");
        storage.set_data_ptr_noswap(std::move(ptr));
    }

    // pid: ('storage', torch.<Type>Storage, key, location, numel) -> Storage value, a flat [numel] tensor
    ValuePtr operator()(const Value& pid) {
        const auto& it = pid.items;
        if (pid.kind != Kind::Tuple || it.size() != 5 || it[0]->kind != Kind::Str || it[0]->s != "storage" ||
            it[1]->kind != Kind::Global || it[2]->kind != Kind::Str || it[4]->kind != Kind::Int)
            corrupt(m_path, "malformed storage persistent id");
        const auto dtype = dtype_from_storage_name(it[1]->s.substr(it[1]->s.rfind('.') + 1));
        if (!dtype) corrupt(m_path, "storage type '" + it[1]->s + "' is not a tensor storage");
        const std::string& key = it[2]->s;
        const int64_t numel = it[4]->i;
        const at::Storage storage = record(key);
        const int64_t item = int64_t(c10::elementSize(*dtype));
        if (numel < 0 || uint64_t(numel) > storage.nbytes() / uint64_t(item))
            corrupt(m_path, "storage 'data/" + key + "' holds " + std::to_string(storage.nbytes()) +
                                " bytes, fewer than " + std::to_string(numel) + " elements of " + c10::toString(*dtype));
        auto v = std::make_shared<Value>();
        v->kind = Kind::Storage;
        v->tensor = at::empty({0}, at::TensorOptions().dtype(*dtype)).set_(storage, 0, {numel}, {1});
        return v;
    }

private:
    at::Storage record(const std::string& key) {
        auto found = m_cache.find(key);
        if (found != m_cache.end()) return found->second;
        const std::string name = "data/" + key;
        if (key.find('/') != std::string::npos || !m_reader.hasRecord(name))
            corrupt(m_path, "missing storage record '" + name + "'");
        at::Storage s;
        if (m_defer) {
            const uint64_t size = record_size(m_reader, name, m_path, m_file_size);
            s = at::Storage(at::Storage::use_byte_size_t(), size, at::DataPtr(nullptr, at::kCPU), nullptr, false);
            m_deferred.emplace(s.unsafeGetStorageImpl(), key);
        } else {
            auto [ptr, size] = read_record(m_reader, name, m_path, m_file_size);
            s = at::Storage(at::Storage::use_byte_size_t(), size, std::move(ptr), nullptr, false);
        }
        m_cache.emplace(key, s);
        return s;
    }

    caffe2::serialize::PyTorchStreamReader& m_reader;
    const std::string& m_path;
    uint64_t m_file_size;
    bool m_defer = false;
    std::map<std::string, at::Storage> m_cache;
    std::map<const c10::StorageImpl*, std::string> m_deferred;
};

// Walks the dict tree into dotted names. `budget` counts every node visited over the whole walk:
// the memo lets a pickle put one sub-dict under many keys at every level, so depth alone does not
// bound the work (32 levels of 2 shared children is 2^32 visits from a few hundred bytes).
void flatten(const Value& dict, const std::string& prefix, TensorMap& out, const std::string& path, int depth,
             int64_t& budget) {
    if (depth > limits::kMaxPickleDepth)
        corrupt(path, "dicts nested deeper than " + std::to_string(limits::kMaxPickleDepth) + " levels (a cycle?)");
    for (const auto& [k, v] : dict.dict) {
        if (--budget < 0)
            corrupt(path, "the pickle expands to more than " + std::to_string(limits::kMaxPickleNodes) +
                              " entries while flattening (dicts shared through the memo); not a plain state_dict");
        std::string key;
        if (k->kind == Kind::Str) key = k->s;
        else if (k->kind == Kind::Int) key = std::to_string(k->i);
        else continue;  // non-string keys cannot name a weight
        key = prefix + key;
        if (v->kind == Kind::Tensor) {
            if (out.size() >= size_t(limits::kMaxTensors))
                corrupt(path, "holds more than " + std::to_string(limits::kMaxTensors) + " tensors");
            out[key] = v->tensor;
        } else if (v->kind == Kind::Dict) {
            flatten(*v, key + ".", out, path, depth + 1, budget);
        }
        // other leaves (epoch counters, config values, lists) carry no weights
    }
}

}  // namespace

TensorMap load_pth(const std::string& path, const std::function<bool(const std::string&)>& keep) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw ReefError(ErrorCode::ModelNotFound, "checkpoint not found: '" + path + "'");
    try {
        const uint64_t file_size = std::filesystem::file_size(path);
        caffe2::serialize::PyTorchStreamReader reader(path);
        if (!reader.hasRecord("data.pkl")) corrupt(path, "torch zip without a data.pkl record");
        auto [pkl, pkl_size] = read_record(reader, "data.pkl", path, file_size);
        StorageLoader storages(reader, path, file_size, bool(keep));
        const ValuePtr root = pickle::unpickle(static_cast<const uint8_t*>(pkl.get()), pkl_size,
                                               [&](const Value& pid) { return storages(pid); }, path);
        struct Release {  // breaks memo cycles on every exit path
            ValuePtr v;
            ~Release() { pickle::release(v); }
        } release{root};
        if (root->kind != Kind::Dict)
            corrupt(path, std::string("the pickled object is a ") + pickle::kind_name(root->kind) + ", not a state_dict");
        TensorMap out;
        int64_t budget = limits::kMaxPickleNodes;
        flatten(*root, "", out, path, 0, budget);
        if (keep) {
            for (auto it = out.begin(); it != out.end();)
                it = keep(it->first) ? std::next(it) : out.erase(it);
            for (const auto& [name, t] : out) storages.fill(t.storage());
        }
        return out;
    } catch (const c10::Error& e) {
        // PyTorchStreamReader reports a truncated or non-zip file (including legacy pre-1.6 .pth) this way.
        const std::string msg = e.what_without_backtrace();
        corrupt(path, "not a readable torch zip checkpoint: " + msg.substr(0, msg.find('\n')));
    }
}

void save_pth(const std::string& path, const TensorMap& tensors) {
    std::vector<std::pair<std::string, at::Tensor>> flat;
    for (const auto& [name, t] : tensors) {
        REEF_CHECK(t.defined(), "undefined tensor '" + name + "' passed to save_pth");
        flat.emplace_back(name, t.to(at::kCPU).contiguous());
    }
    const std::string pkl = pickle::pickle_state_dict(flat);

    AtomicFileWriter out(path);
    try {
        // The writer_func form names the archive folder "archive", as torch.save does for buffers.
        caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t n) {
            out.write(data, n);
            return n;
        });
        writer.writeRecord("data.pkl", pkl.data(), pkl.size());
        writer.writeRecord("byteorder", "little", 6);
        for (size_t i = 0; i < flat.size(); ++i)
            writer.writeRecord("data/" + std::to_string(i), flat[i].second.data_ptr(), flat[i].second.nbytes());
        writer.writeEndOfFile();  // also writes the "version" record
    } catch (const c10::Error& e) {
        throw ReefError(ErrorCode::Io, "cannot write '" + path + "': " + e.what_without_backtrace());
    }
    out.commit();
}

}  // namespace reef
