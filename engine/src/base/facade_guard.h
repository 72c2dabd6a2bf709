// Turns everything thrown inside the engine into an EngineError value (docs/architecture.md, rule 3).
#pragma once
#include <c10/util/Exception.h>

#include <exception>
#include <new>
#include <string>

#include "check.h"

namespace reef {

// An allocation that failed while running is the machine's limit, not a bug: the same code as the
// check before loading (InsufficientMemory), so the user gets the same advice, and the engine stays
// usable (nothing it keeps between requests is left half-built; kv_cache.cpp). libtorch's CPU
// allocator reports it as a plain c10::Error ("DefaultCPUAllocator: can't allocate memory: you
// tried to allocate N bytes", from an enforce), CUDA as c10::OutOfMemoryError.
inline bool is_allocation_failure(const c10::Error& e) {
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e)) return true;
    const std::string m = e.what_without_backtrace();
    return m.find("DefaultCPUAllocator: can't allocate memory") != std::string::npos ||
           m.find("DefaultCPUAllocator: not enough memory") != std::string::npos;
}

inline EngineError out_of_memory_error(const char* what, const std::string& detail) {
    return EngineError{ErrorCode::InsufficientMemory, std::string(what) + ": out of memory" + detail,
                       "close other programs, use a smaller model, a lower precision or fewer max new frames; "
                       "the loaded model is still usable"};
}

template <class F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ReefError& e) {
        return e.error();
    } catch (const c10::Error& e) {
        if (is_allocation_failure(e)) {
            // From the allocator's own words on: "[enforce fail at alloc_cpu.cpp:N] err == 0." goes.
            const std::string m = e.what_without_backtrace();
            const size_t from = m.find("DefaultCPUAllocator");
            return out_of_memory_error(what, ": " + m.substr(from == std::string::npos ? 0 : from));
        }
        return EngineError{ErrorCode::Internal, std::string(what) + ": libtorch: " + e.what_without_backtrace(), {}};
    } catch (const std::bad_alloc&) {
        return out_of_memory_error(what, " (std::bad_alloc)");
    } catch (const std::exception& e) {
        return EngineError{ErrorCode::Internal, std::string(what) + ": " + e.what(), {}};
    }
}

}  // namespace reef
