// The memory a cgroup still lets this process have. A container or a systemd slice may cap the
// process far below the machine's MemAvailable; the kernel then kills (or the allocator fails)
// at the cgroup's limit, so the "needs X GB, Y GB is available" check must use the lower figure.
// No torch, no Qt: plain files under /proc and /sys.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace reef {

// Bytes the tightest memory cgroup on this process's path can still give: for each cgroup from the
// process's own up to the hierarchy's root that has a limit, limit - usage + inactive file pages
// (page cache the kernel reclaims before it fails an allocation, as MemAvailable counts it), and
// the smallest of those. Reads cgroup v2 (memory.max, memory.current, memory.stat inactive_file)
// and v1 (memory/memory.limit_in_bytes, memory.usage_in_bytes, memory.stat total_inactive_file).
// nullopt when no cgroup on the path has a limit, or nothing can be read. The paths are
// parameters so tests can point them at a fake tree.
std::optional<uint64_t> cgroup_memory_available(const std::string& proc_self_cgroup = "/proc/self/cgroup",
                                                const std::string& cgroup_mount = "/sys/fs/cgroup");

}  // namespace reef
