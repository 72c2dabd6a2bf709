// reef-cli compile: compile mode aot-inductor ahead of time — the decode-step package for a model
// and its engine flags (SDPA policy, KV mode, precision, device), compiled or found in the cache.
// reef-cli compile --setup: the one step that gives an installed Reef the Python it compiles with
// (a private venv with the matching torch); --status says which Python a compile would use.
#include <iostream>

#include "cli_common.h"
#include "cli_engine.h"
#include "reef/compile_python.h"

namespace reef::cli {

void register_compile(CLI::App& app) {
    auto flags = std::make_shared<EngineFlags>();
    auto* cmd = app.add_subcommand("compile",
                                   "compile the decode step with AOTInductor (compile mode aot-inductor) and cache it");
    flags->add_to(cmd, /*model_required=*/false);
    auto setup = std::make_shared<bool>(false);
    auto status = std::make_shared<bool>(false);
    cmd->add_flag("--setup", *setup,
                  "create the private venv with the torch this libtorch is (pip install, hundreds of MB), "
                  "which compile mode aot-inductor then uses; nothing else is needed");
    cmd->add_flag("--status", *status, "say which Python a compile would use, or what is missing");
    cmd->callback([flags, setup, status] {
        install_interrupt_handler();
        if (*setup || *status) {
            if (*setup) {
                const Status s = setup_compile_python([](const std::string& line) { std::cerr << line << "\n"; },
                                                      [] { return interrupted(); });
                if (!s) fail(s.error());
            }
            const CompilePythonInfo py = compile_python_info();
            std::cout << "torch needed: " << py.torch_version << "\n";
            std::cout << "private venv: " << py.venv_dir << "\n";
            if (!py.ready) {
                std::cout << "not ready: " << py.reason << "\n";
                throw CLI::RuntimeError(1);
            }
            std::cout << "python: " << py.python << " (" << py.source << ")\n";
            return;
        }
        if (flags->model_dir.empty()) fail("give --model DIR (or --setup / --status)");
        Engine engine;
        EngineConfig config = flags->to_config();
        config.compile_mode = CompileMode::AotInductor;
        // no --sdpa: the compiled mode's default (auto), not the eager CPU one (reef cannot be compiled in)
        if (flags->sdpa.empty()) config.sdpa_policy = default_sdpa_policy(config.device, config.compile_mode);
        config.load_codec = false;
        refuse_unrunnable(config);   // no Python to compile with: the one-step fix, before the model loads
        load_or_fail(engine, config);
        const CompiledPackageInfo info = unwrap(engine.compile_decode_step(status_printer(), [] { return interrupted(); }));
        std::cout << "package: " << info.package_dir << "\n";
        if (info.from_cache)
            std::cout << "from the cache (already compiled)\n";
        else
            std::cout << "compiled in " << info.compile_s << " s\n";
        std::cout << "loaded in " << info.load_ms << " ms\n";
        std::cout << "exported under SDPA policy " << to_string(info.sdpa_policy) << ", KV " << to_string(info.kv_mode)
                  << "\n";
        for (size_t i = 0; i < info.backends.size(); ++i)
            std::cout << "  " << to_string(info.backends[i].first) << ": " << to_string(info.backends[i].second) << " ("
                      << info.evidence[i] << ")\n";
    });
}

}  // namespace reef::cli
