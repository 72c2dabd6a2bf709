// Shared pieces of the libFuzzer harnesses: a scratch file for parsers that take a path, and the
// rule every harness enforces. A parser may refuse an input only with ReefError (or AudioError in
// reef_audio) carrying a real error code; anything else that leaves it is a finding, so it aborts:
// an Internal error (a REEF_CHECK failed on input the code did not validate), a c10::Error, a
// nlohmann::json exception or std::bad_alloc (the facade would turn those into an "Internal"
// message instead of naming the file and the problem).
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "check.h"

namespace reef::fuzz {

// A per-process folder in /dev/shm (tmpfs, so the write per input costs no disk I/O) or $TMPDIR.
inline const std::filesystem::path& scratch_dir() {
    static const std::filesystem::path dir = [] {
        std::filesystem::path base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
        std::filesystem::path d = base / ("reef-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] { std::error_code ec; std::filesystem::remove_all(scratch_dir(), ec); });
        return d;
    }();
    return dir;
}

// Writes the fuzzer's bytes to scratch_dir()/name (replacing it) and returns the path.
inline std::string write_scratch(const std::string& name, const uint8_t* data, size_t size) {
    const std::filesystem::path p = scratch_dir() / name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    if (!out) {
        std::fprintf(stderr, "fuzz harness: cannot write %s\n", p.c_str());
        std::abort();
    }
    return p.string();
}

[[noreturn]] inline void finding(const char* what, const std::string& message) {
    std::fprintf(stderr, "\n*** fuzz finding: %s: %s\n", what, message.c_str());
    std::abort();
}

// Runs f; a ReefError with a non-Internal code is an accepted refusal, everything else aborts.
template <class F>
void expect_clean(F&& f) {
    try {
        f();
    } catch (const ReefError& e) {
        if (e.error().code == ErrorCode::Internal) finding("Internal error (failed invariant)", e.what());
    } catch (const std::bad_alloc&) {
        finding("std::bad_alloc", "an input made the parser allocate more than it can");
    } catch (const std::exception& e) {
        finding("an exception other than ReefError", e.what());
    }
}

}  // namespace reef::fuzz
