// The remote backend against replay servers (tests/remote/replay_server.py) that speak fish-speech's,
// SGLang-Omni's and vLLM-Omni's documented wire formats, and against servers that misbehave. The
// audio is a tone the server computes; the test computes it again here and compares every sample.
// What the client sent is read back from the server's record, not asked of the client.
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>

#include "check.h"
#include "child_server.h"
#include "reef/remote.h"
#include "remote/load_bench.h"
#include "remote/base64.h"
#include "remote/sse_parser.h"

using namespace reef;
using nlohmann::json;

namespace {

constexpr int kToneSamples = 44100;

std::vector<float> expected_tone(int n = kToneSamples) {
    std::vector<float> out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        // The server's s16 value, read back as Reef reads 16-bit PCM (/ 32768).
        const double v = std::round(0.5 * 32767 * std::sin(2 * M_PI * 440 * i / 44100.0));
        out[size_t(i)] = float(v / 32768.0);
    }
    return out;
}

using reef_test::slurp;

// The replay server; it exits when its stdin closes (this process ending).
class ReplayServer {
public:
    ReplayServer()
        : m_dir(reef_test::temp_dir("remote-replay")),
          m_child({"python3", std::string(std::getenv("REEF_SOURCE_DIR")) + "/tests/remote/replay_server.py",
                   "--port-file", (m_dir / "port").string(), "--record-dir", m_dir.string()},
                  m_dir / "port", m_dir / "log", 20) {}
    std::string url(const std::string& scenario) const { return m_child.url("/" + scenario); }
    std::string body(const std::string& scenario) const { return slurp(m_dir / (scenario + ".body")); }
    std::string headers(const std::string& scenario) const { return slurp(m_dir / (scenario + ".headers")); }
    const std::filesystem::path& dir() const { return m_dir; }

private:
    std::filesystem::path m_dir;
    reef_test::ChildServer m_child;
};

ReplayServer& server() {
    static ReplayServer s;
    return s;
}

// A port nothing listens on: bound, then closed.
int closed_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
}

struct Run {
    Result<SynthesisResult> result = EngineError{};
    std::vector<AudioChunk> chunks;
    std::string load_error;
    std::string model_type;
};

ServerProfile profile(const std::string& scenario, RemoteFlavour flavour = RemoteFlavour::Auto) {
    ServerProfile p;
    p.url = server().url(scenario);
    p.flavour = flavour;
    return p;
}

SynthesisRequest request(const std::string& text = "Hello from Reef.") {
    SynthesisRequest r;
    r.id = 7;
    r.text = text;
    r.sampling.seed = 18446744073709551557ULL;
    r.sampling.temperature = 0.7f;
    r.sampling.top_p = 0.75f;
    r.sampling.top_k = 25;
    r.sampling.chunk_length = 0;
    r.sampling.max_new_frames = 200;
    return r;
}

Run run(const ServerProfile& p, SynthesisRequest r, bool stream = true, std::function<bool()> abort = {}) {
    Run out;
    auto backend = make_remote_backend(p);
    auto info = backend->load(EngineConfig{});
    if (!info) {
        out.load_error = info.error().to_string();
        return out;
    }
    out.model_type = info->model_type;
    Callbacks cb;
    if (stream) cb.on_audio_chunk = [&](const AudioChunk& c) { out.chunks.push_back(c); };
    cb.should_abort = std::move(abort);
    out.result = backend->synthesize(r, cb);
    return out;
}

std::string error_of(const Run& r) {
    if (!r.load_error.empty()) return r.load_error;
    return r.result.ok() ? std::string() : r.result.error().to_string();
}

bool contains(const std::string& s, const std::string& part) {
    if (s.find(part) != std::string::npos) return true;
    std::fprintf(stderr, "  expected \"%s\" in: %s\n", part.c_str(), s.c_str());
    return false;
}

