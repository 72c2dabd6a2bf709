// Name -> tensor maps: what every checkpoint reader returns and every verifier checks.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace reef {

using TensorMap = std::map<std::string, at::Tensor>;
// Expected key -> shape, produced by each model from its config; verified strictly at load.
using ExpectedShapes = std::map<std::string, std::vector<int64_t>>;

}  // namespace reef
