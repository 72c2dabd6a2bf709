#include "cli_common.h"

#include <iostream>

namespace reef::cli {

void register_version(CLI::App& app) {
    app.set_version_flag("--version,-V", [] { return format_versions(); }, "print the versions of Reef and its libraries");
    auto* cmd = app.add_subcommand("version", "print the versions of Reef and its libraries");
    cmd->callback([] { std::cout << format_versions(); });
}

}  // namespace reef::cli
