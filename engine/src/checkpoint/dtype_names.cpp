#include "checkpoint/dtype_names.h"

#include <utility>

#include "check.h"

namespace reef {

namespace {

using c10::ScalarType;

// One table per format; lookups are linear, the tables are tiny.
constexpr std::pair<const char*, ScalarType> kSafetensors[] = {
    {"F64", ScalarType::Double}, {"F32", ScalarType::Float},  {"F16", ScalarType::Half},
    {"BF16", ScalarType::BFloat16}, {"I64", ScalarType::Long}, {"I32", ScalarType::Int},
    {"I16", ScalarType::Short},  {"I8", ScalarType::Char},    {"U8", ScalarType::Byte},
    {"BOOL", ScalarType::Bool},
};

constexpr std::pair<const char*, ScalarType> kStorages[] = {
    {"DoubleStorage", ScalarType::Double}, {"FloatStorage", ScalarType::Float},
    {"HalfStorage", ScalarType::Half},     {"BFloat16Storage", ScalarType::BFloat16},
    {"LongStorage", ScalarType::Long},     {"IntStorage", ScalarType::Int},
    {"ShortStorage", ScalarType::Short},   {"CharStorage", ScalarType::Char},
    {"ByteStorage", ScalarType::Byte},     {"BoolStorage", ScalarType::Bool},
};

template <size_t N>
std::optional<ScalarType> find_type(const std::pair<const char*, ScalarType> (&table)[N], const std::string& name) {
    for (const auto& [n, t] : table)
        if (name == n) return t;
    return std::nullopt;
}

template <size_t N>
std::string find_name(const std::pair<const char*, ScalarType> (&table)[N], ScalarType type, const char* format) {
    for (const auto& [n, t] : table)
        if (t == type) return n;
    throw ReefError(ErrorCode::InvalidArgument,
                    std::string(format) + " cannot store dtype " + c10::toString(type));
}

}  // namespace

std::optional<ScalarType> dtype_from_safetensors(const std::string& name) { return find_type(kSafetensors, name); }
std::string dtype_to_safetensors(ScalarType type) { return find_name(kSafetensors, type, "safetensors"); }
std::optional<ScalarType> dtype_from_storage_name(const std::string& name) { return find_type(kStorages, name); }
std::string dtype_to_storage_name(ScalarType type) { return find_name(kStorages, type, "a .pth storage"); }

}  // namespace reef
