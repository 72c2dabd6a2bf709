// The dtype vocabularies of the checkpoint formats: safetensors names ("F32", "BF16", ...) and
// torch's legacy storage class names ("FloatStorage", "BFloat16Storage", ...).
#pragma once
#include <c10/core/ScalarType.h>

#include <optional>
#include <string>

namespace reef {

std::optional<c10::ScalarType> dtype_from_safetensors(const std::string& name);
// Throws ReefError(InvalidArgument) for a dtype safetensors cannot hold.
std::string dtype_to_safetensors(c10::ScalarType type);

// "FloatStorage" -> Float; nullopt for any other name.
std::optional<c10::ScalarType> dtype_from_storage_name(const std::string& name);
// Float -> "FloatStorage"; throws ReefError(InvalidArgument) for dtypes without a storage class.
std::string dtype_to_storage_name(c10::ScalarType type);

}  // namespace reef
