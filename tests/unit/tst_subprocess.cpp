// run_child (the exporter's and the set-up's child processes) on real children started through
// /bin/sh, and child_failure's account of how each one failed: the tagged error line the exporter
// prints, else how the child ended and its last stderr line.
#include <string>
#include <vector>

#include "check.h"
#include "compiled/subprocess.h"

using namespace reef;

namespace {
ChildResult sh(const std::string& script, std::vector<std::string>* lines = nullptr) {
    return run_child({"/bin/sh", "-c", script}, {{"REEF_TST_VALUE", "from-env"}},
                     [&](const std::string& l) { if (lines) lines->push_back(l); }, {});
}
// got == want, both printed when they differ
bool text_is(const std::string& got, const std::string& want) {
    if (got != want) std::fprintf(stderr, "  got \"%s\", want \"%s\"\n", got.c_str(), want.c_str());
    return got == want;
}
}  // namespace

TEST_CASE(exit_status_and_last_stderr_line) {
    std::vector<std::string> lines;
    const ChildResult r = sh("echo one; echo \"$REEF_TST_VALUE\"; echo first >&2; echo 'last line' >&2; exit 3", &lines);
    CHECK_EQ(r.exit_code, 3);
    CHECK(!r.spawn_failed && !r.aborted);
    CHECK((lines == std::vector<std::string>{"one", "from-env"}));
    CHECK(text_is(child_failure(r), "exited with status 3: last line"));
}

TEST_CASE(the_exporters_tagged_error_wins) {
    const ChildResult r = sh("echo 'reef-export: error: torch 1.0.0 is not 2.13.0' >&2; echo 'Traceback' >&2; exit 3");
    CHECK(text_is(child_failure(r), "torch 1.0.0 is not 2.13.0"));
}

TEST_CASE(a_program_that_cannot_start) {
    const ChildResult r = run_child({"/nonexistent/python3", "-c", "pass"}, {}, {}, {});
    CHECK(r.spawn_failed);
    const std::string why = child_failure(r);
    CHECK(why.rfind("could not be started: /nonexistent/python3: ", 0) == 0);
    std::printf("  %s\n", why.c_str());
}

TEST_CASE(killed_and_silent_children) {
    CHECK(text_is(child_failure(sh("kill -9 $$")), "was killed"));
    CHECK(text_is(child_failure(sh("exit 4")), "exited with status 4"));
}

TEST_CASE(abort_stops_the_child) {
    int polls = 0;
    const ChildResult r = run_child({"/bin/sh", "-c", "sleep 30"}, {}, {}, [&] { return ++polls > 2; });
    CHECK(r.aborted);
    CHECK(r.exit_code != 0);
}

TEST_MAIN()
