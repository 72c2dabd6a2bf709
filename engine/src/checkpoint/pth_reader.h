// The torch zip checkpoint format (.pth, torch.save since 1.6) without libtorch's unpickler:
// libtorch's pickle_load turns collections.OrderedDict into None, so we ship a restricted
// unpickler that accepts only containers, strings, numbers and tensors rebuilt from storages,
// and refuses every other global with a clear error (never arbitrary code).
#pragma once
#include <functional>
#include <string>

#include "checkpoint/tensor_map.h"

namespace reef {

// Nested dicts are flattened with '.' (a {"state_dict": {...}} wrapper yields "state_dict.<key>").
// Non-tensor leaves are ignored. Throws ReefError(CorruptModel) naming the file and the problem.
// With `keep`, only the tensors whose flattened names it accepts: the storages of the others are
// never read (the pickle is walked first, then only the records kept tensors use are read).
TensorMap load_pth(const std::string& path, const std::function<bool(const std::string&)>& keep = {});
// Writes an OrderedDict of tensors in the format torch.load(weights_only=True) reads; atomic.
void save_pth(const std::string& path, const TensorMap& tensors);

}  // namespace reef
