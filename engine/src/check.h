// Internal error handling of the engine. Inside engine/src code throws ReefError (or libtorch throws
// c10::Error); the facade (engine.cpp) turns both into EngineError values.
#pragma once
#include <stdexcept>
#include <string>

#include "reef/result.h"

namespace reef {

class ReefError : public std::runtime_error {
public:
    ReefError(ErrorCode code, std::string message, std::string hint = {})
        : std::runtime_error(message), m_error{code, std::move(message), std::move(hint)} {}
    const EngineError& error() const { return m_error; }

private:
    EngineError m_error;
};

[[noreturn]] void fail_check(const char* cond, const char* file, int line, const std::string& msg);

}  // namespace reef

// Programmer invariants: reports file and line; surfaces as ErrorCode::Internal.
#define REEF_CHECK(cond, msg)                                          \
    do {                                                               \
        if (!(cond)) ::reef::fail_check(#cond, __FILE__, __LINE__, (msg)); \
    } while (0)
