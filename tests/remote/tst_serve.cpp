// reef-cli serve on the tiny demo model, driven by the remote backend through both protocols
// (fish-speech's msgpack /v1/tts and the OpenAI-compatible /v1/audio/speech), streamed and whole,
// with a cloned voice, cancelled mid-stream, four at once, with a full queue and a key: the audio
// must equal what this process's own Engine makes for the same request (fp32, greedy), to within
// the 16-bit wire format.
#include <atomic>
#include <cmath>
#include <thread>

#include "audio/resample.h"
#include "audio/time_stretch.h"
#include "audio/wav_file.h"
#include "check.h"
#include "child_server.h"
#include "reef/engine.h"
#include "reef/remote.h"
#include "remote/http_client.h"
#include "remote/load_bench.h"
#include <nlohmann/json.hpp>

using namespace reef;

namespace {

constexpr float kWireTolerance = 1.5f / 32768.0f;   // one 16-bit step, plus float rounding

const std::filesystem::path& demo_dir() {
    static const std::filesystem::path dir = [] {
        const auto d = reef_test::temp_dir("serve-demo") / "demo";
        const Status s = write_demo_model(d.string(), "tiny", "s2");
        if (!s.ok()) throw std::runtime_error(s.error().to_string());
        return d;
    }();
    return dir;
}

// address: how the server is told where to listen (--port 0 by default: any free port on 127.0.0.1).
std::unique_ptr<reef_test::ChildServer> start_serve(const std::string& name, const std::vector<std::string>& extra = {},
                                                    const std::vector<std::string>& address = {"--port", "0"}) {
    const auto dir = reef_test::temp_dir("serve-" + name);
    std::vector<std::string> argv = {std::getenv("REEF_CLI"), "serve", "-m", demo_dir().string(), "--port-file",
                                     (dir / "port").string()};
    argv.insert(argv.end(), address.begin(), address.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<reef_test::ChildServer>(argv, dir / "port", dir / "log");
}

// What a server that refuses to start prints (ChildServer's error carries its log).
std::string refusal_of(const std::vector<std::string>& address) {
    try {
        start_serve("refused", {}, address);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "(it started)";
}

reef_test::ChildServer& shared_server() {
    static auto s = start_serve("shared");
    return *s;
}

SynthesisRequest request(const std::string& text, int frames = 40) {
    SynthesisRequest r;
    r.id = 3;
    r.text = text;
    r.sampling.temperature = 0;   // greedy: the same codes wherever they are made
    r.sampling.seed = 11;
    r.sampling.max_new_frames = frames;
    r.sampling.chunk_length = 200;
    return r;
}

// This process's engine: the independent side of every comparison.
Engine& local_engine() {
    static Engine e;
    static bool loaded = [] {
        EngineConfig c;
        c.model_dir = demo_dir().string();
        return e.load(c).ok();
    }();
    if (!loaded) throw std::runtime_error("the local engine did not load the demo model");
    return e;
}

std::vector<float> local_audio(SynthesisRequest r, bool streamed, const std::string& clip = {}, const std::string& clip_text = {}) {
    if (!clip.empty()) {
        const audio::AudioData a = audio::read_audio(clip);
        ReferenceVoice v;
        v.text = clip_text;
        v.codes = local_engine().encode_reference(a.samples).value();
        r.references.push_back(v);
    }
    Callbacks cb;
    std::vector<float> streamed_audio;
    r.stream_chunk_frames = streamed ? 8 : 0;   // serve's --stream-chunk default
    if (streamed) cb.on_audio_chunk = [&](const AudioChunk& c) {
        streamed_audio.insert(streamed_audio.end(), c.samples.begin(), c.samples.end());
    };
    auto result = local_engine().synthesize(r, cb);
    if (!result) throw std::runtime_error(result.error().to_string());
    return streamed ? streamed_audio : result->audio;
}

struct Remote {
    Result<SynthesisResult> result = EngineError{};
    std::vector<float> streamed;
    std::string model_type;
};

Remote through_backend(const std::string& url, RemoteFlavour flavour, bool openai_only, const SynthesisRequest& r, bool stream,
              const std::string& key = {}, std::function<bool()> abort = {}) {
    ServerProfile p;
    p.url = url;
    p.flavour = flavour;
    p.openai_only = openai_only;
    p.api_key = key;
    auto backend = make_remote_backend(p);
    Remote out;
    auto info = backend->load(EngineConfig{});
    if (!info) {
        out.result = info.error();
        return out;
    }
    out.model_type = info->model_type;
    Callbacks cb;
    if (stream)
        cb.on_audio_chunk = [&](const AudioChunk& c) { out.streamed.insert(out.streamed.end(), c.samples.begin(), c.samples.end()); };
    cb.should_abort = std::move(abort);
    out.result = backend->synthesize(r, cb);
    return out;
}

float max_diff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return INFINITY;
    float d = 0;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
}

// A long streamed request that holds the server's engine until `stop`; returns once its first
// audio has arrived (true) or after 30 s without any (false). join() the thread after setting stop.
bool hold_engine(std::thread& thread, const std::string& url, const std::string& key, std::atomic<bool>& stop) {
    auto pieces = std::make_shared<std::atomic<int>>(0);
    thread = std::thread([url, key, pieces, &stop] {
        ServerProfile p;
        p.url = url;
        p.api_key = key;
        auto b = make_remote_backend(p);
        if (!b->load(EngineConfig{}).ok()) return;
        Callbacks cb;
        cb.on_audio_chunk = [&](const AudioChunk&) { ++*pieces; };
        cb.should_abort = [&] { return stop.load(); };
        (void)b->synthesize(request("Hold the engine for a while.", 4000), cb);
    });
    for (int i = 0; i < 600 && pieces->load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return pieces->load() > 0;
}

void check_same(const Remote& got, const std::vector<float>& want, bool streamed) {
    CHECK(got.result.ok());
    if (!got.result.ok()) {
        std::fprintf(stderr, "  error: %s\n", got.result.error().to_string().c_str());
        return;
    }
    CHECK(!want.empty());
    const float d = max_diff(got.result->audio, want);
    std::fprintf(stderr, "  %zu samples, max |diff| %.3g\n", want.size(), double(d));
    CHECK(d <= kWireTolerance);
    if (streamed) CHECK(max_diff(got.streamed, want) <= kWireTolerance);
}

// A JSON body POSTed as the tests' local requests make their audio: greedy, seed 11, `frames` frames.
remote::HttpResponse post_greedy(const std::string& url, nlohmann::json body, int frames) {
    body["temperature"] = 0;
    body["seed"] = 11;
    body["max_new_tokens"] = frames;
    body["chunk_length"] = 200;
    remote::HttpRequest h;
    h.method = "POST";
    h.url = url;
    h.headers = {"Content-Type: application/json"};
    h.body = body.dump();
    return remote::http_exchange(h);
}

std::string write_clip() {
    const auto path = reef_test::temp_dir("serve-clip") / "voice.wav";
    std::vector<float> tone(44100 * 2);
    for (size_t i = 0; i < tone.size(); ++i) tone[i] = 0.3f * std::sin(2.0f * float(M_PI) * 180.0f * float(i) / 44100.0f);
    audio::write_wav(path.string(), tone, 44100, 1, audio::WavFormat::Pcm16, {});
    return path.string();
}

}  // namespace

TEST_CASE(both_protocols_stream_and_not_equal_the_local_engine) {
    const std::string url = shared_server().url();
    const SynthesisRequest r = request("Coral reefs shelter a quarter of all marine species.");
    const std::vector<float> whole = local_audio(r, false), streamed = local_audio(r, true);
    struct Way {
        RemoteFlavour flavour;
        bool openai_only;
        const char* expect_type;
    };
    for (const Way& w : {Way{RemoteFlavour::Auto, false, "remote:fish-speech"}, Way{RemoteFlavour::Auto, true, nullptr},
                         Way{RemoteFlavour::VllmOmni, false, "remote:vllm-omni"}}) {
        for (const bool stream : {false, true}) {
            std::fprintf(stderr, "  %s%s, %s\n", to_string(w.flavour), w.openai_only ? " (openai)" : "",
                         stream ? "streamed" : "whole");
            const Remote got = through_backend(url, w.flavour, w.openai_only, r, stream);
            if (w.expect_type) CHECK(got.model_type == w.expect_type);
            else CHECK(got.model_type.find("fish-speech") == std::string::npos);   // asked for openai: not fish
            check_same(got, stream ? streamed : whole, stream);
        }
    }
}

TEST_CASE(a_cloned_voice_equals_the_local_clone) {
    const std::string clip = write_clip();
    SynthesisRequest r = request("A voice from a clip.");
    const std::vector<float> want = local_audio(r, false, clip, "A low hum.");
    r.references.push_back({"A low hum.", clip, {}});
    for (RemoteFlavour f : {RemoteFlavour::FishSpeech, RemoteFlavour::VllmOmni, RemoteFlavour::SglangOmni}) {
        std::fprintf(stderr, "  %s\n", to_string(f));
        check_same(through_backend(shared_server().url(), f, false, r, false), want, false);
    }
}

TEST_CASE(four_at_once_all_equal_the_local_engine) {
    const SynthesisRequest r = request("Four requests at once.", 24);
    const std::vector<float> want = local_audio(r, true);
    std::vector<Remote> got(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&, i] {
            got[size_t(i)] = through_backend(shared_server().url(), i % 2 ? RemoteFlavour::VllmOmni : RemoteFlavour::FishSpeech,
                                    false, r, true);
        });
    for (auto& t : threads) t.join();
    for (const Remote& g : got) check_same(g, want, true);
}

TEST_CASE(cancel_mid_stream_and_the_server_goes_on) {
    std::atomic<int> pieces{0};
    ServerProfile p;
    p.url = shared_server().url();
    auto backend = make_remote_backend(p);
    CHECK(backend->load(EngineConfig{}).ok());
    Callbacks cb;
    cb.on_audio_chunk = [&](const AudioChunk&) { ++pieces; };
    cb.should_abort = [&] { return pieces.load() > 0; };
    const auto r = backend->synthesize(request("A long text that will be cancelled.", 2000), cb);
    CHECK(!r.ok() && r.error().code == ErrorCode::Cancelled);
    // The next request is served (the cancelled job left the queue).
    const SynthesisRequest next = request("After the cancel.", 16);
    check_same(through_backend(shared_server().url(), RemoteFlavour::FishSpeech, false, next, false), local_audio(next, false), false);
}

TEST_CASE(a_full_queue_is_refused_and_a_key_is_required) {
    auto server = start_serve("small", {"--queue", "1", "--api-key", "k3y"});
    const Remote no_key = through_backend(server->url(), RemoteFlavour::Auto, false, request("x"), false);
    CHECK(!no_key.result.ok() && no_key.result.error().message.find("refused the API key") != std::string::npos);
    // One long request holds the only place in the queue; a second is refused at once.
    std::atomic<bool> stop{false};
    std::thread long_one;
    CHECK(hold_engine(long_one, server->url(), "k3y", stop));
    const Remote refused = through_backend(server->url(), RemoteFlavour::Auto, false, request("y"), false, "k3y");
    CHECK(!refused.result.ok());
    if (!refused.result.ok()) {
        std::fprintf(stderr, "  %s\n", refused.result.error().to_string().c_str());
        CHECK(refused.result.error().message.find("the queue is full") != std::string::npos);
        CHECK(refused.result.error().message.find("busy") != std::string::npos);
    }
    stop = true;
    long_one.join();
}

// --listen HOST:PORT, as fish-speech's own server takes it (and as a user tried): the server
// answers at that address; a malformed value, or one given with --host/--port, is refused at start.
TEST_CASE(listen_host_port_is_accepted_as_servers_take_it) {
    auto server = start_serve("listen", {}, {"--listen", "127.0.0.1:0"});
    check_same(through_backend(server->url(), RemoteFlavour::Auto, false, request("listen"), false),
               local_audio(request("listen"), false), false);
    for (const auto& [value, reason] : std::vector<std::pair<std::string, std::string>>{
             {"127.0.0.1", "expected HOST:PORT"},
             {"127.0.0.1:http", "the port must be a number"},
             {"127.0.0.1:70000", "the port must be a number"},
             {":8080", "the host is missing"},
             {"::1:8080", "write an IPv6 address as [ADDR]:PORT"},
             {"[::1", "needs its ']'"}}) {
        const std::string said = refusal_of({"--listen", value});
        std::fprintf(stderr, "  --listen %s: %s\n", value.c_str(), said.c_str());
        CHECK(said.find("--listen '" + value + "'") != std::string::npos);
        CHECK(said.find(reason) != std::string::npos);
    }
    const std::string both = refusal_of({"--listen", "127.0.0.1:0", "--port", "0"});
    CHECK(both.find("excludes") != std::string::npos);
}

TEST_CASE(bad_requests_are_refused_with_the_reason) {
    SynthesisRequest r = request("ok");
    r.text = "   ";
    // The client refuses empty text itself; the server's own check is reached through a path reference.
    SynthesisRequest path_ref = request("With a server path.");
    path_ref.references.push_back({"t", "/definitely/not/here.wav", {}});
    const Remote missing = through_backend(shared_server().url(), RemoteFlavour::FishSpeech, false, path_ref, false);
    CHECK(!missing.result.ok() && missing.result.error().message.find("reference clip") != std::string::npos);
    // A clip that is not audio: the server says so.
    const auto junk = reef_test::temp_dir("serve-junk") / "junk.wav";
    std::ofstream(junk) << std::string(4000, 'x');
    SynthesisRequest bad_clip = request("With a broken clip.");
    bad_clip.references.push_back({"t", junk.string(), {}});
    for (RemoteFlavour f : {RemoteFlavour::FishSpeech, RemoteFlavour::VllmOmni}) {
        const Remote got = through_backend(shared_server().url(), f, false, bad_clip, false);
        CHECK(!got.result.ok());
        if (!got.result.ok()) {
            std::fprintf(stderr, "  %s\n", got.result.error().to_string().c_str());
            CHECK(got.result.error().message.find("refused the request") != std::string::npos);
        }
    }
}

TEST_CASE(the_serving_bench_measures_every_level) {
    LoadBenchRequest req;
    req.profile.url = shared_server().url();
    req.concurrency = {1, 2};
    req.requests_per_level = 3;
    req.request = request("Measured from the client.", 24);
    const std::vector<float> local = local_audio(req.request, true);
    const Result<LoadBenchReport> report = run_load_bench(req);
    CHECK(report.ok());
    if (!report.ok()) return;
    CHECK(report->model.find("demo tiny") != std::string::npos);   // named by the server's /v1/models
    CHECK_EQ(report->levels.size(), size_t(2));
    for (const LoadBenchLevel& l : report->levels) {
        CHECK_EQ(l.requests, 3);
        CHECK_EQ(l.ok, 3);
        CHECK_EQ(l.failed, 0);
        CHECK_NEAR(l.audio_s_median, double(local.size()) / kSampleRate, 1e-9);   // what the local engine makes
        CHECK(l.ttfa_ms_median > 0 && l.ttfa_ms_median <= l.total_ms_median);
        CHECK(l.requests_per_s > 0 && l.audio_s_per_s > 0);
        CHECK_NEAR(l.audio_s_per_s, l.ok * l.audio_s_median / l.wall_s, 1e-6);
    }
    const nlohmann::json j = nlohmann::json::parse(load_bench_json(report.value()));
    CHECK(j["kind"] == "remote" && j["levels"].size() == 2 && j["levels"][1]["concurrency"] == 2);
    const std::string md = load_bench_markdown(report.value());
    CHECK(md.find("| 2 | 3 | 3 | 0 |") != std::string::npos);
}

// --batch-size: the requests waiting when the engine is free decode as one batch (issue #27);
// each gets exactly its own audio (streamed or whole, different texts and lengths), and the server
// says it batched. A long request holds the engine while three others queue up behind it.
TEST_CASE(a_batching_server_gives_each_request_its_own_audio) {
    auto server = start_serve("batched", {"--batch-size", "4"});
    std::atomic<bool> stop{false};
    std::thread holder;
    CHECK(hold_engine(holder, server->url(), "", stop));
    const std::vector<SynthesisRequest> reqs = {request("The first of three.", 16), request("A second one, longer.", 28),
                                                request("Third.", 20)};
    std::vector<Remote> got(reqs.size());
    std::vector<std::thread> clients;
    for (size_t i = 0; i < reqs.size(); ++i)
        clients.emplace_back([&, i] {
            got[i] = through_backend(server->url(), i == 1 ? RemoteFlavour::VllmOmni : RemoteFlavour::FishSpeech, false, reqs[i], i != 2);
        });
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));   // all three queued behind the holder
    stop = true;
    holder.join();
    for (auto& t : clients) t.join();
    for (size_t i = 0; i < reqs.size(); ++i) check_same(got[i], local_audio(reqs[i], i != 2), i != 2);
    const char* tmp = std::getenv("REEF_TEST_TMP");   // start_serve's folder (temp_dir would empty it)
    const std::string log = reef_test::slurp(std::filesystem::path(tmp ? tmp : "/tmp") / "serve-batched" / "log");
    CHECK(log.find("batch: 3 requests decoding together") != std::string::npos);
}

