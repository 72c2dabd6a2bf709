// The exporter's Python: which one a compile starts, and `reef-cli compile --setup`'s private venv.
#include "reef/compile_python.h"

#include <torch/version.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "check.h"
#include "compiled/exporter_paths.h"
#include "compiled/package_cache.h"
#include "compiled/subprocess.h"

namespace reef {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

fs::path self_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

// The marker a finished set-up leaves in the venv: the torch version it installed and checked.
constexpr const char* kMarker = "reef-torch-version";

// $REEF_COMPILE_VENV, else $XDG_DATA_HOME/reef/python-torch<version>, else
// ~/.local/share/reef/python-torch<version>: one venv per libtorch version, so two Reefs built on
// different libtorch versions keep theirs apart.
fs::path private_venv_dir() {
    if (std::string d = env("REEF_COMPILE_VENV"); !d.empty()) return d;
    const std::string name = std::string("python-torch") + TORCH_VERSION;
    if (std::string x = env("XDG_DATA_HOME"); !x.empty()) return fs::path(x) / "reef" / name;
    if (std::string h = home_folder(); !h.empty()) return fs::path(h) / ".local" / "share" / "reef" / name;
    return {};
}

bool venv_ready(const fs::path& dir) {
    std::ifstream in(dir / kMarker);
    std::string version;
    return in >> version && version == TORCH_VERSION && fs::exists(dir / "bin" / "python");
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

}  // namespace

std::string exporter_path() {
    if (std::string e = env("REEF_AOTI_EXPORTER"); !e.empty()) return e;
    const fs::path installed = self_dir() / ".." / "share" / "reef" / "python" / "reef_aoti_export.py";
    if (fs::exists(installed)) return installed.lexically_normal().string();
#ifdef REEF_SOURCE_EXPORTER
    return REEF_SOURCE_EXPORTER;
#else
    return installed.string();
#endif
}

CompilePythonInfo compile_python_info() {
    CompilePythonInfo info;
    info.torch_version = TORCH_VERSION;
    const fs::path venv = private_venv_dir();
    info.venv_dir = venv.string();
    if (std::string p = env("REEF_PYTHON"); !p.empty()) {
        info.python = p;
        info.source = "REEF_PYTHON";
        info.ready = true;   // the user's choice; the exporter checks its torch before any work
        return info;
    }
    if (!venv.empty() && venv_ready(venv)) {
        info.python = (venv / "bin" / "python").string();
        info.source = "private venv";
        info.ready = true;
        return info;
    }
#ifdef REEF_DEFAULT_PYTHON
    if (fs::exists(REEF_DEFAULT_PYTHON)) {
        info.python = REEF_DEFAULT_PYTHON;
        info.source = "build venv";
        info.ready = true;
        return info;
    }
#endif
    info.python = "python3";
    info.source = "none";
    info.reason = std::string("needs a Python with torch ") + TORCH_VERSION +
                  " to compile the decode step: run `reef-cli compile --setup` (or Settings > Set up) once, "
                  "or set REEF_PYTHON to such a Python";
    return info;
}

std::string exporter_python() { return compile_python_info().python; }

Status setup_compile_python(const std::function<void(const std::string&)>& progress,
                            const std::function<bool()>& should_abort) {
    try {
        auto say = [&](const std::string& s) {
            if (progress) progress(s);
        };
        const fs::path dir = private_venv_dir();
        if (dir.empty())
            throw ReefError(ErrorCode::Io, "this account has no home folder for the compile venv",
                            "set REEF_COMPILE_VENV to a folder of your own");
        if (venv_ready(dir)) {
            say("already set up: " + (dir / "bin" / "python").string() + " (torch " + TORCH_VERSION + ")");
            return Ok{};
        }
        std::error_code ec;
        fs::create_directories(dir.parent_path(), ec);
        const fs::path tmp = dir.string() + ".tmp-" + std::to_string(getpid());
        fs::remove_all(tmp, ec);
        struct Cleanup {
            fs::path p;
            ~Cleanup() {
                std::error_code e;
                if (!p.empty()) fs::remove_all(p, e);
            }
        } cleanup{tmp};
        auto run = [&](const std::vector<std::string>& argv, const std::string& what, const std::string& hint) {
            const ChildResult r = run_child(argv, {{"PIP_DISABLE_PIP_VERSION_CHECK", "1"}}, say, should_abort);
            if (r.aborted) throw ReefError(ErrorCode::Cancelled, "the compile venv set-up was cancelled; nothing was kept");
            if (r.spawn_failed || r.exit_code != 0)
                throw ReefError(ErrorCode::BackendUnavailable, what + " " + child_failure(r), hint);
        };
        const std::string base = env("REEF_SETUP_PYTHON").empty() ? "python3" : env("REEF_SETUP_PYTHON");
        say("creating a venv in " + dir.string() + " with " + base);
        run({base, "-m", "venv", tmp.string()}, "`" + base + " -m venv`",
            "install Python 3 with venv (Debian: apt install python3-venv), or set REEF_SETUP_PYTHON");
        const std::string python = (tmp / "bin" / "python").string();
        std::vector<std::string> pip{python, "-m", "pip", "install", "--progress-bar", "off"};
        for (const std::string& w : split_words(env("REEF_SETUP_PIP_ARGS"))) pip.push_back(w);
        pip.push_back(std::string("torch==") + TORCH_VERSION);
        say(std::string("installing torch ") + TORCH_VERSION + " (the version of this libtorch; hundreds of MB)");
        run(pip, std::string("pip install torch==") + TORCH_VERSION,
            "check the network (PyPI), the disk space, or give pip an index with REEF_SETUP_PIP_ARGS");
        say("checking it with the exporter");
        run({python, exporter_path(), "--check-torch", TORCH_VERSION}, "the installed torch",
            "remove " + tmp.string() + " and run the set-up again");
        std::ofstream(tmp / kMarker) << TORCH_VERSION << "\n";
        // a broken venv left by an older, interrupted Reef is replaced; a finished one was returned above
        fs::remove_all(dir, ec);
        fs::rename(tmp, dir, ec);
        if (ec)
            throw ReefError(ErrorCode::Io, "cannot move the compile venv into " + dir.string() + ": " + ec.message());
        cleanup.p.clear();
        say("ready: " + (dir / "bin" / "python").string());
        return Ok{};
    } catch (const ReefError& e) {
        return e.error();
    } catch (const std::exception& e) {
        return EngineError{ErrorCode::Internal, std::string("compile venv set-up: ") + e.what(), {}};
    }
}

}  // namespace reef
