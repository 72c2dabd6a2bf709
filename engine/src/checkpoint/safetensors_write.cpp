// safetensors writer (single file and HF-style shards + index), atomic via AtomicFileWriter.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "check.h"
#include "checkpoint/atomic_file.h"
#include "checkpoint/dtype_names.h"
#include "checkpoint/safetensors.h"

namespace reef {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

at::Tensor host_contiguous(const at::Tensor& t) { return t.to(at::kCPU).contiguous(); }

std::string shard_name(int i, int n) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "model-%05d-of-%05d.safetensors", i, n);
    return buf;
}

}  // namespace

void save_safetensors(const std::string& path, const TensorMap& tensors,
                      const std::map<std::string, std::string>& metadata) {
    json header = json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::vector<at::Tensor> data;  // in TensorMap (= name) order, matching the offsets
    uint64_t offset = 0;
    for (const auto& [name, t] : tensors) {
        REEF_CHECK(name != "__metadata__", "a tensor cannot be named __metadata__");
        REEF_CHECK(t.defined(), "undefined tensor '" + name + "' passed to save_safetensors");
        at::Tensor c = host_contiguous(t);
        const uint64_t nbytes = c.nbytes();
        header[name] = {{"dtype", dtype_to_safetensors(c.scalar_type())},
                        {"shape", c.sizes().vec()},
                        {"data_offsets", {offset, offset + nbytes}}};
        offset += nbytes;
        data.push_back(std::move(c));
    }
    std::string text = header.dump();
    // Pad with spaces so the data buffer starts 8-byte aligned (the reference writer does the same).
    text.append((8 - (8 + text.size()) % 8) % 8, ' ');
    uint8_t len_le[8];
    for (int i = 0; i < 8; ++i) len_le[i] = uint8_t(uint64_t(text.size()) >> (8 * i));

    AtomicFileWriter out(path);
    out.write(len_le, 8);
    out.write(text.data(), text.size());
    for (const at::Tensor& c : data) out.write(c.data_ptr(), c.nbytes());
    out.commit();
}

void save_safetensors_sharded(const std::string& dir, const TensorMap& tensors, int n_shards) {
    REEF_CHECK(n_shards >= 1, "save_safetensors_sharded needs at least one shard");
    fs::create_directories(dir);
    uint64_t total = 0;
    for (const auto& [name, t] : tensors) total += t.nbytes();

    // Fill shards in name order, moving to the next shard once this one holds its share of the bytes.
    std::vector<TensorMap> shards(static_cast<size_t>(n_shards));
    json weight_map = json::object();
    uint64_t so_far = 0;
    size_t shard = 0;
    for (const auto& [name, t] : tensors) {
        const uint64_t bound = total * (shard + 1) / uint64_t(n_shards);
        if (so_far >= bound && !shards[shard].empty() && shard + 1 < shards.size()) ++shard;
        shards[shard][name] = t;
        weight_map[name] = shard_name(int(shard) + 1, n_shards);
        so_far += t.nbytes();
    }
    for (int i = 0; i < n_shards; ++i)
        save_safetensors((fs::path(dir) / shard_name(i + 1, n_shards)).string(), shards[size_t(i)], {{"format", "pt"}});

    const json index = {{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}};
    const std::string text = index.dump(2) + "\n";
    AtomicFileWriter out((fs::path(dir) / "model.safetensors.index.json").string());
    out.write(text.data(), text.size());
    out.commit();
}

}  // namespace reef
