// The compiled-package cache on disk (compile mode aot-inductor). A package is loaded code, so the
// cache obeys four rules:
// - an entry's key holds everything that decides whether its code can run here: besides the
//   model and the exporter, the host's instruction-set features, the GPU architecture and Reef's
//   version (a cache copied from an AVX-512 machine misses on an AVX2 one instead of SIGILL);
// - it lives only in a private folder: owned by this user, closed to everyone else (0700),
//   refused otherwise; never a shared fallback such as /tmp when HOME is unset;
// - publishing an entry is one rename and idempotent: a valid entry is never replaced, so two
//   processes compiling one key both end with one valid entry;
// - a compile's temporary folder (`<key>.tmp-<pid>`, a full copy of the weights) whose process is
//   gone is swept on the next use of the cache.
// No torch, no Qt.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace reef {

// The host facts that decide whether compiled code runs here, as stable text for the cache key:
// the machine ("x86_64"), the CPU's instruction-set flags that compilers target (from
// /proc/cpuinfo: avx*, fma, f16c, amx*, ... on x86; the Features line on ARM), and for CUDA the
// device's architecture. $REEF_HOST_FEATURES replaces the CPU part (tests, and to share a cache
// between machines a user knows to be identical).
std::string host_code_features(const std::string& gpu_arch);

// <base>/aoti, created if missing and checked private: $REEF_CACHE_DIR, else $XDG_CACHE_HOME/reef,
// else <home>/.cache/reef with <home> from $HOME or, when HOME is unset, the password database.
// Throws ReefError(Io) naming the folder when it cannot be made, is not a directory, is owned by
// another user or is open to group or others (the user decides; Reef never chmods a folder it did
// not create). Folders it creates are 0700.
std::filesystem::path private_cache_root();
// $HOME, else the account's home from the password database; empty when there is none.
std::string home_folder();

// The temporary folder for one compile of `key` by this process.
std::filesystem::path temp_entry_path(const std::filesystem::path& root, const std::string& key);

// Removes `<key>.tmp-<pid>` folders whose process no longer runs (a killed or crashed compile),
// and `.stale-` folders left half-removed. Returns how many it removed.
int sweep_stale_temps(const std::filesystem::path& root);

// Publishes the finished temporary folder `tmp` as root/key in one rename. When a valid entry is
// already there (`valid` says so; another process published it first), `tmp` is removed and the
// existing entry kept. An invalid entry in the way is first renamed aside, then removed. Returns
// false, with the reason in *error, when the rename fails for another cause.
bool publish_entry(const std::filesystem::path& tmp, const std::filesystem::path& dir,
                   const std::function<bool(const std::filesystem::path&)>& valid, std::string* error);

// Free bytes on the file system holding `path` (statvfs), -1 when unknown.
int64_t free_disk_bytes(const std::filesystem::path& path);

}  // namespace reef
