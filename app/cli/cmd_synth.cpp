// reef-cli synth / generate: text (+ reference voices) -> WAV, or -> codes.npy.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "cli_engine.h"
#include "npy.h"
#ifdef REEF_WITH_REMOTE
#include "cli_profiles.h"
#include "reef/remote.h"
#endif
#ifdef REEF_HAVE_AUDIO
#include "audio/resample.h"
#include "audio/wav_file.h"
#include "cli_playback.h"
#endif

namespace reef::cli {
namespace {

struct SynthOptions {
    EngineFlags engine;
    SamplingFlags sampling;
    std::string text, text_file, out, codes_out, format = "pcm16";
    // --batch-file: one segment per line, each its own request, up to batch_size decoding together.
    std::string batch_file, out_dir;
    int batch_size = 4;
    std::vector<std::string> references, reference_texts, reference_codes;
    bool play = false;
    int stream_chunk = 16;
    // --server: speech from a fish-speech / SGLang-Omni / vLLM-Omni server instead of this machine.
    std::string server, flavour = "auto", api_key, server_model, voice;
};

bool writable_target(const std::string& path) {
    const std::filesystem::path p(path);
    return !p.has_parent_path() || std::filesystem::is_directory(p.parent_path());
}

std::string read_text(const SynthOptions& o) {
    if (o.text_file.empty()) return o.text;
    std::ifstream in(o.text_file);
    if (!in) fail("cannot read text file " + o.text_file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<ReferenceVoice> load_references(TtsBackend& engine, const SynthOptions& o) {
    const size_t n = o.references.size() + o.reference_codes.size();
    if (o.reference_texts.size() != n)
        fail("give one --reference-text per --reference/--reference-codes (" + std::to_string(n) + " clips, " +
             std::to_string(o.reference_texts.size()) + " texts)");
    std::vector<ReferenceVoice> refs;
    size_t t = 0;
    for (const auto& path : o.references) {
        ReferenceVoice r;
        r.text = o.reference_texts[t++];
        r.audio_path = path;
        if (!o.server.empty()) {   // the server takes the clip itself
            if (!std::filesystem::is_regular_file(path)) fail("reference clip not found: " + path);
            refs.push_back(std::move(r));
            continue;
        }
#ifdef REEF_HAVE_AUDIO
        std::vector<float> pcm;
        try {
            pcm = audio::load_reference_audio(path);
        } catch (const std::exception& e) {
            fail(e.what());
        }
        r.codes = unwrap(engine.encode_reference(pcm));
        std::cerr << "encoded reference " << path << ": " << r.codes.n_frames << " frames\n";
#else
        fail("this build has no audio import (REEF_BUILD_AUDIO=OFF); pass --reference-codes ref.npy instead");
#endif
        refs.push_back(std::move(r));
    }
    for (const auto& path : o.reference_codes) {
        ReferenceVoice r;
        r.text = o.reference_texts[t++];
        r.codes = unwrap(read_codes_npy(path));
        refs.push_back(std::move(r));
    }
    return refs;
}

void add_common(CLI::App* cmd, SynthOptions& o) {
    o.engine.add_to(cmd, /*model_required=*/false);   // --model or --server, checked in the callback
    o.sampling.add_to(cmd);
    auto* text = cmd->add_option("--text,-t", o.text, "text to speak (speaker tags like <|speaker:0|> allowed)");
    auto* file = cmd->add_option("--text-file", o.text_file, "read the text from a file");
    text->excludes(file);
    cmd->add_option("--reference,-r", o.references, "reference clip for voice cloning (WAV/FLAC/OGG); repeatable");
    cmd->add_option("--reference-codes", o.reference_codes, "reference codes (.npy from reef-cli encode); repeatable");
    cmd->add_option("--reference-text", o.reference_texts, "transcript of each reference, in order; repeatable");
#ifdef REEF_WITH_REMOTE
    cmd->add_option("--server", o.server,
                    "make the speech on a server instead: its URL (fish-speech's api_server, SGLang-Omni, vLLM-Omni, "
                    "Fish Audio's API, reef-cli serve) or the name of a profile saved in the studio; the model "
                    "options are then the server's");
    cmd->add_option("--flavour", o.flavour,
                    "the server's protocol: auto (asked from the server), fish-speech, sglang-omni, vllm-omni, or "
                    "openai (either OpenAI-compatible one)")
        ->check(CLI::IsMember({"auto", "fish-speech", "sglang-omni", "vllm-omni", "openai"}))
        ->capture_default_str();
    cmd->add_option("--api-key", o.api_key, "the server's key (Bearer); default: $REEF_API_KEY")->envname("REEF_API_KEY");
    cmd->add_option("--server-model", o.server_model,
                    "OpenAI-compatible servers: the model name (default: the server's first); Fish Audio: its model header");
    cmd->add_option("--voice", o.voice, "OpenAI-compatible servers: a voice stored on the server");
#endif
}

// The native engine, or with --server the remote backend for that server.
std::unique_ptr<TtsBackend> make_backend(const SynthOptions& o) {
    if (o.server.empty()) return std::make_unique<Engine>();
#ifdef REEF_WITH_REMOTE
    return make_remote_backend(server_from_flags(o.server, o.flavour, o.api_key, o.server_model, o.voice));
#else
    fail("this build has no remote backend (it needs libcurl)");
#endif
}

SynthesisRequest make_request(TtsBackend& engine, const SynthOptions& o, bool decode_audio) {
    SynthesisRequest req;
    req.id = 1;
    req.text = read_text(o);
    req.references = load_references(engine, o);
    req.sampling = o.sampling.params;
    req.decode_audio = decode_audio;
    req.stream_chunk_frames = o.stream_chunk;
    return req;
}

// The segments of a --batch-file: one per non-blank line, trimmed.
std::vector<std::string> read_segments(const std::string& path) {
    std::ifstream in(path);
    if (!in) fail("cannot read batch file " + path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        const auto b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
        if (b != std::string::npos) lines.push_back(line.substr(b, e - b + 1));
    }
    if (lines.empty()) fail("the batch file " + path + " holds no text");
    return lines;
}

// synth --batch-file: every line through synthesize_batch, one WAV per line in --out-dir
// (0001.wav, ...), the wall time and the aggregate frames/s at the end. Exit 1 when a line failed.
void run_batch_file(const SynthOptions& o) {
    namespace fs = std::filesystem;
    if (o.out_dir.empty()) fail("--batch-file needs --out-dir DIR (one WAV per line)");
    if (o.play || !o.out.empty() || !o.codes_out.empty()) fail("--batch-file writes one WAV per line to --out-dir; drop --out/--codes-out/--play");
    if (o.batch_size < 0 || o.batch_size > kMaxBatch)
        fail("--batch-size must be from 1 to " + std::to_string(kMaxBatch) + ", or 0 for auto");
    const std::vector<std::string> segments = read_segments(o.batch_file);
    std::error_code ec;
    fs::create_directories(o.out_dir, ec);
    if (!fs::is_directory(o.out_dir)) fail("cannot create the output folder " + o.out_dir);
    install_interrupt_handler();
    std::unique_ptr<TtsBackend> backend = make_backend(o);
    TtsBackend& engine = *backend;
    const ModelInfo info = load_or_fail(engine, o.engine.to_config());
    const std::vector<ReferenceVoice> refs = load_references(engine, o);
    std::vector<SynthesisRequest> requests;
    for (size_t i = 0; i < segments.size(); ++i) {
        SynthesisRequest r;
        r.id = uint64_t(i + 1);
        r.text = segments[i];
        r.references = refs;
        r.sampling = o.sampling.params;
        r.decode_audio = true;
        r.stream_chunk_frames = o.stream_chunk;
        r.listened_live = false;  // written to a file: decoded whole after its last frame (no codec worker)
        requests.push_back(std::move(r));
    }
    Callbacks cb;
    cb.should_abort = [] { return interrupted(); };
    cb.on_status = status_printer();
    int failed = 0;
    int64_t frames = 0;
    double audio_s = 0;
    // Each line's WAV is written as soon as that line ends, so a long run leaves its finished lines
    // behind even when it is interrupted.
    auto write_line = [&](uint64_t id, const Result<SynthesisResult>& result) {
        const size_t i = size_t(id - 1);
        char name[32];
        std::snprintf(name, sizeof name, "%04zu.wav", i + 1);
        const std::string path = (fs::path(o.out_dir) / name).string();
        if (!result) {
            ++failed;
            std::cerr << "line " << i + 1 << ": error: " << result.error().to_string() << "\n";
            return;
        }
        const SynthesisResult& res = *result;
        frames += res.metrics.frames;
        audio_s += res.metrics.audio_seconds;
#ifdef REEF_HAVE_AUDIO
        audio::WavMetadata meta;
        meta.title = requests[i].text.substr(0, 200);
        meta.software = "Reef " REEF_VERSION;
        meta.comment = "model " + info.name + "; line " + std::to_string(i + 1) + "; seed " +
                       std::to_string(requests[i].sampling.seed);
        try {
            audio::write_wav(path, res.audio, kSampleRate, 1,
                             o.format == "float" ? audio::WavFormat::Float32 : audio::WavFormat::Pcm16, meta);
        } catch (const std::exception& e) {
            ++failed;
            std::cerr << "line " << i + 1 << ": error: " << e.what() << "\n";
            return;
        }
        std::cout << "wrote " << path << " (" << res.metrics.audio_seconds << " s, " << res.metrics.frames << " frames)\n";
#else
        (void)info;
        fail("this build cannot write WAV files (REEF_BUILD_AUDIO=OFF)");
#endif
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto results = engine.synthesize_batch(requests, o.batch_size, cb, {}, write_line);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << segments.size() << " lines, batch size " << (o.batch_size == 0 ? std::string("auto") : std::to_string(o.batch_size)) << ": " << wall_s << " s wall, " << frames
              << " frames (" << (wall_s > 0 ? double(frames) / wall_s : 0) << " frames/s end to end), " << audio_s
              << " s of audio\n";
    if (failed) fail(std::to_string(failed) + " of " + std::to_string(results.size()) + " lines failed");
}

}  // namespace

void register_synth(CLI::App& app) {
    auto o = std::make_shared<SynthOptions>();
    auto* cmd = app.add_subcommand("synth", "text to speech: the whole pipeline, text -> WAV");
    add_common(cmd, *o);
    cmd->add_option("--out,-o", o->out, "WAV file to write");
    cmd->add_option("--codes-out", o->codes_out, "also write the generated codes (.npy)");
    cmd->add_option("--format", o->format, "pcm16 | float")->check(CLI::IsMember({"pcm16", "float"}))->capture_default_str();
    cmd->add_option("--stream-chunk", o->stream_chunk, "frames per streamed audio chunk (0 = decode at the end)")
        ->capture_default_str();
    cmd->add_flag("--play", o->play, "play through the default audio output while generating");
    cmd->add_option("--batch-file", o->batch_file,
                    "a text file with one segment per line: each line becomes a WAV in --out-dir, up to --batch-size "
                    "lines decoding together");
    cmd->add_option("--out-dir", o->out_dir, "with --batch-file: the folder for 0001.wav, 0002.wav, ...");
    cmd->add_option("--batch-size", o->batch_size, "with --batch-file: lines decoding together (1 = one by one, 0 = auto: as many as half the free memory holds, at most 8)")
        ->capture_default_str();
    cmd->callback([o] {
        if (!o->batch_file.empty()) return run_batch_file(*o);
        const auto command_start = std::chrono::steady_clock::now();
        if (o->out.empty() && !o->play) fail("give --out FILE.wav and/or --play");
        if (!o->server.empty() && !o->codes_out.empty()) fail("--codes-out: a server sends audio, not codes");
        if (o->server.empty() && o->engine.model_dir.empty()) fail("give --model DIR (or --server URL)");
        for (const std::string& path : {o->out, o->codes_out})  // fail before minutes of generation, not after
            if (!path.empty() && !writable_target(path)) fail("cannot write " + path + ": its folder does not exist");
        install_interrupt_handler();
        std::unique_ptr<TtsBackend> backend = make_backend(*o);
        TtsBackend& engine = *backend;
        const ModelInfo info = load_or_fail(engine, o->engine.to_config());
        SynthesisRequest req = make_request(engine, *o, true);
        Callbacks cb;
        cb.should_abort = [] { return interrupted(); };
        cb.on_status = status_printer();
#ifdef REEF_HAVE_AUDIO
        std::unique_ptr<CliPlayback> playback;
        if (o->play) {
            playback = std::make_unique<CliPlayback>(command_start);
            cb.on_audio_chunk = [&](const AudioChunk& c) { playback->append(c); };
        }
#else
        if (o->play) fail("this build has no audio output (REEF_BUILD_AUDIO=OFF)");
#endif
        auto result = unwrap(engine.synthesize(req, cb));
        print_metrics(result.metrics);
#ifdef REEF_HAVE_AUDIO
        if (playback) playback->finish_and_report();
        if (!o->out.empty()) {
            audio::WavMetadata meta;
            meta.title = req.text.substr(0, 200);
            meta.software = "Reef " REEF_VERSION;
            meta.comment = "model " + info.name + "; seed " + std::to_string(req.sampling.seed) + "; temperature " +
                           std::to_string(req.sampling.temperature) + "; top_p " + std::to_string(req.sampling.top_p);
            try {
                audio::write_wav(o->out, result.audio, kSampleRate, 1,
                                 o->format == "float" ? audio::WavFormat::Float32 : audio::WavFormat::Pcm16, meta);
            } catch (const std::exception& e) {
                fail(e.what());
            }
            std::cout << "wrote " << o->out << " (" << result.metrics.audio_seconds << " s)\n";
        }
#else
        if (!o->out.empty()) fail("this build cannot write WAV files (REEF_BUILD_AUDIO=OFF)");
#endif
        if (!o->codes_out.empty()) {
            auto st = write_codes_npy(o->codes_out, result.codes);
            if (!st) fail(st.error());
        }
    });
}

void register_generate(CLI::App& app) {
    auto o = std::make_shared<SynthesisRequest>();
    auto opts = std::make_shared<SynthOptions>();
    auto* cmd = app.add_subcommand("generate", "text to semantic codes (10, T) only, written as .npy");
    add_common(cmd, *opts);
    cmd->add_option("--out,-o", opts->out, "codes file to write (.npy)")->required();
    cmd->callback([opts] {
        install_interrupt_handler();
        if (opts->engine.model_dir.empty()) fail("give --model DIR");
        Engine engine;
        EngineConfig config = opts->engine.to_config();
        load_or_fail(engine, config);
        SynthesisRequest req = make_request(engine, *opts, false);
        Callbacks cb;
        cb.should_abort = [] { return interrupted(); };
        cb.on_status = status_printer();
        auto result = unwrap(engine.synthesize(req, cb));
        print_metrics(result.metrics);
        auto st = write_codes_npy(opts->out, result.codes);
        if (!st) fail(st.error());
        std::cout << "wrote " << opts->out << " (" << result.codes.n_codebooks << " x " << result.codes.n_frames << ")\n";
    });
}

}  // namespace reef::cli
