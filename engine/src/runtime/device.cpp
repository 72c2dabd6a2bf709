#include "runtime/device.h"

#include <fstream>
#include <string>

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include "check.h"
#include "reef/compile_python.h"
#include "nn/gemv.h"
#include "base/cpu_cores.h"
#include "base/cuda_memory.h"

namespace reef {
namespace {

bool cuda_ok() { return cuda_built() && torch::cuda::is_available(); }

// /proc/meminfo's MemTotal; -1 when unreadable.
int64_t total_ram_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    int64_t kb = 0;
    while (in >> key >> kb) {
        if (key == "MemTotal:") return kb * 1024;
        in.ignore(256, '\n');
    }
    return -1;
}

// /proc/self/status: VmRSS (now) and VmHWM (peak), in kB.
int64_t read_status_kb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stoll(line.substr(key.size())) * 1024;
    return 0;
}

}  // namespace

bool cuda_built() { return at::detail::getCUDAHooks().isBuilt(); }

at::Device to_torch_device(DeviceKind device, int index) {
    switch (device) {
    case DeviceKind::Cuda: return at::Device(at::kCUDA, c10::DeviceIndex(index));
    case DeviceKind::Mps: return at::Device(at::kMPS);
    case DeviceKind::Cpu: break;
    }
    return at::Device(at::kCPU);
}

at::ScalarType to_scalar_type(Precision precision) {
    switch (precision) {
    case Precision::Bf16: return at::kBFloat16;
    case Precision::Fp16: return at::kHalf;
    case Precision::Fp32: break;
    }
    return at::kFloat;
}

at::ScalarType codec_dtype(at::Device device, at::ScalarType model_dtype) {
    if (!device.is_cpu() || model_dtype == at::kFloat) return model_dtype;
    return model_dtype == at::kBFloat16 && cpu_has_bf16_arithmetic() ? model_dtype : at::kFloat;
}

DeviceCaps query_device_caps(DeviceKind device) {
    DeviceCaps caps;
    caps.cuda_compiled = cuda_built();
    caps.cuda_available = cuda_ok();
    caps.cuda_device_count = caps.cuda_available ? int(torch::cuda::device_count()) : 0;
    if (caps.cuda_available) caps.cuda_device_name = cuda_device_name();
    caps.devices["cpu"] = {true, {}};
    if (!caps.cuda_compiled)
        caps.devices["cuda"] = {false, "this libtorch build has no CUDA (CPU wheel)"};
    else if (!caps.cuda_available)
        caps.devices["cuda"] = {false, "libtorch has CUDA but no GPU is visible"};
    else
        caps.devices["cuda"] = {true, {}};
    caps.devices["mps"] = at::hasMPS() ? Capability{true, {}}
                                       : Capability{false, "MPS (Apple GPUs) needs a macOS build of libtorch on Apple silicon"};

    // The list: the CPU, then every GPU libtorch sees; a kind with none shows once, with its reason.
    caps.device_list.push_back({"cpu", device_model_name(DeviceKind::Cpu), total_ram_bytes(), true, {}});
    std::vector<DeviceInfo> gpus = caps.cuda_available ? list_cuda_devices() : std::vector<DeviceInfo>{};
    if (gpus.empty())
        caps.device_list.push_back({"cuda", {}, -1, false, caps.devices["cuda"].reason});
    caps.device_list.insert(caps.device_list.end(), gpus.begin(), gpus.end());
    caps.device_list.push_back({"mps", at::hasMPS() ? "Apple GPU" : "", -1, at::hasMPS(), caps.devices["mps"].reason});

    const bool on_cuda = device == DeviceKind::Cuda && caps.cuda_available;
    caps.precisions["fp32"] = {true, {}};
    caps.precisions["bf16"] = {true, {}};
    caps.precisions["fp16"] = on_cuda ? Capability{true, {}}
                                      : Capability{true, "runs on the CPU, but slowly (no fp16 kernels for many ops)"};

    caps.compile_modes["eager"] = {true, {}};
    if (on_cuda)
        caps.compile_modes["cuda-graph"] = {false, "CUDA-graph capture of the decode step is not implemented yet"};
    else
        caps.compile_modes["cuda-graph"] = {false, "needs a CUDA device"};
    // Wherever libtorch runs, given a Python with the same torch: the first run compiles the decode
    // step with it and caches the package. Without one the option is off, with the one-step fix.
    const CompilePythonInfo py = compile_python_info();
    if (py.ready)
        caps.compile_modes["aot-inductor"] = {true, "compiles the decode step on first use with " + py.python + " (" +
                                                        py.source + "; about a minute for a small model)"};
    else
        caps.compile_modes["aot-inductor"] = {false, py.reason, true};  // no Python found: the set-up makes one

    caps.sdpa_policies["auto"] = {true, {}};
    caps.sdpa_policies["math"] = {true, {}};
    caps.sdpa_policies["fish-speech"] = {true, {}};
    caps.sdpa_policies["flash"] = {true, on_cuda ? "" : "CPU flash kernel (needs an exact-length prefix, no mask)"};
    caps.sdpa_policies["efficient"] = on_cuda ? Capability{true, {}} : Capability{false, "memory-efficient attention is CUDA-only"};
    caps.sdpa_policies["cudnn"] = on_cuda ? Capability{true, {}} : Capability{false, "cuDNN attention is CUDA-only"};
#ifdef REEF_HAVE_KERNELS
    caps.sdpa_policies["reef"] = on_cuda ? Capability{false, "Reef's own decode attention kernel is CPU-only"}
                                         : Capability{true, "Reef's own decode attention kernel (eager decoding)"};
#else
    caps.sdpa_policies["reef"] = {false, "this build has no CPU kernels (Highway)"};
#endif
    caps.cpu_cores = usable_cpu_count();
    caps.default_cpu_threads = default_cpu_threads();
    return caps;
}

