// The compiled-package cache's folder rules (issue #29, compiled/package_cache.h): a private folder
// (0700, ours, refused otherwise; never /tmp when HOME is unset), host features from /proc/cpuinfo,
// killed compiles' temporary folders swept, and publishing that keeps one valid entry when
// several writers race. No compile here: tst_compiled_step compiles real packages through it.
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <functional>
#include <thread>

#include "check.h"
#include "env_scope.h"
#include "compiled/package_cache.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

using reef_test::EnvScope;

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    lstat(p.c_str(), &st);
    return st.st_mode & 07777;
}

uid_t owner_of(const fs::path& p) {
    struct stat st {};
    lstat(p.c_str(), &st);
    return st.st_uid;
}

std::string refusal(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ReefError& e) {
        return e.error().message;
    }
    return {};
}

// A pid that certainly ran and is gone: a child that exited and was reaped.
pid_t dead_pid() {
    const pid_t pid = fork();
    if (pid == 0) _exit(0);
    int status = 0;
    waitpid(pid, &status, 0);
    return pid;
}

void put(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

}  // namespace

TEST_CASE(root_is_created_private) {
    const fs::path t = reef_test::temp_dir("pc_private");
    EnvScope env;
    env.set("REEF_CACHE_DIR", (t / "new" / "reef").c_str());
    const fs::path root = private_cache_root();
    CHECK(root == t / "new" / "reef" / "aoti");
    CHECK(fs::is_directory(root));
    CHECK_EQ(int(mode_of(root)), 0700);
    CHECK_EQ(int(mode_of(root.parent_path())), 0700);  // the base Reef created, too
    CHECK_EQ(owner_of(root), geteuid());
}

TEST_CASE(a_folder_of_ours_left_open_is_closed) {
    const fs::path t = reef_test::temp_dir("pc_open");
    fs::create_directories(t / "base" / "aoti");
    chmod((t / "base").c_str(), 0755);
    chmod((t / "base" / "aoti").c_str(), 0755);  // as an older Reef and the umask left it
    EnvScope env;
    env.set("REEF_CACHE_DIR", (t / "base").c_str());
    const fs::path root = private_cache_root();
    CHECK_EQ(int(mode_of(root)), 0700);
}

TEST_CASE(another_users_folder_is_refused) {
    if (geteuid() != 0) {
        reef_test::skip("needs root to give a folder to another user");
        return;
    }
    const fs::path t = reef_test::temp_dir("pc_foreign");
    EnvScope env;
    // the entries' folder belongs to someone else: their packages would be code we load
    fs::create_directories(t / "a" / "aoti");
    chown((t / "a" / "aoti").c_str(), 12345, 12345);
    env.set("REEF_CACHE_DIR", (t / "a").c_str());
    std::string msg = refusal([] { private_cache_root(); });
    std::printf("  foreign folder: %s\n", msg.c_str());
    CHECK(msg.find("belongs to another user") != std::string::npos);
    CHECK(msg.find((t / "a" / "aoti").string()) != std::string::npos);
    // a base folder someone else owns: they could swap our folder for theirs
    fs::create_directories(t / "b");
    chown((t / "b").c_str(), 12345, 12345);
    env.set("REEF_CACHE_DIR", (t / "b").c_str());
    msg = refusal([] { private_cache_root(); });
    std::printf("  foreign base: %s\n", msg.c_str());
    CHECK(msg.find((t / "b").string() + " belongs to another user") != std::string::npos);
    // our own base folder, but anyone may write into it (no sticky bit): the same
    fs::create_directories(t / "d");
    chmod((t / "d").c_str(), 0777);
    env.set("REEF_CACHE_DIR", (t / "d").c_str());
    msg = refusal([] { private_cache_root(); });
    std::printf("  open base: %s\n", msg.c_str());
    CHECK(msg.find("can be changed by other users") != std::string::npos);
    // with the sticky bit (as /tmp has) others cannot rename what is ours: accepted
    chmod((t / "d").c_str(), 01777);
    CHECK(refusal([] { private_cache_root(); }).empty());
    // a symbolic link in place of the folder
    fs::create_directories(t / "c" / "elsewhere");
    fs::create_directory_symlink(t / "c" / "elsewhere", t / "c" / "aoti");
    env.set("REEF_CACHE_DIR", (t / "c").c_str());
    msg = refusal([] { private_cache_root(); });
    CHECK(msg.find("symbolic link") != std::string::npos);
}

TEST_CASE(home_unset_uses_the_accounts_home_never_tmp) {
    EnvScope env;
    env.set("REEF_CACHE_DIR", nullptr);
    env.set("XDG_CACHE_HOME", nullptr);
    env.set("HOME", nullptr);
    const passwd* pw = getpwuid(geteuid());  // the independent source: the password database
    if (!pw || !pw->pw_dir || !*pw->pw_dir) {
        const std::string msg = refusal([] { private_cache_root(); });
        CHECK(msg.find("no home folder") != std::string::npos);
        return;
    }
    const fs::path expected = fs::path(pw->pw_dir) / ".cache" / "reef" / "aoti";
    const bool existed = fs::exists(expected);
    const fs::path root = private_cache_root();
    CHECK(root == expected);
    CHECK(root.string().rfind("/tmp", 0) != 0);
    CHECK_EQ(int(mode_of(root)), 0700);
    if (!existed) fs::remove(root);  // leave the account's home as it was
}