// The streamed chunks join into exactly the tone, in order, the last one marked.
void check_tone(const Run& r, bool streamed) {
    CHECK(r.result.ok());
    if (!r.result.ok()) {
        std::fprintf(stderr, "  error: %s\n", error_of(r).c_str());
        return;
    }
    const std::vector<float> tone = expected_tone();
    CHECK(r.result->audio == tone);
    CHECK_NEAR(r.result->metrics.audio_seconds, 1.0, 1e-9);
    CHECK(r.result->metrics.time_to_first_audio_ms > 0);
    if (!streamed) return;
    CHECK(r.chunks.size() >= 2);
    std::vector<float> joined;
    for (size_t i = 0; i < r.chunks.size(); ++i) {
        CHECK_EQ(r.chunks[i].first_sample, int64_t(joined.size()));
        CHECK_EQ(r.chunks[i].request_id, uint64_t(7));
        CHECK(r.chunks[i].last == (i + 1 == r.chunks.size()));
        joined.insert(joined.end(), r.chunks[i].samples.begin(), r.chunks[i].samples.end());
    }
    CHECK(joined == tone);
}

std::filesystem::path reference_clip() {
    const auto p = reef_test::temp_dir("remote-clip") / "voice.wav";
    std::ofstream out(p, std::ios::binary);
    std::string bytes = "RIFF-not-really-a-wav-but-bytes-the-server-must-get-unchanged";
    for (int i = 0; i < 300; ++i) bytes.push_back(char(i & 0xFF));
    out << bytes;
    return p;
}

}  // namespace

TEST_CASE(fish_speech_streams_the_tone_and_gets_msgpack) {
    SynthesisRequest r = request();
    const auto clip = reference_clip();
    r.references.push_back({"This is my voice.", clip.string(), {}});
    const Run out = run(profile("fish"), r);
    CHECK((out.model_type) == std::string("remote:fish-speech"));
    check_tone(out, true);
    // What the server received, decoded independently of how it was built.
    const json body = json::from_msgpack(server().body("fish"));
    CHECK((body["text"].get<std::string>()) == std::string("Hello from Reef."));
    CHECK(body["streaming"].get<bool>());
    CHECK_EQ(body["seed"].get<uint64_t>(), uint64_t(18446744073709551557ULL));
    CHECK_EQ(body["chunk_length"].get<int>(), 1000);   // Reef's "no limit" is fish-speech's most
    CHECK((body["format"].get<std::string>()) == std::string("wav"));
    CHECK_NEAR(body["temperature"].get<double>(), 0.7, 1e-6);
    CHECK_EQ(body["max_new_tokens"].get<int>(), 200);
    const auto& audio = body["references"][0]["audio"];
    CHECK(audio.is_binary());
    const std::string clip_bytes = slurp(clip);
    CHECK(std::string(audio.get_binary().begin(), audio.get_binary().end()) == clip_bytes);
    CHECK((body["references"][0]["text"].get<std::string>()) == std::string("This is my voice."));
    const std::string headers = server().headers("fish");
    CHECK(contains(headers, "Content-Type: application/msgpack"));
    CHECK(headers.find("Authorization") == std::string::npos);
}

TEST_CASE(fish_speech_without_streaming_reads_the_wav) {
    check_tone(run(profile("fish"), request(), /*stream=*/false), false);
    CHECK(!json::from_msgpack(server().body("fish"))["streaming"].get<bool>());
}

TEST_CASE(the_api_key_is_sent_and_a_wrong_one_is_named) {
    const Run without = run(profile("fish-auth"), request());
    CHECK(contains(error_of(without), "refused the API key"));
    CHECK(contains(error_of(without), "Invalid token"));
    ServerProfile p = profile("fish-auth");
    p.api_key = "sekret";
    check_tone(run(p, request()), true);
    CHECK(contains(server().headers("fish-auth"), "Authorization: Bearer sekret"));
}

