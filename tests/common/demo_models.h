// Tiny demo models for the engine's public-API tests: written once per test binary and layout
// (write_demo_model, the same file formats as the real models) into the test's temp folder.
#pragma once
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "check.h"
#include "reef/engine.h"

namespace reef_test {

// The folder of the tiny demo model of `layout` ("s2", "s1") made with `seed`, under
// temp_dir(folder) (wiped once per run); written on first use.
inline const std::string& tiny_demo_dir(const std::string& folder, const std::string& layout, uint64_t seed) {
    static std::map<std::string, std::string> dirs;
    static std::map<std::string, std::filesystem::path> bases;  // temp_dir wipes: once per folder
    const std::string key = folder + "/" + layout;
    auto it = dirs.find(key);
    if (it != dirs.end()) return it->second;
    if (!bases.count(folder)) bases[folder] = temp_dir(folder);
    const std::filesystem::path dir = bases[folder] / ("tiny-" + layout);
    std::filesystem::remove_all(dir);
    auto st = reef::write_demo_model(dir.string(), "tiny", layout, seed);
    if (!st) std::fprintf(stderr, "demo model: %s\n", st.error().to_string().c_str());
    return dirs[key] = dir.string();
}

}  // namespace reef_test
