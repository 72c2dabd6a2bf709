#include "cli_common.h"

#include "reef/cpu_kernels.h"

#include <algorithm>
#include <sstream>

#include "reef/bench_report.h"
#include "reef/cpu_kernels.h"
#include "reef/engine.h"
#include "reef/sampling_settings.h"
#ifdef REEF_HAVE_AUDIO
#include "audio/audio_versions.h"
#endif
#ifdef REEF_HAVE_QT
#include <QtGlobal>
#endif
#ifdef REEF_HAVE_SPDLOG
#include <spdlog/version.h>
#endif

namespace reef::cli {

void EngineFlags::add_to(CLI::App* cmd, bool model_required) {
    auto* m = cmd->add_option("--model,-m", model_dir, "model folder (S2-Pro, S1-mini or a demo model)");
    if (model_required) m->required();
    cmd->add_option("--device", device, "cpu | cuda[:N] | mps (reef-cli devices lists them)")->capture_default_str();
    cmd->add_option("--precision", precision, "fp32 | bf16 | fp16")->capture_default_str();
    cmd->add_option("--threads", threads, "CPU threads for libtorch (0 = default)");
    cmd->add_option("--compile", compile, "eager | cuda-graph | aot-inductor")->capture_default_str();
    cmd->add_option("--sdpa", sdpa,
                    "auto | math | flash | efficient | cudnn | fish-speech | reef (default: reef, Reef's own decode "
                    "attention, for eager decoding on a CPU; auto elsewhere)");
    cmd->add_option("--kv", kv, "active (attend over the filled prefix) | full (whole cache + mask)")->capture_default_str();
    cmd->add_option("--codec-worker", codec_worker,
                    "on: streamed audio decodes on its own thread | off: between frames | auto: on with a GPU or a "
                    "CPU core free beside --threads, else off (where the worker would only compete with generation)")
        ->check(CLI::IsMember({"auto", "on", "off"}))
        ->capture_default_str();
    cmd->add_option("--adaptive-threads", adaptive_threads,
                    "on: CPU decode frames take fewer threads while that measures faster (another program keeping "
                    "a core busy) | off: every frame uses --threads")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    cmd->add_option("--codec-threads", codec_threads, "intra-op threads of the codec worker (0 = as many as generation)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--codec-priority", codec_priority, "idle: the codec worker only takes cycles generation leaves | normal")
        ->check(CLI::IsMember({"idle", "normal"}))
        ->capture_default_str();
}

EngineConfig EngineFlags::to_config() const {
    EngineConfig c;
    c.model_dir = model_dir;
    c.cpu_threads = threads;
    c.adaptive_threads = adaptive_threads == "on";
    if (codec_worker != "auto") c.codec_worker = codec_worker == "on";
    c.codec_threads = codec_threads;
    c.codec_idle_priority = codec_priority == "idle";
    auto need = [](auto parsed, const std::string& flag, const std::string& v) {
        if (!parsed) throw CLI::ValidationError(flag, "unknown value '" + v + "'");
        return *parsed;
    };
    const DeviceSpec spec = need(parse_device_spec(device), "--device", device);
    c.device = spec.kind;
    c.device_index = spec.index;
    c.precision = need(parse_precision(precision), "--precision", precision);
    c.compile_mode = need(parse_compile_mode(compile), "--compile", compile);
    c.sdpa_policy = sdpa.empty() ? default_sdpa_policy(c.device, c.compile_mode) : need(parse_sdpa_policy(sdpa), "--sdpa", sdpa);
    c.kv_mode = need(parse_kv_mode(kv), "--kv", kv);
    refuse_unrunnable(c);
    return c;
}

void refuse_unrunnable(const EngineConfig& c) {
    // The device: the engine's own check, the one load() runs (a kind this build or machine lacks,
    // a CUDA index past the last GPU libtorch sees), with its reason and hint.
    if (const Status usable = Engine::check_device(c.device, c.device_index); !usable) {
        const EngineError& e = usable.error();
        throw CLI::ValidationError("--device", "'" + to_string(DeviceSpec{c.device, c.device_index}) +
                                                   "' cannot run here: " + e.message +
                                                   (e.hint.empty() ? "" : " (" + e.hint + ")"));
    }
    const DeviceCaps caps = Engine::capabilities(c.device);
    auto refuse = [&](const char* flag, const std::string& value, const std::map<std::string, Capability>& table) {
        const auto it = table.find(value);
        if (it != table.end() && !it->second.available)
            throw CLI::ValidationError(flag, "'" + value + "' cannot run here: " + it->second.reason);
    };
    refuse("--compile", to_string(c.compile_mode), caps.compile_modes);
    refuse("--sdpa", to_string(c.sdpa_policy), caps.sdpa_policies);
}

void SamplingFlags::add_to(CLI::App* cmd) {
    // Names, ranges and meanings from the engine's one description (reef/sampling_settings.h): a
    // value the engine would refuse is refused here, before a model loads.
    for (const SamplingSetting& s : sampling_settings()) {
        std::string flag = std::string("--") + s.name;
        std::replace(flag.begin(), flag.end(), '_', '-');
        const std::string help = std::string(s.label) + ": " + s.meaning + ", in " + sampling_range_text(s);
        CLI::Option* o = nullptr;
        switch (s.key) {
        case SamplingKey::Temperature: o = cmd->add_option(flag, params.temperature, help); break;
        case SamplingKey::TopP: o = cmd->add_option(flag, params.top_p, help); break;
        case SamplingKey::TopK: o = cmd->add_option(flag, params.top_k, help); break;
        case SamplingKey::RepetitionPenalty: o = cmd->add_option(flag, params.repetition_penalty, help); break;
        case SamplingKey::MaxNewFrames: o = cmd->add_option(flag, params.max_new_frames, help); break;
        case SamplingKey::ChunkLength: o = cmd->add_option(flag, params.chunk_length, help); break;
        }
        o->check(CLI::Range(s.min, s.max))->capture_default_str();
    }
    cmd->add_option("--seed", params.seed, "random seed (any 64-bit value)")->capture_default_str();
}

std::string format_versions() {
    const VersionInfo v = Engine::versions();
    std::ostringstream s;
    s << "Reef " << v.reef << "\n";
    s << "libtorch " << v.libtorch << " (CUDA " << (v.cuda_compiled ? "compiled in" : "not compiled in");
    if (v.cuda_compiled) s << ", " << (v.cuda_available ? "available" : "no GPU visible");
    if (!v.cuda_version.empty()) s << ", CUDA " << v.cuda_version;
    if (!v.cudnn_version.empty()) s << ", cuDNN " << v.cudnn_version;
    s << ")\n";
    const CpuKernelInfo k = cpu_kernel_info();
    if (!k.built) {
        s << "CPU kernels: not built in (no Highway): libtorch's linear\n";
    } else {
        s << "CPU kernels: " << k.target << " (this CPU runs:";
        for (const std::string& t : k.runnable) s << " " << t;
        s << ")";
        if (!k.requested.empty()) s << ", REEF_CPU_TARGET=" << k.requested;
        if (!k.error.empty()) s << " [" << k.error << "]";
        s << "\n";
    }
#ifdef REEF_HAVE_QT
    s << "Qt " << qVersion() << " (built with " << QT_VERSION_STR << ")\n";
#else
    s << "Qt (not built in)\n";
#endif
#ifdef REEF_HAVE_AUDIO
    s << audio::portaudio_version() << "\n";
    s << audio::sndfile_version() << "\n";
    s << "libsoxr " << audio::soxr_version() << "\n";
    s << "libebur128 " << audio::ebur128_version() << "\n";
    s << "Rubber Band " << audio::rubberband_version() << "\n";
#else
    s << "PortAudio, libsndfile (not built in)\n";
#endif
#ifdef REEF_HAVE_SPDLOG
    s << "spdlog " << SPDLOG_VER_MAJOR << "." << SPDLOG_VER_MINOR << "." << SPDLOG_VER_PATCH << "\n";
#endif
    return s.str();
}

namespace {
std::string g_command_line;
}

void record_command_line(int argc, char** argv) {
    g_command_line.clear();
    // The program as a reader would type it: a report says `reef-cli bench ...`, not the folder
    // it was built in on the machine that ran it.
    g_command_line = "reef-cli";
    for (int i = 1; i < argc; ++i) g_command_line += " " + shell_quote(argv[i]);
}

const std::string& typed_command_line() { return g_command_line; }

}  // namespace reef::cli