// Answers in other encodings, as clients ask for them (the fish-audio SDK's default format is mp3,
// OpenAI's response_format takes mp3 and flac, vLLM-Omni's sample_rate): decoded by libsndfile
// and set against this process's own audio. FLAC is 24-bit, so it is the local audio to 2^-23;
// a sample rate is the local audio through the same resampler; MP3 is lossy: its rate, length and
// correlation (another take of the same noise-like audio would correlate near 0). What cannot be answered is refused before any synthesis, with the reason.
TEST_CASE(answers_in_mp3_flac_and_other_sample_rates) {
    const std::string url = shared_server().url();
    const SynthesisRequest r = request("Answers in other encodings.", 24);
    const std::vector<float> want = local_audio(r, false);
    auto post = [&](const std::string& path, const nlohmann::json& body) { return post_greedy(url + path, body, 24); };
    auto decoded = [](const remote::HttpResponse& res) { return audio::read_audio_bytes(res.body, "the answer"); };
    for (const bool openai : {true, false}) {
        const std::string path = openai ? "/v1/audio/speech" : "/v1/tts";
        const char* format_key = openai ? "response_format" : "format";
        const nlohmann::json base = openai ? nlohmann::json{{"input", r.text}} : nlohmann::json{{"text", r.text}};
        std::fprintf(stderr, "  %s\n", path.c_str());
        nlohmann::json body = base;
        body[format_key] = "flac";
        const remote::HttpResponse flac = post(path, body);
        CHECK(flac.ok() && flac.content_type == "audio/flac");
        if (flac.ok()) {
            const audio::AudioData d = decoded(flac);
            CHECK_EQ(d.sample_rate, kSampleRate);
            CHECK(max_diff(d.samples, want) <= 1.5f / 8388608.0f);
        }
        body = base;
        body[format_key] = "wav";
        body["sample_rate"] = 24000;
        const remote::HttpResponse wav24 = post(path, body);
        const std::vector<float> want24 = audio::resample(want, kSampleRate, 24000);
        CHECK(wav24.ok());
        if (wav24.ok()) {
            const audio::AudioData d = decoded(wav24);
            CHECK_EQ(d.sample_rate, 24000);
            CHECK(max_diff(d.samples, want24) <= kWireTolerance);
        }
        body[format_key] = "pcm";
        const remote::HttpResponse pcm24 = post(path, body);
        CHECK(pcm24.ok() && wav24.ok() && pcm24.body == wav24.body.substr(44));   // the WAV's data chunk
        body = base;
        body[format_key] = "mp3";
        const remote::HttpResponse mp3 = post(path, body);
        if (!audio::export_format_available(audio::ExportFormat::Mp3)) {
            std::printf("SKIP mp3: this libsndfile cannot write MP3\n");
            CHECK(mp3.status == 400 && mp3.body.find("wav, pcm or flac") != std::string::npos);
            continue;
        }
        CHECK(mp3.ok() && mp3.content_type == "audio/mpeg");
        if (mp3.ok()) {
            const audio::AudioData d = decoded(mp3);
            CHECK_EQ(d.sample_rate, kSampleRate);
            // LAME's encoder delay and padding: up to two MPEG frames (1152 samples) either way.
            CHECK(std::abs(double(d.frames()) - double(want.size())) <= 2 * 1152);
            double best = 0;   // correlation at the delay that fits best
            for (size_t lag = 0; lag <= 2 * 1152 && lag < d.samples.size(); ++lag) {
                double ab = 0, aa = 0, bb = 0;
                for (size_t i = 0; i < want.size() && i + lag < d.samples.size(); ++i) {
                    ab += double(want[i]) * d.samples[i + lag];
                    aa += double(want[i]) * want[i];
                    bb += double(d.samples[i + lag]) * d.samples[i + lag];
                }
                if (aa > 0 && bb > 0) best = std::max(best, ab / std::sqrt(aa * bb));
            }
            std::fprintf(stderr, "  mp3: %zu bytes, %lld frames for %zu, correlation %.3f\n", mp3.body.size(),
                         d.frames(), want.size(), best);
            CHECK(best > 0.7);   // the demo model's audio is noise-like: 128 kb/s keeps ~0.84 of it
        }
    }
    // Refused before synthesis, naming what is served or why not.
    struct Refusal {
        const char* path;
        nlohmann::json body;
        const char* says;
    };
    const Refusal refusals[] = {
        {"/v1/audio/speech", {{"input", "x"}, {"response_format", "aac"}}, "aac is not served here: wav, pcm"},
        {"/v1/audio/speech", {{"input", "x"}, {"response_format", "flac"}, {"stream", true}}, "flac is answered whole"},
        {"/v1/audio/speech", {{"input", "x"}, {"response_format", "pcm"}, {"stream", true}, {"sample_rate", 16000}},
         "is for whole answers"},
        {"/v1/audio/speech", {{"input", "x"}, {"response_format", "mp3"}, {"sample_rate", 96000}}, "not written at 96000 Hz"},
        {"/v1/audio/speech", {{"input", "x"}, {"sample_rate", 44100.5}}, "must be a whole number of Hz"},
        {"/v1/tts", {{"text", "x"}, {"format", "flac"}, {"streaming", true}}, "Streaming only supports WAV format"},
        {"/v1/tts", {{"text", "x"}, {"format", "opus"}}, "opus is not served here"},
    };
    for (const Refusal& f : refusals) {
        remote::HttpRequest h;
        h.method = "POST";
        h.url = url + f.path;
        h.headers = {"Content-Type: application/json"};
        h.body = f.body.dump();
        const remote::HttpResponse res = remote::http_exchange(h);
        std::fprintf(stderr, "  %s %s -> %ld %s\n", f.path, h.body.c_str(), res.status, res.body.c_str());
        CHECK(res.status == 400 && res.body.find(f.says) != std::string::npos);
    }
}

