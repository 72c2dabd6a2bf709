// reef-cli compile: compile mode aot-inductor ahead of time — the decode-step package for a model
// and its engine flags (SDPA policy, KV mode, precision, device), compiled or found in the cache.
#include <iostream>

#include "cli_common.h"
#include "cli_engine.h"

namespace reef::cli {

void register_compile(CLI::App& app) {
    auto flags = std::make_shared<EngineFlags>();
    auto* cmd = app.add_subcommand("compile",
                                   "compile the decode step with AOTInductor (compile mode aot-inductor) and cache it");
    flags->add_to(cmd);
    cmd->callback([flags] {
        install_interrupt_handler();
        Engine engine;
        EngineConfig config = flags->to_config();
        config.compile_mode = CompileMode::AotInductor;
        config.load_codec = false;
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
