// Engine facade: owns the loaded pipeline; every entry point returns a value, never throws.
#include "reef/engine.h"
#include "reef/cpu_kernels.h"

#include "compiled/aoti_decode_step.h"
#include "base/cpu_cores.h"
#include "base/facade_guard.h"
#include "codec/codec_folder.h"
#include "study/bench_runner.h"
#include "runtime/device.h"
#include "runtime/pipeline.h"
#include "study/sdpa_bench_runner.h"
#include "runtime/synthesis.h"
#include "runtime/synthesis_batch.h"

namespace reef {
namespace {

// A synthesis with the loaded model's configured SDPA policy, compile mode and KV cache.
RunOptions configured_run_options(const Pipeline& p) {
    RunOptions o;
    o.policy = p.config.sdpa_policy;
    o.compile_mode = p.config.compile_mode;
    o.kv_mode = p.config.kv_mode;
    o.kv_margin = p.config.kv_margin;
    o.adaptive_threads = p.config.adaptive_threads;
    return o;
}

}  // namespace

struct Engine::Impl {
    std::unique_ptr<Pipeline> pipeline;
    EngineConfig config;

    // Loading a pipeline sets libtorch's thread count from its config; a load that fails, or a
    // bench's own pipeline, must not leave the loaded model with another count than it was loaded with.
    struct KeepThreads {
        const Impl& impl;
        ~KeepThreads() {
            if (impl.pipeline) try {
                    apply_cpu_threads(impl.config.cpu_threads);
                } catch (...) {  // a destructor: the count stays as it was
                }
        }
    };