TEST_CASE(openai_compatible_servers_stream_their_sse_formats) {
    const auto clip = reference_clip();
    const std::string clip_bytes = slurp(clip);
    for (const char* scenario : {"sglang", "sglang-old", "vllm"}) {
        std::fprintf(stderr, "  %s\n", scenario);
        SynthesisRequest r = request();
        r.references.push_back({"This is my voice.", clip.string(), {}});
        const Run out = run(profile(scenario), r);
        check_tone(out, true);
        const bool vllm = std::string(scenario) == "vllm";
        CHECK((out.model_type) == std::string(vllm ? "remote:vllm-omni" : "remote:sglang-omni"));
        const json body = json::parse(server().body(scenario));
        CHECK((body["input"].get<std::string>()) == std::string("Hello from Reef."));
        CHECK((body["model"].get<std::string>()) == std::string("fishaudio/s2-pro"));   // the server's first
        CHECK(body["stream"].get<bool>());
        CHECK((body["response_format"].get<std::string>()) == std::string("pcm"));
        CHECK_EQ(body["seed"].get<uint64_t>(), uint64_t(18446744073709551557ULL));
        if (vllm) {   // sampling in extra_params; the clip as a data URL with its transcript
            CHECK_NEAR(body["extra_params"]["temperature"].get<double>(), 0.7, 1e-6);
            CHECK_EQ(body["extra_params"]["top_k"].get<int>(), 25);
            const std::string url = body["ref_audio"].get<std::string>();
            const std::string prefix = "data:audio/wav;base64,";
            CHECK(url.rfind(prefix, 0) == 0);
            CHECK((body["ref_text"].get<std::string>()) == std::string("This is my voice."));
            CHECK(!body.contains("temperature"));
        } else {
            CHECK_NEAR(body["temperature"].get<double>(), 0.7, 1e-6);
            CHECK_EQ(body["top_k"].get<int>(), 25);
            CHECK((body["references"][0]["text"].get<std::string>()) == std::string("This is my voice."));
            CHECK((body["references"][0]["media_type"].get<std::string>()) == std::string("audio/wav"));
        }
    }
    // The clip inside vLLM's data URL decodes to the file's bytes: checked with Python's base64,
    // not with the client's own decoder.
    const json body = json::parse(server().body("vllm"));
    const std::string b64 = body["ref_audio"].get<std::string>().substr(std::string("data:audio/wav;base64,").size());
    const auto check_file = server().dir() / "b64.txt";
    std::ofstream(check_file) << b64;
    const std::string cmd = "python3 -c \"import base64,sys; sys.stdout.buffer.write(base64.b64decode(open('" +
                            check_file.string() + "').read()))\" > " + (server().dir() / "decoded.bin").string();
    CHECK_EQ(std::system(cmd.c_str()), 0);
    CHECK(slurp(server().dir() / "decoded.bin") == clip_bytes);
}

TEST_CASE(openai_servers_without_streaming_read_the_wav) {
    for (const char* scenario : {"sglang", "vllm"}) check_tone(run(profile(scenario), request(), false), false);
    CHECK(!json::parse(server().body("vllm"))["stream"].get<bool>());
}

