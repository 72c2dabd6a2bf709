// Strict verification: every expected tensor present with its expected shape.
#pragma once
#include <string>

#include "checkpoint/tensor_map.h"

namespace reef {

// Throws ReefError(ShapeMismatch) listing (up to a limit) every missing key and every shape
// mismatch, e.g. "codec.pth: 2 missing, 1 with the wrong shape: missing decoder.model.0.conv.weight; ...".
// Unexpected extra keys are not an error (fish-speech drops some), but are counted in the message
// when verification fails.
void verify_state_dict(const TensorMap& tensors, const ExpectedShapes& expected, const std::string& what);

// Bytes the expected tensors take in `dtype` (saturating): what loading them will allocate.
uint64_t expected_bytes(const ExpectedShapes& expected, at::ScalarType dtype);

// Deterministic random weights for demo models: "*norm*.weight"/"*gamma*"-like scales = 1,
// biases = 0, other tensors ~ N(0, 1/fan_in) (fan_in = product of all dims but the first).
TensorMap make_random_weights(const ExpectedShapes& shapes, uint64_t seed);

}  // namespace reef
