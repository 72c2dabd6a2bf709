#include "cli_common.h"

#include <cstdio>
#include <iostream>

#include "reef/engine.h"

namespace reef::cli {

namespace {

// "cpu   AMD EPYC (23.4 GiB)": what --device takes, then what it is; the unavailable with the reason.
void print_devices() {
    const DeviceCaps caps = Engine::capabilities(DeviceKind::Cpu);
    for (const DeviceInfo& d : caps.device_list) {
        std::string what = d.name;
        if (d.memory_bytes > 0) {
            char gib[32];
            std::snprintf(gib, sizeof gib, "%.1f GiB", double(d.memory_bytes) / double(1LL << 30));
            what += (what.empty() ? "" : " ") + std::string("(") + gib + ")";
        }
        std::printf("%-8s %s\n", d.id.c_str(),
                    d.available ? what.c_str() : ("not available: " + d.reason).c_str());
    }
}

}  // namespace

void register_version(CLI::App& app) {
    app.set_version_flag("--version,-V", [] { return format_versions(); }, "print the versions of Reef and its libraries");
    auto* cmd = app.add_subcommand("version", "print the versions of Reef and its libraries");
    cmd->callback([] { std::cout << format_versions(); });
    auto* devices = app.add_subcommand("devices", "list the devices --device takes (cpu, cuda:N, mps), with memory, or why not");
    devices->callback(print_devices);
}

}  // namespace reef::cli