TEST_CASE(bad_servers_get_clear_errors) {
    struct Bad {
        std::string scenario;
        bool stream;
        std::vector<std::string> says;
        RemoteFlavour flavour = RemoteFlavour::Auto;
        int max_frames = 200;
    };
    const std::vector<Bad> cases = {
        {"fish-422", true, {"refused the request", "422", "temperature: Input should be greater than or equal to 0.1"}},
        {"fish-500", true, {"server failed", "500", "Failed to generate speech"}},
        {"fish-403", true, {"refused the API key", "403", "This key may not use /v1/tts"}},
        {"fish-413", true, {"refused the request", "413", "Request body is too large"}},
        {"fish-415", true, {"refused the request", "415 unsupported media type"}},
        {"fish-empty", false, {"empty body"}},
        {"fish-html", false, {"not audio Reef can read", "text/html"}},
        {"fish-cut", true, {"closed the connection before synthesis was complete"}},
        {"fish-long", true, {"far more audio than was asked for"}, RemoteFlavour::Auto, 5},
        {"redirect", true, {"redirects /v1/health to https://elsewhere.example/v1/health", "does not follow redirects"}},
        {"html", true, {"does not look like fish-speech, SGLang-Omni or vLLM-Omni", "text/html"}},
        {"sglang", true, {"has no /v1/health", "flavour"}, RemoteFlavour::FishSpeech},
        {"sglang-400", true, {"refused the request", "Streaming requires response_format='pcm'"}},
        {"sse-malformed", true, {"malformed stream event"}},
        {"sse-badb64", true, {"not valid base64"}},
        {"sse-truncated", true, {"ended without its final event"}},
        {"vllm-error", true, {"failed while streaming", "CUDA out of memory"}},
    };
    for (const Bad& b : cases) {
        std::fprintf(stderr, "  %s\n", b.scenario.c_str());
        SynthesisRequest r = request();
        r.sampling.max_new_frames = b.max_frames;
        const Run out = run(profile(b.scenario, b.flavour), r, b.stream);
        const std::string error = error_of(out);
        CHECK(!error.empty());
        for (const std::string& part : b.says) CHECK(contains(error, part));
        std::fprintf(stderr, "    -> %s\n", error.c_str());
    }
}

TEST_CASE(an_older_sglang_refusing_an_inline_clip_is_explained) {
    SynthesisRequest r = request();
    r.references.push_back({"This is my voice.", reference_clip().string(), {}});
    const std::string error = error_of(run(profile("sglang-oldref"), r));
    CHECK(contains(error, "audio_path is required"));      // the server's own words
    CHECK(contains(error, "may not take inline reference clips"));
    check_tone(run(profile("sglang-oldref"), request()), true);   // without a clip it speaks
}

TEST_CASE(tls_to_a_plain_server_fails_clearly) {
    // https:// to a server that speaks plain HTTP: the handshake fails, and the message says so.
    ServerProfile p = profile("fish");
    p.url.replace(0, 4, "https");
    const std::string error = error_of(run(p, request()));
    CHECK(contains(error, "secure connection to the server failed"));
    CHECK(contains(error, "scheme is right"));
}

TEST_CASE(a_hanging_server_times_out) {
    ServerProfile p = profile("fish-hang");
    p.idle_timeout_s = 1;
    const std::string error = error_of(run(p, request()));
    CHECK(contains(error, "stopped answering"));
}

TEST_CASE(nothing_listening_and_bad_addresses) {
    ServerProfile p;
    p.url = "http://127.0.0.1:" + std::to_string(closed_port());
    const std::string refused = error_of(run(p, request()));
    CHECK(contains(refused, "cannot reach the server"));
    CHECK(contains(refused, "Is the server running"));
    for (const char* url : {"ftp://127.0.0.1/", "127.0.0.1:8080", "http://", ""}) {
        ServerProfile bad;
        bad.url = url;
        CHECK(contains(error_of(run(bad, request())), "not a server address"));
    }
}

TEST_CASE(cancel_mid_stream_stops_reading) {
    int seen = 0;
    Run out;
    std::vector<AudioChunk> chunks;
    auto backend = make_remote_backend(profile("fish-slow"));
    CHECK(backend->load(EngineConfig{}).ok());
    Callbacks cb;
    cb.on_audio_chunk = [&](const AudioChunk& c) { chunks.push_back(c), ++seen; };
    cb.should_abort = [&] { return seen > 0; };
    const auto r = backend->synthesize(request(), cb);
    CHECK(!r.ok());
    CHECK(!r.ok() && r.error().code == ErrorCode::Cancelled);
    // The server sends 8 pieces 0.3 s apart; the cancel came after the first chunk.
    int64_t samples = 0;
    for (const AudioChunk& c : chunks) samples += int64_t(c.samples.size());
    CHECK(samples < kToneSamples);
}