void check_device_usable(DeviceKind device, int index) {
    if (device == DeviceKind::Mps && !at::hasMPS())
        throw ReefError(ErrorCode::UnsupportedDevice,
                        "MPS was requested but this libtorch has no MPS (Apple GPUs, macOS builds only)", "use --device cpu");
    if (device != DeviceKind::Cuda) return;
    if (!cuda_ok())
        throw ReefError(ErrorCode::UnsupportedDevice,
                        cuda_built() ? "CUDA was requested but no GPU is visible"
                                      : "CUDA was requested but this libtorch is a CPU build",
                        "use --device cpu");
    const int count = int(torch::cuda::device_count());
    if (index < 0 || index >= count) {
        std::string seen;
        for (const DeviceInfo& d : list_cuda_devices()) seen += (seen.empty() ? "" : ", ") + d.id + " " + d.name;
        throw ReefError(ErrorCode::UnsupportedDevice,
                        "cuda:" + std::to_string(index) + " was requested but libtorch sees " + std::to_string(count) +
                            " CUDA device" + (count == 1 ? "" : "s") + (seen.empty() ? "" : " (" + seen + ")"),
                        "pick one of them with --device cuda:N");
    }
}

void require_device(DeviceKind device, int index, Precision precision) {
    (void)precision;
    check_device_usable(device, index);
    if (device == DeviceKind::Cuda) select_cuda_device(index);
}

MemoryStats query_memory(DeviceKind device) {
    MemoryStats m;
    m.cpu_rss_bytes = read_status_kb("VmRSS");
    m.cpu_peak_rss_bytes = read_status_kb("VmHWM");
    if (device == DeviceKind::Cuda) fill_cuda_memory(m);
    return m;
}

void reset_peak_memory(DeviceKind device) {
    // Linux lets a process reset its VmHWM by writing "5" to /proc/self/clear_refs.
    std::ofstream("/proc/self/clear_refs") << "5";
    if (device == DeviceKind::Cuda) reset_cuda_peak();
}

std::string device_model_name(DeviceKind device) {
    if (device == DeviceKind::Cuda) {
        const std::string name = cuda_device_name();
        return name.empty() ? "cuda" : name;
    }
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) break;
        const size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "cpu" : line.substr(start);
    }
    return "cpu";
}

std::string host_load_average() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    if (!(in >> one >> five >> fifteen)) return {};
    return one + " " + five + " " + fifteen;
}

}  // namespace reef
