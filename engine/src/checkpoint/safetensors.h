// safetensors read (memory-mapped) and write (atomic), single file and sharded via the index.
#pragma once
#include <map>
#include <string>

#include "checkpoint/tensor_map.h"

namespace reef {

// Where the tensors of a file end up: views of the mapping (kept alive by the tensors), or, for
// CPU models, each tensor of at least kWeightMemoryMinBytes copied into weight memory
// (base/weight_memory.h: aligned, huge pages) with the file's pages dropped, and the smaller ones
// copied to the heap, so nothing keeps the mapping once the load returns. A model bound for a GPU
// reads the mapping: a host copy there would only be one more copy before the transfer.
enum class TensorHome { Mapping, WeightMemory };

// Throws ReefError(ModelNotFound / CorruptModel) naming the file and what is wrong with it.
TensorMap load_safetensors(const std::string& path, TensorHome home = TensorHome::WeightMemory);
// Reads model.safetensors.index.json, loads every shard of its weight_map.
TensorMap load_safetensors_index(const std::string& index_json_path, TensorHome home = TensorHome::WeightMemory);
// Writes to path + ".part", then renames. metadata goes into "__metadata__".
void save_safetensors(const std::string& path, const TensorMap& tensors,
                      const std::map<std::string, std::string>& metadata = {});
// Splits tensors over n shards named model-0000i-of-0000n.safetensors plus the index file.
void save_safetensors_sharded(const std::string& dir, const TensorMap& tensors, int n_shards);

}  // namespace reef
