#include "compiled/package_cache.h"

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "check.h"

namespace reef {
namespace fs = std::filesystem;
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

// The flags compilers target: what Inductor's generated C++ and oneDNN's JIT pick their vector
// code by. Flags outside this list (virtualisation, power management, bug lists) do not decide
// whether code runs, and would split the cache between otherwise identical machines.
bool isa_flag(const std::string& f) {
    static const char* const kPrefixes[] = {"avx", "sse", "ssse", "fma", "f16c", "bmi", "amx", "vnni", "popcnt",
                                            "movbe", "aes", "sha", "vpclmul", "gfni", "vaes", "abm", "adx", "lzcnt"};
    for (const char* p : kPrefixes)
        if (f.rfind(p, 0) == 0) return true;
    return false;
}

std::string cpu_isa_flags() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        const bool x86 = key == "flags", arm = key == "Features";
        if (!x86 && !arm) continue;
        std::istringstream words(line.substr(colon + 1));
        std::set<std::string> kept;  // sorted: the order /proc lists them in is not part of the key
        for (std::string w; words >> w;)
            if (arm || isa_flag(w)) kept.insert(w);
        std::string out;
        for (const std::string& w : kept) out += (out.empty() ? "" : " ") + w;
        return out;  // the first processor's; all cores of a machine share an instruction set
    }
    return "unknown";
}

// Owned by this user (or root, for a parent such as /tmp), not a symbolic link, and not writable by
// others unless the sticky bit keeps them from replacing what is inside.
std::string unsafe_reason(const fs::path& dir, bool must_be_private) {
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0) return std::string("cannot be read: ") + std::strerror(errno);
    if (S_ISLNK(st.st_mode)) return "is a symbolic link";
    if (!S_ISDIR(st.st_mode)) return "is not a folder";
    if (st.st_uid != geteuid() && (must_be_private || st.st_uid != 0))
        return "belongs to another user (uid " + std::to_string(st.st_uid) + ")";
    if (must_be_private && (st.st_mode & 077)) return "is open to other users";
    if (!must_be_private && (st.st_mode & 022) && !(st.st_mode & S_ISVTX))
        return "can be changed by other users";
    return {};
}


bool process_gone(const std::string& pid_text) {
    if (pid_text.empty() || pid_text.size() > 9) return false;
    for (char c : pid_text)
        if (c < '0' || c > '9') return false;
    const pid_t pid = pid_t(std::stol(pid_text));
    if (pid <= 1 || pid == getpid()) return false;  // our own: another thread may be compiling
    return kill(pid, 0) != 0 && errno == ESRCH;
}

std::atomic<int> g_temp_counter{0};

}  // namespace

std::string home_folder() {
    if (std::string h = env("HOME"); !h.empty()) return h;
    // HOME unset (a service, a bare environment): the account's own home, never a shared folder
    std::vector<char> buf(16384);
    passwd pw{}, *found = nullptr;
    if (getpwuid_r(geteuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_dir && *found->pw_dir)
        return found->pw_dir;
    return {};
}

std::string host_code_features(const std::string& gpu_arch) {
    utsname u{};
    const std::string machine = uname(&u) == 0 ? u.machine : "unknown";
    const std::string cpu = env("REEF_HOST_FEATURES").empty() ? cpu_isa_flags() : env("REEF_HOST_FEATURES");
    return machine + "; cpu: " + cpu + "; gpu: " + (gpu_arch.empty() ? "none" : gpu_arch);
}

fs::path private_cache_root() {
    fs::path base;
    if (std::string d = env("REEF_CACHE_DIR"); !d.empty())
        base = d;
    else if (std::string x = env("XDG_CACHE_HOME"); !x.empty())
        base = fs::path(x) / "reef";
    else if (std::string h = home_folder(); !h.empty())
        base = fs::path(h) / ".cache" / "reef";
    else
        throw ReefError(ErrorCode::Io, "compile mode 'aot-inductor': this account has no home folder for the package cache",
                        "set REEF_CACHE_DIR to a folder of your own");
    std::error_code ec;
    if (!fs::exists(base, ec)) {
        fs::create_directories(base, ec);
        if (!ec) fs::permissions(base, fs::perms::owner_all, fs::perm_options::replace, ec);
    }
    const fs::path root = base / "aoti";
    if (!ec && !fs::exists(root, ec) && mkdir(root.c_str(), 0700) != 0 && errno != EEXIST)
        ec = std::error_code(errno, std::generic_category());
    if (ec)
        throw ReefError(ErrorCode::Io, "compile mode 'aot-inductor': cannot create the package cache " + root.string() +
                                           ": " + ec.message(),
                        "set REEF_CACHE_DIR to a writable folder of your own");
    // A folder of ours that an older Reef (or the umask) left readable by others is closed now;
    // one of another user's is refused: its packages would be code someone else can plant.
    struct stat st {};
    if (lstat(root.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077))
        chmod(root.c_str(), 0700);
    for (const auto& [dir, private_dir] : {std::pair{root, true}, std::pair{base, false}}) {
        if (const std::string why = unsafe_reason(dir, private_dir); !why.empty())
            throw ReefError(ErrorCode::Io,
                            "compile mode 'aot-inductor': the package cache folder " + dir.string() + " " + why +
                                "; compiled packages are code, so Reef loads them only from a folder of your own",
                            "set REEF_CACHE_DIR to a folder only you can write");
    }
    return root;
}

fs::path temp_entry_path(const fs::path& root, const std::string& key) {
    return root / (key + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(g_temp_counter++));
}

int sweep_stale_temps(const fs::path& root) {
    int removed = 0;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(root, ec)) {
        const std::string name = d.path().filename().string();
        for (const char* tag : {".tmp-", ".stale-"}) {
            const size_t at = name.find(tag);
            if (at == std::string::npos) continue;
            const size_t begin = at + std::strlen(tag);
            const std::string pid = name.substr(begin, name.find('-', begin) - begin);
            if (!process_gone(pid)) continue;
            std::error_code rm;
            fs::remove_all(d.path(), rm);
            removed += rm ? 0 : 1;
        }
    }
    return removed;
}

bool publish_entry(const fs::path& tmp, const fs::path& dir, const std::function<bool(const fs::path&)>& valid,
                   std::string* error) {
    std::error_code ec;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (valid(dir)) {  // published already (by another process, or a moment ago): keep that one
            fs::remove_all(tmp, ec);
            return true;
        }
        if (rename(tmp.c_str(), dir.c_str()) == 0) return true;
        const int e = errno;
        if (e != ENOTEMPTY && e != EEXIST) {
            if (error) *error = std::strerror(e);
            return false;
        }
        // An entry that does not check out is in the way: move it aside (one rename, so a reader
        // sees either it or nothing), then remove it.
        const fs::path aside = dir.parent_path() / (dir.filename().string() + ".stale-" + std::to_string(getpid()) +
                                                    "-" + std::to_string(g_temp_counter++));
        if (!valid(dir) && rename(dir.c_str(), aside.c_str()) == 0) fs::remove_all(aside, ec);
    }
    if (valid(dir)) {
        fs::remove_all(tmp, ec);
        return true;
    }
    if (error) *error = "another process keeps replacing " + dir.string();
    return false;
}

int64_t free_disk_bytes(const fs::path& path) {
    struct statvfs s {};
    if (statvfs(path.c_str(), &s) != 0) return -1;
    return int64_t(s.f_bavail) * int64_t(s.f_frsize);
}

}  // namespace reef