TEST_CASE(host_features_come_from_cpuinfo) {
    EnvScope env;
    env.set("REEF_HOST_FEATURES", nullptr);
    const std::string f = host_code_features("");
    std::printf("  %s\n", f.c_str());
    // Read the first "flags" line ourselves: every instruction-set flag a compiler targets is in
    // the key, and a flag that says nothing about code (virtualisation) is not.
    std::ifstream in("/proc/cpuinfo");
    std::string line, flags;
    while (std::getline(in, line))
        if (line.rfind("flags", 0) == 0) {
            flags = " " + line.substr(line.find(':') + 1) + " ";
            break;
        }
    if (flags.empty()) {
        std::printf("  no x86 flags line in /proc/cpuinfo: only the machine is checked\n");
        CHECK(f.find("cpu: ") != std::string::npos);
        return;
    }
    for (const char* isa : {"avx2", "avx512f", "avx512_bf16", "fma", "f16c", "amx_tile"}) {
        const bool has = flags.find(std::string(" ") + isa + " ") != std::string::npos;
        CHECK_EQ(has, f.find(std::string(" ") + isa) != std::string::npos || f.find(std::string(": ") + isa) != std::string::npos);
    }
    CHECK(f.find("hypervisor") == std::string::npos);
    CHECK(f.find("gpu: none") != std::string::npos);
    CHECK(host_code_features("sm_90 NVIDIA H200").find("gpu: sm_90") != std::string::npos);
    // Another CPU gives another description (the key then misses)
    env.set("REEF_HOST_FEATURES", "avx2 fma");
    CHECK(host_code_features("") != f);
}

TEST_CASE(killed_compiles_are_swept) {
    const fs::path t = reef_test::temp_dir("pc_sweep");
    EnvScope env;
    env.set("REEF_CACHE_DIR", t.c_str());
    const fs::path root = private_cache_root();
    const std::string dead = std::to_string(dead_pid());
    const std::string alive = std::to_string(getppid());  // ctest (or the shell): running
    put(root / ("k1.tmp-" + dead + "-0") / "weights.safetensors", std::string(4096, 'w'));
    put(root / ("k2.tmp-" + dead) / "slow.pt2", "x");  // the name an older Reef used
    put(root / ("k3.stale-" + dead + "-2") / "slow.pt2", "x");
    put(root / ("k4.tmp-" + alive + "-0") / "slow.pt2", "x");  // a compile still running elsewhere
    put(root / "k5" / "manifest.json", "{}");                   // an entry
    const fs::path ours = temp_entry_path(root, "k6");          // this process's own compile
    put(ours / "slow.pt2", "x");
    const int swept = sweep_stale_temps(root);
    CHECK_EQ(swept, 3);
    CHECK(!fs::exists(root / ("k1.tmp-" + dead + "-0")));
    CHECK(!fs::exists(root / ("k2.tmp-" + dead)));
    CHECK(!fs::exists(root / ("k3.stale-" + dead + "-2")));
    CHECK(fs::exists(root / ("k4.tmp-" + alive + "-0")));
    CHECK(fs::exists(root / "k5" / "manifest.json"));
    CHECK(fs::exists(ours));
    // two compiles of one key in one process get different folders
    CHECK(temp_entry_path(root, "k6") != ours);
}

TEST_CASE(racing_publishers_leave_one_valid_entry) {
    const fs::path t = reef_test::temp_dir("pc_publish");
    const fs::path dir = t / "key";
    auto valid = [](const fs::path& d) {
        std::ifstream in(d / "manifest.json");
        std::string s;
        std::getline(in, s);
        return s == "complete";
    };
    // a corrupt entry in the way is replaced
    put(dir / "manifest.json", "truncated");
    put(t / "tmp-a" / "manifest.json", "complete");
    put(t / "tmp-a" / "who", "a");
    std::string why;
    CHECK(publish_entry(t / "tmp-a", dir, valid, &why));
    CHECK(valid(dir));
    CHECK(!fs::exists(t / "tmp-a"));
    // a valid entry is never replaced: the later writer's folder goes
    put(t / "tmp-b" / "manifest.json", "complete");
    put(t / "tmp-b" / "who", "b");
    CHECK(publish_entry(t / "tmp-b", dir, valid, &why));
    std::ifstream who(dir / "who");
    std::string w;
    who >> w;
    CHECK(w == "a");
    CHECK(!fs::exists(t / "tmp-b"));
    // eight writers at once on a fresh key: all succeed, one entry, no leftovers
    const fs::path dir2 = t / "key2";
    std::vector<std::thread> writers;
    std::atomic<int> ok{0};
    for (int i = 0; i < 8; ++i) {
        put(t / ("w" + std::to_string(i)) / "manifest.json", "complete");
        writers.emplace_back([&, i] {
            std::string e;
            if (publish_entry(t / ("w" + std::to_string(i)), dir2, valid, &e)) ++ok;
        });
    }
    for (auto& th : writers) th.join();
    CHECK_EQ(ok.load(), 8);
    CHECK(valid(dir2));
    int left = 0;
    for (const auto& d : fs::directory_iterator(t)) left += d.path().filename().string()[0] == 'w' ? 1 : 0;
    CHECK_EQ(left, 0);
}

TEST_CASE(free_disk_is_measured) {
    const fs::path t = reef_test::temp_dir("pc_disk");
    CHECK(free_disk_bytes(t) > 0);
    CHECK_EQ(free_disk_bytes(t / "does-not-exist"), int64_t(-1));
}

TEST_MAIN()
