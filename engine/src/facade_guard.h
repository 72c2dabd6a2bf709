// Turns everything thrown inside the engine into an EngineError value (design.md §2 rule 3).
#pragma once
#include <c10/util/Exception.h>

#include <exception>
#include <new>
#include <string>

#include "check.h"

namespace reef {

template <class F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ReefError& e) {
        return e.error();
    } catch (const c10::Error& e) {
        return EngineError{ErrorCode::Internal, std::string(what) + ": libtorch: " + e.what_without_backtrace(), {}};
    } catch (const std::bad_alloc&) {
        return EngineError{ErrorCode::Internal, std::string(what) + ": out of memory",
                           "use a smaller model, a lower precision or fewer max new frames"};
    } catch (const std::exception& e) {
        return EngineError{ErrorCode::Internal, std::string(what) + ": " + e.what(), {}};
    }
}

}  // namespace reef
