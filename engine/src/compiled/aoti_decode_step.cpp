#include "compiled/aoti_decode_step.h"

#include <caffe2/serialize/inline_container.h>
#include <c10/util/Exception.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <ATen/Context.h>
#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string_view>

#include "check.h"
#include "nn/attention.h"

namespace reef {
namespace {

using json = nlohmann::json;


std::string shim_call_in(const std::string& code) {
    for (std::string_view prefix : {"aoti_torch_cpu_", "aoti_torch_cuda_"}) {
        const size_t at = code.find(std::string(prefix) + "_scaled_dot_product");
        if (at == std::string::npos) continue;
        size_t end = at;
        while (end < code.size() && (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_')) ++end;
        return code.substr(at, end - at);
    }
    return {};
}

// A package's generated library names libtorch.so among its dependencies (beside libtorch_cpu.so).
// A Reef that links only the CPU libraries of a CUDA wheel (cmake/ReefTorchWheel.cmake: PyPI's
// torch 2.8.0) has not loaded it, and the dynamic loader cannot find it by name from the cache
// folder. So before the first package loads, libtorch.so is loaded from libtorch_cpu.so's own
// folder, whichever libtorch this is; where it is loaded already this changes nothing.
// Returns the loader's error, empty when libtorch.so is in the process.
std::string ensure_libtorch_loaded() {
    static std::once_flag once;
    static std::string error;
    std::call_once(once, [] {
        if (dlopen("libtorch.so", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) return;
        Dl_info info{};
        if (!dladdr(reinterpret_cast<void*>(&at::globalContext), &info) || !info.dli_fname) {
            error = "cannot locate libtorch_cpu.so";
            return;
        }
        const std::string path = (std::filesystem::path(info.dli_fname).parent_path() / "libtorch.so").string();
        if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) error = std::string("cannot load ") + path + ": " + dlerror();
    });
    return error;
}

class AotiDecodeStep final : public CompiledDecodeStep {
public:
    AotiDecodeStep(const AotiPackage& pkg, at::Device device)
        : m_slow(load(pkg.slow_path, device)),
          m_fast(load(pkg.fast_path, device)),
          m_slow_attention(package_attention(pkg.slow_path)),
          m_fast_attention(package_attention(pkg.fast_path)),
          m_full(pkg.kv_mode == KvMode::Full),
          m_device(device) {}

    ForwardResult forward_generate(const at::Tensor& inp, int64_t pos, KvCache& slow) override {
        // inp [1, N+1, 1] at pos -> (logits, hidden, normed)
        std::vector<at::Tensor> out = run_step(*m_slow, m_slow_attention, CallSite::SlowDecode, inp.contiguous(), pos, slow);
        REEF_CHECK(out.size() == 3, "the compiled slow step returned " + std::to_string(out.size()) + " outputs");
        return {out[0], out[1], out[2]};
    }

    at::Tensor forward_generate_fast(const at::Tensor& x, int64_t pos, KvCache& fast) override {
        // x [1, 1, Cf] at fast position pos -> logits [1, 1, K]
        std::vector<at::Tensor> out =
            run_step(*m_fast, m_fast_attention, CallSite::FastDecode, x.reshape({1, 1, -1}).contiguous(), pos, fast);
        REEF_CHECK(out.size() == 1, "the compiled fast step returned " + std::to_string(out.size()) + " outputs");
        return out[0];
    }

private:
    static std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load(const std::string& path, at::Device device) {
        if (const std::string why = ensure_libtorch_loaded(); !why.empty())
            throw ReefError(ErrorCode::BackendUnavailable,
                            "compile mode 'aot-inductor': a package's code needs libtorch.so, and " + why);
        try {
            // run_single_threaded: one engine thread calls it, so the container's locks are not needed;
            // the CUDA device the model is on (cuda:N), not whichever is current
            return std::make_unique<torch::inductor::AOTIModelPackageLoader>(path, "model", true, 1,
                                                                             device.is_cuda() ? device.index() : -1);
        } catch (const c10::Error& e) {
            throw ReefError(ErrorCode::BackendUnavailable,
                            "compile mode 'aot-inductor': libtorch cannot load " + path + ": " + e.what_without_backtrace());
        }
    }
    // One package call: (x, input_pos, kv marker, the cache's layers) with the cache updated in
    // place. Active prefix: rows 0..pos are attended; full: every row, under the causal mask.
    std::vector<at::Tensor> run_step(torch::inductor::AOTIModelPackageLoader& package, const PackageAttention& attention,
                                     CallSite site, at::Tensor x, int64_t pos, KvCache& cache) {
        const int64_t kv_len = m_full ? cache.capacity() : pos + 1;
        std::vector<at::Tensor> in{std::move(x), position(pos), marker(kv_len)};
        for (at::Tensor& t : cache.layer_tensors()) in.push_back(std::move(t));
        std::vector<at::Tensor> out = package.run(in);
        BackendRecorder::current().record_compiled(site, attention.backend,
                                                   "compiled, k" + shape_string(in[3].narrow(2, 0, kv_len)), kv_len,
                                                   cache.n_layer());
        return out;
    }
    at::Tensor position(int64_t pos) const {
        return at::full({1}, pos, at::TensorOptions().dtype(at::kLong).device(m_device));
    }
    // The K/V length is this input's length (a dynamic dimension of the package); its bytes are
    // never read, so one buffer serves every length.
    at::Tensor marker(int64_t len) {
        if (!m_marker.defined() || m_marker.size(0) < len)
            m_marker = at::empty({std::max<int64_t>(len, 2 * (m_marker.defined() ? m_marker.size(0) : 256))},
                                 at::TensorOptions().dtype(at::kByte).device(m_device));
        return m_marker.narrow(0, 0, len);
    }

    std::unique_ptr<torch::inductor::AOTIModelPackageLoader> m_slow, m_fast;
    PackageAttention m_slow_attention, m_fast_attention;
    bool m_full;
    at::Device m_device;
    at::Tensor m_marker;
};

}  // namespace

// The metadata the exporter recorded (aot_inductor.metadata), read from the archive itself: the
// JSON record data/aotinductor/<model>/<hash>.wrapper_metadata.json. libtorch 2.8's loader has no
// static reader for it (AOTIModelPackageLoader::load_metadata_from_package came later), and
// loading the package just to ask would map its code and its weights.
static std::map<std::string, std::string> package_metadata(caffe2::serialize::PyTorchStreamReader& reader) {
    std::map<std::string, std::string> meta;
    const std::string dir = "data/aotinductor/model/";
    for (const std::string& name : reader.getAllRecords()) {
        if (name.rfind(dir, 0) != 0 || !name.ends_with("wrapper_metadata.json")) continue;
        auto [data, size] = reader.getRecord(name);
        const json j = json::parse(static_cast<const char*>(data.get()), static_cast<const char*>(data.get()) + size,
                                   nullptr, /*allow_exceptions=*/false);
        if (!j.is_object()) continue;
        for (const auto& [key, value] : j.items())
            if (value.is_string()) meta[key] = value.get<std::string>();
    }
    return meta;
}

PackageAttention package_attention(const std::string& pt2_path) {
    PackageAttention a;
    try {
        caffe2::serialize::PyTorchStreamReader reader(pt2_path);
        const auto meta = package_metadata(reader);
        const auto policy = meta.find("reef.sdpa_policy");  // what the exporter recorded
        const std::string exported =
            policy == meta.end() ? "" : "exported under SDPA policy " + policy->second + "; ";
        std::string code;
        for (const std::string& name : reader.getAllRecords()) {
            if (name.size() < 12 || name.compare(name.size() - 12, 12, ".wrapper.cpp") != 0) continue;
            auto [data, size] = reader.getRecord(name);
            code.append(static_cast<const char*>(data.get()), size);
        }
        if (code.empty()) {
            a.evidence = "the package holds no generated wrapper code to read";
            return a;
        }
        const std::string call = shim_call_in(code);
        if (call.empty()) {
            a.backend = SdpaBackend::Math;
            a.evidence = exported + "no SDPA kernel call: attention decomposed into matmul/softmax and fused by Inductor";
            return a;
        }
        a.evidence = exported + "calls " + call;
        // the shim aoti_torch_<device>_<op> wraps aten::<op>: the dispatcher's names say the backend
        const size_t op = call.find("__scaled_dot_product") + 1;
        a.backend = backend_from_op_name(("aten::" + call.substr(op)).c_str());
    } catch (const c10::Error& e) {
        a.evidence = std::string("unreadable package: ") + e.what_without_backtrace();
    }
    return a;
}

std::unique_ptr<CompiledDecodeStep> load_aoti_decode_step(const AotiPackage& package, at::Device device) {
    return std::make_unique<AotiDecodeStep>(package, device);
}

}  // namespace reef
