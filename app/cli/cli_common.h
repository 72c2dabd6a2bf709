// Shared pieces of reef-cli's commands: the command table and flag helpers.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "reef/engine_types.h"

namespace reef::cli {

// Each command file defines one register function; cli_main.cpp calls them all.
void register_version(CLI::App& app);
void register_demo_model(CLI::App& app);
void register_generate(CLI::App& app);
void register_synth(CLI::App& app);
void register_decode(CLI::App& app);
void register_encode(CLI::App& app);
void register_play(CLI::App& app);
void register_bench(CLI::App& app);
void register_sdpa_bench(CLI::App& app);
void register_compile(CLI::App& app);
void register_quantize(CLI::App& app);

// The flags every engine-loading command shares (--model --device --precision --threads
// --compile --sdpa --kv); filled into an EngineConfig after parsing.
struct EngineFlags {
    std::string model_dir, device = "cpu", precision = "fp32", compile = "eager", sdpa, kv = "active";  // sdpa "": default_sdpa_policy
    int threads = 0;
    std::string codec_worker = "auto", codec_priority = "idle", adaptive_threads = "on";
    int codec_threads = 0;
    void add_to(CLI::App* cmd, bool model_required = true);
    EngineConfig to_config() const;  // throws CLI::ValidationError on a bad name or what cannot run here
};
// Refuses, before any work, a device, compile mode or SDPA policy this build and machine cannot
// run (CLI::ValidationError with the engine's reason); the device through Engine::check_device, the
// check load() itself runs, so a CUDA index must name a device libtorch sees.
void refuse_unrunnable(const EngineConfig& c);

struct SamplingFlags {
    SamplingParams params;
    void add_to(CLI::App* cmd);
};

std::string format_versions();

// The command line as the user typed it, shell-quoted (for reports that must name the exact
// command); cli_main.cpp records it before parsing.
void record_command_line(int argc, char** argv);
const std::string& typed_command_line();

}  // namespace reef::cli
