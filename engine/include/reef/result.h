// Errors are values at the engine facade (docs/architecture.md, rule 3): nothing throws past engine.h.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace reef {

enum class ErrorCode {
    InvalidArgument,   // bad request: empty or huge text, bad sampling values
    ModelNotFound,     // missing folder or file
    CorruptModel,      // unreadable / truncated / malformed weights or config
    ShapeMismatch,     // weights present but with the wrong shapes, or missing keys
    UnsupportedDevice, // cuda asked on a CPU build, precision the device cannot run
    BackendUnavailable,// a forced SDPA backend or compile mode cannot run here
    NotLoaded,         // request before a model was loaded
    Cancelled,         // the caller's should_abort returned true
    Io,                // a file could not be read or written
    InsufficientMemory,// the model or the KV cache a request needs does not fit in the memory available
    Internal,          // a bug: an invariant failed
};

const char* error_code_name(ErrorCode code);

struct EngineError {
    ErrorCode code = ErrorCode::Internal;
    std::string message;  // specific: names the file, key, shape, backend or call site
    std::string hint;     // what the user can do about it; may be empty
    std::string to_string() const;
};

// A minimal expected<T, EngineError> (std::expected is C++23).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(EngineError error) : m_v(std::move(error)) {}
    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_v); }
    const T& value() const { return std::get<0>(m_v); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    const EngineError& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, EngineError> m_v;
};

struct Ok {};
using Status = Result<Ok>;

}  // namespace reef
