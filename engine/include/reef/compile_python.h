// The Python that compiles the decode step for compile mode aot-inductor (torch.export +
// AOTInductor run in Python with the torch this libtorch is), and its one-step set-up: a private
// venv with the matching torch, for installs that have no such Python. No torch, no Qt.
#pragma once
#include <functional>
#include <string>

#include "reef/result.h"

namespace reef {

struct CompilePythonInfo {
    std::string python;         // the interpreter a compile would start
    std::string source;         // "REEF_PYTHON", "private venv", "build venv" or "none"
    std::string venv_dir;       // where `reef-cli compile --setup` puts the private venv
    std::string torch_version;  // the torch it needs: this libtorch's version
    bool ready = false;         // found (files only: nothing is started to ask)
    std::string reason;         // when not ready: what is missing and the one step that fixes it
};

// Which Python a compile would use, in this order: $REEF_PYTHON (trusted as given), the private
// venv set up earlier, the venv this build's libtorch came from (a build tree), else none.
CompilePythonInfo compile_python_info();

// Creates the private venv (python3 -m venv, then pip install torch==<libtorch's version>, then
// the exporter's own check that the torch matches) in a temporary folder renamed into place, so
// an interrupted set-up leaves nothing half-made. progress gets pip's lines; should_abort stops
// it (Cancelled). Extra pip arguments (an index, a proxy) come from $REEF_SETUP_PIP_ARGS.
Status setup_compile_python(const std::function<void(const std::string&)>& progress = {},
                            const std::function<bool()>& should_abort = {});

}  // namespace reef
