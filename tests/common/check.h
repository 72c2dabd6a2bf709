// A small check header for the non-Qt tests (llama.cpp tests/test-sampling.cpp style): each CHECK
// prints file:line and the values on failure and the test exits non-zero at the end.
#pragma once
#undef NDEBUG
// Tests and engine/src both have a "check.h"; whichever one an include finds, a test that can see the
// engine also gets the engine's ReefError / REEF_CHECK, so the two never shadow each other.
#if __has_include("reef/result.h")
#include "../../engine/src/check.h"
#endif
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace reef_test {

inline int& failures() {
    static int n = 0;
    return n;
}

// A case that cannot run here says why and is counted as skipped, not passed; a binary whose
// cases all skipped exits 77, which CTest reports as skipped.
inline std::string& skip_reason() {
    static std::string r;
    return r;
}
inline void skip(const std::string& why) { skip_reason() = why; }

inline void report(bool ok, const char* expr, const char* file, int line, const std::string& detail = {}) {
    if (ok) return;
    ++failures();
    std::fprintf(stderr, "FAIL %s:%d: %s %s\n", file, line, expr, detail.c_str());
}

struct Case {
    const char* name;
    std::function<void()> fn;
};
inline std::vector<Case>& cases() {
    static std::vector<Case> c;
    return c;
}
struct Register {
    Register(const char* name, std::function<void()> fn) { cases().push_back({name, std::move(fn)}); }
};

// A fresh temp folder for one test case under $REEF_TEST_TMP (set by CTest).
inline std::filesystem::path temp_dir(const std::string& name) {
    const char* base = std::getenv("REEF_TEST_TMP");
    std::filesystem::path p = std::filesystem::path(base ? base : "/tmp") / name;
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

// argv[1], when given, picks the cases: "a,b" runs those, "-a,b" all but those (so that one binary
// can be split over several ctest entries that run in parallel, and a new case is never in none).
inline int run_all(int argc, char** argv) {
    std::string pick = argc > 1 ? argv[1] : "";
    const bool exclude = !pick.empty() && pick[0] == '-';
    if (exclude) pick.erase(0, 1);
    std::vector<std::string> names;
    for (size_t b = 0; !pick.empty() && b <= pick.size();) {
        const size_t e = std::min(pick.find(',', b), pick.size());
        names.push_back(pick.substr(b, e - b));
        b = e + 1;
    }
    for (const std::string& n : names) {
        bool known = false;
        for (const auto& c : cases()) known = known || n == c.name;
        if (!known) {
            std::fprintf(stderr, "no test case named %s\n", n.c_str());
            return 1;
        }
    }
    int ran = 0, failed = 0, skipped = 0;
    for (const auto& c : cases()) {
        const bool listed = std::find(names.begin(), names.end(), std::string(c.name)) != names.end();
        if (!names.empty() && listed == exclude) continue;
        const int before = failures();
        skip_reason().clear();
        std::printf("[ RUN  ] %s\n", c.name);
        std::fflush(stdout);
        const auto t0 = std::chrono::steady_clock::now();
        try {
            c.fn();
        } catch (const std::exception& e) {
            ++failures();
            std::fprintf(stderr, "FAIL %s: uncaught exception: %s\n", c.name, e.what());
        }
        const bool ok = failures() == before;
        if (ok && !skip_reason().empty()) {
            ++skipped;
            std::printf("[ SKIP ] %s: %s\n", c.name, skip_reason().c_str());
            continue;
        }
        ++ran;
        failed += ok ? 0 : 1;
        // each case's time, so a slow suite shows which case to look at (CI's time is a budget)
        std::printf("[ %s ] %s (%.1f s)\n", ok ? " OK " : "FAIL", c.name,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%d passed, %d failed, %d skipped\n", ran - failed, failed, skipped);
    if (failed) return 1;
    return ran == 0 && skipped > 0 ? 77 : 0;
}

}  // namespace reef_test

#define TEST_CASE(name)                                                       \
    static void name();                                                       \
    static ::reef_test::Register reg_##name(#name, name);                     \
    static void name()
// glog-style CHECK may come in through the torch headers; the test one wins, on purpose.
#undef CHECK
#undef CHECK_EQ
#define CHECK(cond) ::reef_test::report(bool(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b)                                                                                  \
    ::reef_test::report((a) == (b), #a " == " #b, __FILE__, __LINE__,                                   \
                        "(" + std::to_string(a) + " vs " + std::to_string(b) + ")")
#define CHECK_NEAR(a, b, tol)                                                                           \
    ::reef_test::report(std::fabs(double(a) - double(b)) <= (tol), #a " ~= " #b, __FILE__, __LINE__,    \
                        "(" + std::to_string(double(a)) + " vs " + std::to_string(double(b)) + ")")
#define CHECK_THROWS(expr)                                                                              \
    do {                                                                                                \
        bool threw_ = false;                                                                            \
        try { expr; } catch (...) { threw_ = true; }                                                    \
        ::reef_test::report(threw_, "throws: " #expr, __FILE__, __LINE__);                              \
    } while (0)
#define TEST_MAIN() \
    int main(int argc, char** argv) { return ::reef_test::run_all(argc, argv); }
