// The pickle side of save_pth: an OrderedDict of tensors exactly as torch.save lays it out
// (protocol 2, _rebuild_tensor_v2 over persistent-id storages), which torch.load(weights_only=True)
// and our own unpickler both accept.
#pragma once
#include <string>
#include <vector>

#include "checkpoint/tensor_map.h"

namespace reef::pickle {

// tensors must be contiguous CPU tensors; tensor i (in map order) refers to storage record "data/<i>".
std::string pickle_state_dict(const std::vector<std::pair<std::string, at::Tensor>>& tensors);

}  // namespace reef::pickle
