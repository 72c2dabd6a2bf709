// The memory check's cgroup side (issue #13): a container's limit below the machine's MemAvailable
// is what a load or a KV cache must fit in. Fake /proc/self/cgroup files and cgroup trees.
#include <fstream>

#include "cgroup_memory.h"
#include "check.h"
#include "memory_check.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t MiB = 1024 * 1024;

void put(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

std::string n(uint64_t v) { return std::to_string(v) + "\n"; }

}  // namespace

TEST_CASE(v2_limit_minus_usage_plus_inactive_file) {
    const fs::path t = reef_test::temp_dir("cgroup_v2");
    put(t / "proc_cgroup", "0::/user.slice/reef.scope\n");
    put(t / "sys/cgroup.controllers", "cpu memory pids\n");
    const fs::path me = t / "sys/user.slice/reef.scope";
    put(me / "memory.max", n(2048 * MiB));
    put(me / "memory.current", n(1536 * MiB));
    put(me / "memory.stat", "anon 1000\nfile 300000000\nactive_file 5\ninactive_file " + std::to_string(256 * MiB) + "\n");
    const auto a = cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string());
    CHECK(a.has_value());
    CHECK_EQ(a.value_or(0), 768 * MiB);  // 2048 - (1536 - 256)
}

TEST_CASE(v2_a_parent_with_a_tighter_limit_wins) {
    const fs::path t = reef_test::temp_dir("cgroup_v2_parent");
    put(t / "proc_cgroup", "0::/user.slice/reef.scope\n");
    put(t / "sys/cgroup.controllers", "memory\n");
    put(t / "sys/user.slice/memory.max", n(1024 * MiB));
    put(t / "sys/user.slice/memory.current", n(900 * MiB));
    put(t / "sys/user.slice/reef.scope/memory.max", "max\n");
    put(t / "sys/user.slice/reef.scope/memory.current", n(100 * MiB));
    CHECK_EQ(cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).value_or(0), 124 * MiB);
}

TEST_CASE(v2_no_limit_anywhere_is_unknown) {
    const fs::path t = reef_test::temp_dir("cgroup_v2_max");
    put(t / "proc_cgroup", "0::/a\n");
    put(t / "sys/cgroup.controllers", "memory\n");
    put(t / "sys/a/memory.max", "max\n");
    put(t / "sys/a/memory.current", n(5 * MiB));
    CHECK(!cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).has_value());
    // Nothing readable at all: unknown, not zero (zero would refuse every model).
    CHECK(!cgroup_memory_available((t / "missing").string(), (t / "sys").string()).has_value());
}

TEST_CASE(v2_namespace_root_is_the_containers_cgroup) {
    // Inside a container with its own cgroup namespace the path is "/" and the mount's root files
    // are the container's own limit.
    const fs::path t = reef_test::temp_dir("cgroup_v2_ns");
    put(t / "proc_cgroup", "0::/\n");
    put(t / "sys/cgroup.controllers", "memory\n");
    put(t / "sys/memory.max", n(512 * MiB));
    put(t / "sys/memory.current", n(600 * MiB));  // over the limit (reclaim pending): nothing left
    CHECK_EQ(cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).value_or(99), uint64_t(0));
}

TEST_CASE(v1_memory_controller_and_its_no_limit_value) {
    const fs::path t = reef_test::temp_dir("cgroup_v1");
    put(t / "proc_cgroup", "9:name=systemd:/\n4:cpu,memory:/docker/abc\n0::/\n");
    put(t / "sys/unified/cgroup.procs", "1\n");  // hybrid: v2 mounted beside, without memory files
    const fs::path me = t / "sys/memory/docker/abc";
    put(me / "memory.limit_in_bytes", n(1024 * MiB));
    put(me / "memory.usage_in_bytes", n(600 * MiB));
    put(me / "memory.stat", "cache 1\ninactive_file 7\ntotal_inactive_file " + std::to_string(88 * MiB) + "\n");
    put(t / "sys/memory/memory.limit_in_bytes", "9223372036854771712\n");  // the root: no limit
    CHECK_EQ(cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).value_or(0), 512 * MiB);
    put(me / "memory.limit_in_bytes", "9223372036854771712\n");
    CHECK(!cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).has_value());
}

TEST_CASE(garbage_files_are_ignored) {
    const fs::path t = reef_test::temp_dir("cgroup_garbage");
    put(t / "proc_cgroup", "nonsense\n0::/x\n::\n");
    put(t / "sys/cgroup.controllers", "memory\n");
    put(t / "sys/x/memory.max", "-5\n");
    put(t / "sys/x/memory.current", "lots\n");
    CHECK(!cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).has_value());
    put(t / "sys/x/memory.max", "99999999999999999999999999\n");  // does not fit 64 bits
    CHECK(!cgroup_memory_available((t / "proc_cgroup").string(), (t / "sys").string()).has_value());
}

TEST_CASE(the_cpu_figure_is_the_lower_of_meminfo_and_the_cgroup) {
    // On this machine, whatever its cgroup: the check's CPU figure is never above either source.
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0, meminfo = 0;
    std::string rest;
    while (in >> key >> kib) {
        std::getline(in, rest);
        if (key == "MemAvailable:") meminfo = kib * 1024;
    }
    const auto cpu = available_memory(c10::Device(c10::kCPU));
    CHECK(cpu.has_value());
    const uint64_t slack = 64 * MiB;  // both are read a moment apart while other processes run
    CHECK(cpu.value_or(0) <= meminfo + slack);
    if (const auto cg = cgroup_memory_available()) CHECK(cpu.value_or(0) <= *cg + slack);
}

TEST_MAIN()