    Pipeline& loaded() {
        if (!pipeline) throw ReefError(ErrorCode::NotLoaded, "no model is loaded", "load a model folder first");
        return *pipeline;
    }
};

Engine::Engine() : m_impl(std::make_unique<Impl>()) {}
Engine::~Engine() = default;

Result<ModelInfo> Engine::load(const EngineConfig& config) {
    return guarded("load", [&]() -> Result<ModelInfo> {
        c10::InferenceMode inference;
        // A REEF_CPU_TARGET this CPU cannot run would otherwise quietly measure the best target.
        const CpuKernelInfo kernels = cpu_kernel_info();
        if (!kernels.error.empty())
            return EngineError{ErrorCode::UnsupportedDevice, kernels.error,
                               "unset REEF_CPU_TARGET, or set it to one of the targets named"};
        // Build the new pipeline first: a failed load keeps the previous model ready (threads too).
        const Impl::KeepThreads keep{*m_impl};
        auto p = load_pipeline(config);
        m_impl->pipeline = std::move(p);
        m_impl->config = config;
        return m_impl->pipeline->info;
    });
}

bool Engine::is_loaded() const { return m_impl->pipeline != nullptr; }
void Engine::unload() { m_impl->pipeline.reset(); }

Result<SynthesisResult> Engine::synthesize(const SynthesisRequest& request, const Callbacks& callbacks) {
    return guarded("synthesize", [&]() -> Result<SynthesisResult> {
        Pipeline& p = m_impl->loaded();
        return run_synthesis(p, request, callbacks, configured_run_options(p));
    });
}

std::vector<Result<SynthesisResult>> Engine::synthesize_batch(const std::vector<SynthesisRequest>& requests,
                                                              int max_batch, const Callbacks& callbacks,
                                                              const std::function<bool(uint64_t)>& cancel_request,
                                                              const RequestDone& on_done) {
    auto all = guarded("synthesize", [&]() -> Result<std::vector<Result<SynthesisResult>>> {
        Pipeline& p = m_impl->loaded();
        return run_synthesis_batch(p, requests, max_batch, callbacks, configured_run_options(p), cancel_request, on_done);
    });
    if (all) return std::move(*all);
    // Not loaded, out of memory, ...: every request ends with that error.
    std::vector<Result<SynthesisResult>> out(requests.size(), Result<SynthesisResult>(all.error()));
    if (on_done)
        for (size_t i = 0; i < requests.size(); ++i) on_done(requests[i].id, out[i]);
    return out;
}

Result<Codes> Engine::encode_reference(const std::vector<float>& mono_44k) {
    return guarded("encode", [&]() -> Result<Codes> {
        Pipeline& p = m_impl->loaded();
        if (!p.codec) throw_no_codec(p.config.model_dir, "to encode the clip with");
        if (mono_44k.size() < size_t(kSamplesPerFrame))
            throw ReefError(ErrorCode::InvalidArgument, "the reference clip is shorter than one frame (46 ms)");
        c10::InferenceMode inference;
        const at::Tensor pcm = at::tensor(at::ArrayRef<float>(mono_44k), at::kFloat);
        return tensor_to_codes(p.codec->encode(pcm));
    });
}

Result<std::vector<float>> Engine::decode_codes(const Codes& codes) {
    return guarded("decode", [&]() -> Result<std::vector<float>> {
        Pipeline& p = m_impl->loaded();
        if (!p.codec) throw_no_codec(p.config.model_dir, "to decode codes with");
        c10::InferenceMode inference;
        const at::Tensor c = codes_to_tensor(codes, p.codec->config().n_total_codebooks(), "codes");
        const at::Tensor pcm = p.codec->decode(c).to(at::kFloat).contiguous();
        return std::vector<float>(pcm.data_ptr<float>(), pcm.data_ptr<float>() + pcm.numel());
    });
}

Result<CompiledPackageInfo> Engine::compile_decode_step(const std::function<void(const std::string&)>& progress,
                                                        const std::function<bool()>& should_abort) {
    return guarded("compile", [&]() -> Result<CompiledPackageInfo> {
        Pipeline& p = m_impl->loaded();
        c10::InferenceMode inference;
        RunOptions o;
        o.policy = p.config.sdpa_policy;
        o.compile_mode = CompileMode::AotInductor;
        o.kv_mode = p.config.kv_mode;
        Callbacks cb;
        cb.on_status = progress;
        cb.should_abort = should_abort;
        RunMetrics m;
        prepare_compiled(p, o, cb, m);
        CompiledPackageInfo info;
        info.package_dir = m.compiled_package;
        info.compile_s = m.compile_s;
        info.from_cache = m.compile_cached;
        info.load_ms = m.package_load_ms;
        info.sdpa_policy = p.compiled_package.sdpa_policy;
        info.kv_mode = p.compiled_package.kv_mode;
        for (const auto& [site, path] : {std::pair{CallSite::SlowDecode, p.compiled_package.slow_path},
                                         std::pair{CallSite::FastDecode, p.compiled_package.fast_path}}) {
            const PackageAttention a = package_attention(path);
            info.backends.emplace_back(site, a.backend);
            info.evidence.push_back(a.evidence);
        }
        return info;
    });
}

DeviceCaps Engine::device_caps() const { return query_device_caps(m_impl->config.device); }

DeviceCaps Engine::capabilities(DeviceKind device) {
    try {
        return query_device_caps(device);
    } catch (const std::exception&) {
        return {};  // errors are values at the facade: no capability is claimed
    }
}

Status Engine::check_device(DeviceKind device, int index) {
    return guarded("check_device", [&]() -> Status {
        check_device_usable(device, index);
        return Ok{};
    });
}

Result<BenchReport> Engine::bench(const BenchRequest& request,
                                  const std::function<void(int, const std::string&)>& progress,
                                  const std::function<bool()>& should_abort) {
    return guarded("bench", [&]() -> Result<BenchReport> {
        c10::InferenceMode inference;
        EngineConfig config;
        config.model_dir = request.model_dir;
        config.device = request.device;
        config.device_index = request.device_index;
        config.precision = request.precision;
        config.cpu_threads = request.cpu_threads;
        config.load_codec = request.decode_audio;
        config.kv_margin = request.kv_margin;
        // Reuse the loaded pipeline when it matches; a bench never disturbs a different model.
        const EngineConfig& cur = m_impl->config;
        const bool reuse = m_impl->pipeline && cur.model_dir == config.model_dir && cur.device == config.device &&
                           cur.device_index == config.device_index &&
                           cur.precision == config.precision && cur.kv_margin == config.kv_margin &&
                           (m_impl->pipeline->codec || !config.load_codec);
        std::unique_ptr<Pipeline> own;
        const Impl::KeepThreads keep{*m_impl};
        Pipeline* p = reuse ? m_impl->pipeline.get() : (own = load_pipeline(config)).get();
        return run_bench(*p, request, progress, should_abort);
    });
}

Result<SdpaBenchReport> Engine::sdpa_bench(const SdpaBenchRequest& request,
                                           const std::function<void(const std::string&)>& progress,
                                           const std::function<bool()>& should_abort) {
    return guarded("sdpa-bench", [&]() -> Result<SdpaBenchReport> {
        c10::InferenceMode inference;
        return run_sdpa_bench(request, progress, should_abort);
    });
}

Result<SdpaBenchModel> sdpa_bench_model(const std::string& model_dir, const std::string& preset) {
    return guarded("sdpa-bench", [&]() -> Result<SdpaBenchModel> {
        SdpaBenchRequest r;
        r.model_dir = model_dir;
        r.preset = preset;
        return resolve_sdpa_bench_model(r);
    });
}

}  // namespace reef
