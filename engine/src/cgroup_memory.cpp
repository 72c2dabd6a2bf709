#include "cgroup_memory.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace reef {
namespace {

namespace fs = std::filesystem;

// A v1 "no limit" is a page-rounded LONG_MAX (9223372036854771712); anything this large is none.
constexpr uint64_t kNoLimit = uint64_t(1) << 62;

std::optional<uint64_t> read_number(const fs::path& file) {
    std::ifstream in(file);
    std::string word;
    if (!(in >> word) || word == "max" || word.empty() || word.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    try {
        return std::stoull(word);
    } catch (...) {
        return std::nullopt;  // out of range
    }
}

uint64_t stat_value(const fs::path& file, const std::string& key) {
    std::ifstream in(file);
    std::string k;
    uint64_t v = 0;
    while (in >> k >> v)
        if (k == key) return v;
    return 0;
}

struct Layout {
    fs::path base;                   // the hierarchy's root: the mount, or its memory/ or unified/ folder
    fs::path dir;                    // the process's cgroup under base
    const char *limit, *usage, *inactive;
};

// The process's cgroup folders, v2 ("0::/path") and v1 (a "memory" controller line).
std::vector<Layout> layouts(const std::string& proc_self_cgroup, const fs::path& mount) {
    std::vector<Layout> out;
    std::ifstream in(proc_self_cgroup);
    std::string line;
    while (std::getline(in, line)) {
        const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
        const fs::path rel = fs::path(line.substr(b + 1)).relative_path();  // "/a/b" -> "a/b"; "/" -> ""
        auto under = [&rel](const fs::path& base) { return rel.empty() ? base : base / rel; };
        if (id == "0" && controllers.empty()) {
            const fs::path base = fs::exists(mount / "cgroup.controllers") ? mount : mount / "unified";
            out.push_back({base, under(base), "memory.max", "memory.current", "inactive_file"});
        }
        std::stringstream list(controllers);
        for (std::string c; std::getline(list, c, ',');)
            if (c == "memory")
                out.push_back({mount / "memory", under(mount / "memory"), "memory.limit_in_bytes", "memory.usage_in_bytes",
                               "total_inactive_file"});
    }
    return out;
}

}  // namespace

std::optional<uint64_t> cgroup_memory_available(const std::string& proc_self_cgroup, const std::string& cgroup_mount) {
    std::optional<uint64_t> best;
    for (const Layout& l : layouts(proc_self_cgroup, cgroup_mount)) {
        // From the process's cgroup up to the hierarchy's root: a parent's limit binds its children
        // too. A folder that is not there (the path names a cgroup outside what is mounted here) is
        // skipped; the root, which a container's cgroup namespace makes its own cgroup, is read.
        for (fs::path dir = l.dir;; dir = dir.parent_path()) {
            const auto limit = read_number(dir / l.limit);
            if (limit && *limit < kNoLimit) {
                const uint64_t usage = read_number(dir / l.usage).value_or(0);
                const uint64_t reclaimable = stat_value(dir / "memory.stat", l.inactive);
                const uint64_t used = usage > reclaimable ? usage - reclaimable : 0;
                const uint64_t available = *limit > used ? *limit - used : 0;
                best = best ? std::min(*best, available) : available;
            }
            if (dir == l.base || dir.string().size() <= l.base.string().size()) break;
        }
    }
    return best;
}

}  // namespace reef
