// reef-cli: the headless front end. It calls exactly the engine API the GUI uses.
#include <iostream>

#include "cli_common.h"

namespace reef::cli {
void register_soak(CLI::App& app);  // cmd_soak.cpp (issue #13's soak and cancel figures)
void register_serve(CLI::App& app);  // serve/cmd_serve.cpp (the engine over HTTP)
void register_project(CLI::App& app);  // cmd_project.cpp (a studio project rendered headless)
}

int main(int argc, char** argv) {
    CLI::App app{"reef-cli: fish-speech text-to-speech and the SDPA A/B bench, without a display"};
    app.require_subcommand(0, 1);
    reef::cli::register_version(app);
#ifdef REEF_HAVE_AUDIO
    reef::cli::register_play(app);
#endif
    reef::cli::register_demo_model(app);
    reef::cli::register_quantize(app);
    reef::cli::register_synth(app);
    reef::cli::register_generate(app);
    reef::cli::register_decode(app);
    reef::cli::register_encode(app);
    reef::cli::register_bench(app);
    reef::cli::register_sdpa_bench(app);
    reef::cli::register_compile(app);
    reef::cli::register_soak(app);
#ifdef REEF_HAVE_SERVE
    reef::cli::register_serve(app);
#endif
#ifdef REEF_HAVE_QT
    reef::cli::register_project(app);
#endif
    reef::cli::record_command_line(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (app.get_subcommands().empty()) {
        std::cout << app.help();
        return 0;
    }
    return 0;
}
