#include "study/host_info.h"

#include <unistd.h>

#include <fstream>
#include <string>

#include "library_versions.h"
#ifdef REEF_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace reef {
namespace {

// The value of the first "key<spaces>:<value>" line of a /proc-style file, trimmed; "" if absent.
std::string proc_field(const char* path, const std::string& key) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, key.size(), key) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string() : line.substr(start);
    }
    return {};
}

std::string os_pretty_name() {
    std::ifstream in("/etc/os-release");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string v = line.substr(12);
            if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
            return v;
        }
    return {};
}

}  // namespace

HostInfo query_host_info(const std::string& cuda_device_name) {
    HostInfo h;
    h.cpu_model = proc_field("/proc/cpuinfo", "model name");
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    h.cpu_cores = online > 0 ? int(online) : 0;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    h.memory_bytes = pages > 0 && page > 0 ? int64_t(pages) * page : 0;
    h.os = os_pretty_name();
    h.gpu_name = cuda_device_name;
    if (!cuda_device_name.empty()) {
        const VersionInfo v = library_versions();
        h.cuda_runtime = v.cuda_version;
        h.cudnn = v.cudnn_version;
#ifdef REEF_WITH_CUDA
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
            h.cuda_driver = std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10);
#endif
    }
    return h;
}

}  // namespace reef
