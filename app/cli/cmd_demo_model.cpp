// reef-cli demo-model DIR [--preset tiny|s1-mini|s2-pro] [--layout s2|s1] [--seed N]
#include <iostream>

#include "cli_common.h"
#include "cli_engine.h"

namespace reef::cli {

void register_demo_model(CLI::App& app) {
    auto* cmd = app.add_subcommand("demo-model", "write a deterministic random-weight model in the real file formats");
    auto dir = std::make_shared<std::string>();
    auto preset = std::make_shared<std::string>("tiny");
    auto layout = std::make_shared<std::string>("s2");
    auto seed = std::make_shared<uint64_t>(1234);
    cmd->add_option("dir", *dir, "folder to create (must not exist yet, or be empty)")->required();
    cmd->add_option("--preset", *preset, "tiny | s1-mini | s2-pro (real dimensions; s2-pro is ~9 GB)")
        ->check(CLI::IsMember({"tiny", "s1-mini", "s2-pro"}))
        ->capture_default_str();
    cmd->add_option("--layout", *layout, "s2 (safetensors + tokenizer.json) | s1 (model.pth + tokenizer.tiktoken)")
        ->check(CLI::IsMember({"s2", "s1"}))
        ->capture_default_str();
    cmd->add_option("--seed", *seed, "weight seed")->capture_default_str();
    cmd->callback([=] {
        auto st = write_demo_model(*dir, *preset, *layout, *seed);
        if (!st) fail(st.error());
        std::cout << "wrote demo model '" << *preset << "' (" << *layout << " layout) to " << *dir
                  << "\nIts weights are random: the audio it makes is noise.\n";
    });
}

}  // namespace reef::cli
