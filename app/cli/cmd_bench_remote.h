// reef-cli bench --server: the options, and the run (cmd_bench_remote.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace reef::cli {

struct RemoteBenchOptions {
    std::string server, flavour = "auto", api_key, model, concurrency = "1,4", reference, reference_text;
    int requests = 0;
    bool stream = true;
    void add_to(CLI::App* cmd);
};

void run_remote_bench(const RemoteBenchOptions& o, const std::string& text, int frames, uint64_t seed,
                      const std::string& md_path, const std::string& json_path);

}  // namespace reef::cli
