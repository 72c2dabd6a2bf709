// Runs a helper program (the AOTInductor exporter) as a child process: its output lines reach a
// callback as they come, and an abort check stops it — the whole process group, since the
// exporter starts compilers of its own. No Qt, no torch.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace reef {

struct ChildResult {
    int exit_code = -1;         // the program's exit status; -1 when it did not exit normally
    bool aborted = false;       // should_abort fired and the child was killed
    bool spawn_failed = false;  // the program could not be started (not found, not executable)
    std::string stderr_tail;    // the last few KB of its stderr
};

// argv[0] is the program (searched in PATH when it has no '/'). env entries are added to (or
// replace those of) this process's environment. on_line gets each stdout line without the
// newline; should_abort is polled about every 100 ms.
ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      const std::function<void(const std::string&)>& on_line,
                      const std::function<bool()>& should_abort);

// Why a child failed, for an error message: the error line it printed itself when it tagged one
// "reef-export: error: " (the exporter's), else how it ended and the last line of its stderr:
// "could not be started: python9: No such file or directory", "exited with status 1: <line>",
// "was killed".
std::string child_failure(const ChildResult& r);

}  // namespace reef