TEST_CASE(empty_text_and_no_load) {
    auto backend = make_remote_backend(profile("fish"));
    CHECK(backend->synthesize(request(), {}).error().code == ErrorCode::NotLoaded);
    CHECK(backend->load(EngineConfig{}).ok());
    CHECK(backend->synthesize(request("  \n"), {}).error().code == ErrorCode::InvalidArgument);
}

TEST_CASE(sse_parser_reads_the_event_stream_format_in_any_pieces) {
    // CRLF, CR and LF line ends, a comment, a multi-line data field, an event name, a field
    // without a space, an event with no data (not dispatched), and a last event without its
    // blank line (dispatched by finish), fed one byte at a time and all at once.
    const std::string stream = ": keep-alive\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nid: 5\n\n"
                               "data: {\"x\": 1}\r\rdata: last\ndata: part";   // "part" has no line end: dropped
    for (const bool bytewise : {true, false}) {
        std::vector<remote::SseEvent> got;
        remote::SseParser p([&](const remote::SseEvent& e) { got.push_back(e); return true; });
        if (bytewise)
            for (char c : stream) CHECK(p.feed(std::string_view(&c, 1)));
        else
            CHECK(p.feed(stream));
        CHECK(p.finish());
        CHECK_EQ(got.size(), size_t(3));
        if (got.size() != 3) continue;
        CHECK(got[0].event == "a" && got[0].data == "one\ntwo");
        CHECK(got[1].event.empty() && got[1].data == "{\"x\": 1}");
        CHECK(got[2].data == "last");   // a whole line without its blank line: kept
    }
    // An event larger than the limit stops the parser with a reason.
    remote::SseParser small([](const remote::SseEvent&) { return true; }, 16);
    CHECK(!small.feed("data: " + std::string(64, 'x')));
    CHECK(!small.error().empty());
}

TEST_CASE(base64_round_trips_and_refuses_garbage) {
    std::string all;
    for (int i = 0; i < 256; ++i) all.push_back(char(i));
    for (size_t n = 0; n < 8; ++n) {
        const std::string part = all.substr(0, n);
        CHECK(remote::base64_decode(remote::base64_encode(part)) == part);
    }
    CHECK(remote::base64_encode("Reef") == "UmVlZg==");   // RFC 4648 test vector style
    CHECK(remote::base64_decode("UmVl\nZg==") == std::string("Reef"));
    CHECK(!remote::base64_decode("!!!!").has_value());
    CHECK(!remote::base64_decode("UmVlZg==QQ==").has_value());
    CHECK(!remote::base64_decode("U").has_value());
}

TEST_CASE(the_serving_bench_counts_failures_with_their_message) {
    LoadBenchRequest req;
    req.profile = profile("fish-500");
    req.concurrency = {2};
    req.requests_per_level = 4;
    req.request = request();
    const Result<LoadBenchReport> report = run_load_bench(req);
    CHECK(report.ok());
    if (!report.ok()) return;
    const LoadBenchLevel& l = report->levels.at(0);
    CHECK_EQ(l.failed, 4);
    CHECK_EQ(l.ok, 0);
    CHECK_EQ(l.errors.size(), size_t(1));   // one message, listed once
    CHECK(!l.errors.empty() && contains(l.errors[0], "Failed to generate speech"));
    CHECK(contains(load_bench_markdown(report.value()), "failures at concurrency 2"));
    // An unreachable server is one error, not a report of failures.
    req.profile.url = "http://127.0.0.1:" + std::to_string(closed_port());
    const Result<LoadBenchReport> none = run_load_bench(req);
    CHECK(!none.ok() && contains(none.error().message, "cannot reach the server"));
}

TEST_MAIN()
