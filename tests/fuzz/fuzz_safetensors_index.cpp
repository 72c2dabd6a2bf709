// model.safetensors.index.json: the weight_map, shard-name confinement and the per-shard key
// checks, through load_safetensors_index. The scratch folder holds two real shards (written once,
// before the first input) with the names the committed seeds use, so inputs can reach the shard
// loading and key matching, not only the JSON parse.
#include <ATen/ATen.h>

#include "checkpoint/safetensors.h"
#include "fuzz_common.h"

namespace {

std::string index_path() {
    static const std::string path = [] {
        const std::string dir = (reef::fuzz::scratch_dir() / "sharded").string();
        std::filesystem::create_directories(dir);
        // Two shards with fixed contents; make_seeds.py writes index seeds naming these keys.
        reef::TensorMap a, b;
        a["embed.weight"] = at::arange(12, at::kFloat).reshape({3, 4});
        a["layers.0.attn.wqkv.weight"] = at::arange(24, at::kHalf).reshape({6, 4});
        b["layers.0.norm.weight"] = at::ones({4}, at::kBFloat16);
        b["output.bias"] = at::zeros({3}, at::kFloat);
        reef::save_safetensors(dir + "/model-00001-of-00002.safetensors", a);
        reef::save_safetensors(dir + "/model-00002-of-00002.safetensors", b);
        return dir + "/model.safetensors.index.json";
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = index_path();
    const std::filesystem::path p(path);
    reef::fuzz::write_scratch("sharded/" + p.filename().string(), data, size);
    reef::fuzz::expect_clean([&] { (void)reef::load_safetensors_index(path); });
    return 0;
}
