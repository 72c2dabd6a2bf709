// Helpers shared by the checkpoint tests: expect a ReefError of a given code whose message names
// something, and write raw bytes.
#pragma once
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <ATen/ATen.h>

#include "check.h"                // tests/common: TEST_CASE, CHECK (found first on the path)
#include "checkpoint/../check.h"  // engine/src/check.h: ReefError

namespace ckpt_test {

inline std::string code_name(reef::ErrorCode c) { return std::to_string(int(c)); }

template <class F>
void expect_error(F&& fn, reef::ErrorCode code, const std::string& needle, const char* file, int line) {
    try {
        fn();
    } catch (const reef::ReefError& e) {
        const bool ok = e.error().code == code && std::string(e.what()).find(needle) != std::string::npos;
        ::reef_test::report(ok, "expected ReefError", file, line,
                            "(code " + code_name(e.error().code) + " want " + code_name(code) + ", message '" +
                                e.what() + "' should contain '" + needle + "')");
        return;
    } catch (const std::exception& e) {
        ::reef_test::report(false, "expected ReefError", file, line, std::string("(other exception: ") + e.what() + ")");
        return;
    }
    ::reef_test::report(false, "expected ReefError", file, line, "(nothing thrown; wanted '" + needle + "')");
}

inline void write_bytes(const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

inline std::string read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline bool same(const at::Tensor& a, const at::Tensor& b) {
    return a.scalar_type() == b.scalar_type() && a.sizes() == b.sizes() && at::equal(a, b);
}

}  // namespace ckpt_test

#define EXPECT_REEF_ERROR(expr, code, needle) \
    ::ckpt_test::expect_error([&] { (void)(expr); }, (code), (needle), __FILE__, __LINE__)