TEST_CASE(speed_and_volume_as_openai_and_fish_audio_send_them) {
    // OpenAI's "speed" and the Fish Audio SDK's "prosody": {speed, volume} are applied after
    // synthesis: the same take (same seed), tempo-changed by Rubber Band and scaled, whole or streamed.
    const std::string url = shared_server().url();
    const SynthesisRequest r = request("Faster and quieter, please.", 32);
    const std::vector<float> want = local_audio(r, false);
    auto post = [&](const std::string& path, const nlohmann::json& body) { return post_greedy(url + path, body, 32); };
    const std::vector<float> faster = audio::change_tempo(want, kSampleRate, 1.25);
    for (const bool stream : {false, true}) {
        nlohmann::json openai{{"input", r.text}, {"speed", 1.25}, {"response_format", "wav"}};
        nlohmann::json fish{{"text", r.text}, {"prosody", {{"speed", 1.25}, {"volume", -6.0}}}, {"format", "wav"}};
        if (stream) {
            openai["stream_format"] = "audio";
            fish["streaming"] = true;
        }
        const remote::HttpResponse a = post("/v1/audio/speech", openai);
        const remote::HttpResponse f = post("/v1/tts", fish);
        CHECK(a.ok() && f.ok());
        if (!a.ok() || !f.ok()) continue;
        // Whole answers are WAV files; streamed ones raw s16le, after a header with the placeholder
        // size where the protocol sends one.
        auto samples = [&](const remote::HttpResponse& res) {
            if (!stream) return audio::read_audio_bytes(res.body, "the answer").samples;
            std::vector<float> out;
            for (size_t i = res.body.rfind("RIFF", 0) == 0 ? 44 : 0; i + 1 < res.body.size(); i += 2)
                out.push_back(float(int16_t(uint8_t(res.body[i]) | (uint8_t(res.body[i + 1]) << 8))) / 32768.0f);
            return out;
        };
        const std::vector<float> sa = samples(a), sf = samples(f);
        std::fprintf(stderr, "  %s: %zu samples for %zu at speed 1 (%.3f)\n", stream ? "streamed" : "whole", sa.size(),
                     want.size(), double(sa.size()) / double(want.size()));
        CHECK_EQ(sa.size(), faster.size());
        CHECK(max_diff(sa, faster) <= kWireTolerance);
        std::vector<float> quieter = faster;
        for (float& v : quieter) v = float(double(v) * std::pow(10.0, -6.0 / 20.0));
        CHECK(max_diff(sf, quieter) <= kWireTolerance);
    }
    // Out of range: refused, naming the field.
    const remote::HttpResponse slow = post("/v1/audio/speech", {{"input", r.text}, {"speed", 0.25}});
    CHECK(slow.status == 400 && slow.body.find("speed") != std::string::npos);
    const remote::HttpResponse loud = post("/v1/tts", {{"text", r.text}, {"prosody", {{"volume", 40}}}});
    CHECK(loud.status == 400 && loud.body.find("volume") != std::string::npos);
    const remote::HttpResponse junk = post("/v1/tts", {{"text", r.text}, {"prosody", "fast"}});
    CHECK(junk.status == 400 && junk.body.find("prosody") != std::string::npos);
}

TEST_MAIN()
