// reef-cli serve: Reef's native engine behind fish-speech's HTTP API (POST /v1/tts, /v1/health)
// and the OpenAI-compatible one (POST /v1/audio/speech, /v1/models, /health), so desktop Reefs and
// the clients people already use (fish-speech's tools/api_client.py, the fish-audio SDK, the OpenAI
// SDK) can use a machine's engine. Loopback by default; Bearer key; a bounded queue that refuses
// when full; one engine thread.
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "audio/audio_error.h"
#include "cli_engine.h"
#include "remote/base64.h"
#include "serve/listen_address.h"
#include "serve/serve_references.h"
#include "serve/serve_requests.h"
#include "serve/serve_service.h"

namespace reef::cli {
namespace {

using nlohmann::json;

struct ServeOptions {
    EngineFlags engine;
    std::string host = "127.0.0.1", api_key, port_file, listen;
    int port = 8080;
    int queue = 8;
    int batch_size = 1;
    int stream_chunk = 8;
    int max_text_bytes = 100000;
    int max_frames = 0;   // a cap on every request's frames (max_new_tokens); 0: the request's own
    int max_body_mb = 64;
};

httplib::Server* g_server = nullptr;
void on_signal(int) {
    if (g_server) g_server->stop();
}

// fish-speech's error body (tools/server/exception_handler.py) and vLLM's (errors.py).
std::string fish_error(int status, const std::string& message, const std::string& error) {
    return json{{"statusCode", status}, {"message", message}, {"error", error}}.dump();
}
std::string openai_error(int status, const std::string& message, const std::string& type) {
    return json{{"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", status}}}}.dump();
}

// An engine error as a client reads it: the message, and what to do when the engine says.
std::string said(const EngineError& e) { return e.hint.empty() ? e.message : e.message + " (" + e.hint + ")"; }

int status_for(const EngineError& e) {
    switch (e.code) {
    case ErrorCode::InvalidArgument: return 400;
    case ErrorCode::InsufficientMemory: return 503;
    case ErrorCode::Cancelled: return 499;
    default: return 500;
    }
}

std::string reason_for(int status) {
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

class Routes {
public:
    Routes(ServeService& service, const ServeOptions& o, const ModelInfo& info) : m_service(service), m_o(o), m_info(info) {}

    void install(httplib::Server& s) {
        s.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            if (m_o.api_key.empty() || req.get_header_value("Authorization") == "Bearer " + m_o.api_key)
                return httplib::Server::HandlerResponse::Unhandled;
            // fish-speech checks the key on every route, its health check included.
            res.status = 401;
            res.set_header("WWW-Authenticate", "Bearer");
            res.set_content(fish_error(401, "Invalid token", "Unauthorized"), "application/json");
            return httplib::Server::HandlerResponse::Handled;
        });
        auto health = [](const httplib::Request&, httplib::Response& res) {
            res.set_content(R"({"status":"ok"})", "application/json");
        };
        s.Get("/v1/health", health);
        s.Post("/v1/health", health);
        s.Get("/health", [](const httplib::Request&, httplib::Response& res) {
            res.set_content(R"({"status":"healthy"})", "application/json");
        });
        s.Get("/v1/models", [this](const httplib::Request&, httplib::Response& res) {
            // "reef": how this server runs the model, so a studio's takes say what made them
            // (remote_backend.cpp reads it; other clients ignore the extra member).
            const json engine = {{"device", to_string(m_info.device)},       {"precision", to_string(m_info.precision)},
                                 {"compile_mode", m_o.engine.compile},        {"sdpa_policy", m_o.engine.sdpa},
                                 {"cpu_threads", m_info.cpu_threads}};
            res.set_content(json{{"object", "list"},
                                 {"data",
                                  {{{"id", m_info.name}, {"object", "model"}, {"created", 0}, {"owned_by", "reef"}, {"reef", engine}}}}}
                                .dump(),
                            "application/json");
        });
        s.Post("/v1/tts", [this](const httplib::Request& req, httplib::Response& res) { tts(req, res); });
        m_references.install(s);
        s.Post("/v1/audio/speech", [this](const httplib::Request& req, httplib::Response& res) { speech(req, res); });
    }

private:
    void tts(const httplib::Request& req, httplib::Response& res) {
        const std::string type = req.get_header_value("Content-Type");
        json body;
        try {
            if (type.rfind("application/msgpack", 0) == 0)
                body = json::from_msgpack(req.body);
            else if (type.rfind("application/json", 0) == 0)
                body = json::parse(req.body);
            else {
                res.status = 415;
                res.set_header("Accept", "application/msgpack, application/json");
                res.set_content(fish_error(415, "send application/msgpack or application/json", reason_for(415)),
                                "application/json");
                return;
            }
        } catch (const json::exception& e) {
            res.status = 400;
            res.set_content(fish_error(400, std::string("the body cannot be read: ") + e.what(), reason_for(400)),
                            "application/json");
            return;
        }
        Result<SpeechJob> job = parse_fish_tts(body);
        run(job, res, /*openai=*/false);
    }

    void speech(const httplib::Request& req, httplib::Response& res) {
        const json body = json::parse(req.body, nullptr, false);
        if (body.is_discarded()) {
            res.status = 400;
            res.set_content(openai_error(400, "the body is not valid JSON", "BadRequestError"), "application/json");
            return;
        }
        run(parse_openai_speech(body), res, /*openai=*/true);
    }

    void refuse(httplib::Response& res, int status, const std::string& message, bool openai) {
        res.status = status;
        res.set_content(openai ? openai_error(status, message, status == 400 ? "BadRequestError" : "server_error")
                               : fish_error(status, message, reason_for(status)),
                        "application/json");
    }

    void run(const Result<SpeechJob>& parsed, httplib::Response& res, bool openai) {
        if (!parsed) return refuse(res, 400, parsed.error().message, openai);
        SpeechJob spec = parsed.value();
        if (!spec.reference_id.empty()) {   // fish-speech: a stored reference wins over inline ones
            const auto stored = m_references.find(spec.reference_id);
            if (!stored)
                return refuse(res, 404, "no reference with the id " + spec.reference_id + " (see /v1/references/list)", openai);
            spec.clips = {*stored};
        }
        if (int(spec.text.size()) > m_o.max_text_bytes)
            return refuse(res, 400, "Text is too long, max length is " + std::to_string(m_o.max_text_bytes), openai);
        auto job = std::make_shared<ServeJob>();
        job->request.text = spec.text;
        job->request.sampling = spec.sampling;
        if (int& frames = job->request.sampling.max_new_frames; m_o.max_frames > 0)
            frames = frames > 0 ? std::min(frames, m_o.max_frames) : m_o.max_frames;
        // A tempo change needs the whole take: such a job streams its audio once it is complete.
        job->request.stream_chunk_frames = spec.streaming && spec.speed == 1.0 ? m_o.stream_chunk : 0;
        job->clips = spec.clips;
        job->speed = spec.speed;
        job->gain = std::pow(10.0, spec.volume_db / 20.0);
        if (!m_service.submit(job))
            return refuse(res, 503,
                          "the queue is full: " + std::to_string(m_service.queue_limit()) +
                              (m_service.queue_limit() == 1 ? " request is" : " requests are") +
                              " waiting or running; try again later",
                          openai);
        if (!spec.streaming) return whole(*job, spec, res, openai);
        // Streamed: bytes as the engine makes them. A client that goes away cancels the job.
        const bool sse = spec.sse, wav = spec.format == "wav" && openai && !sse;
        const std::string type = sse ? "text/event-stream" : openai ? (wav ? "audio/wav" : "audio/pcm") : "audio/wav";
        res.set_chunked_content_provider(
            type,
            [job, sse, wav, started = false](size_t, httplib::DataSink& sink) mutable {
                if (!started && wav) sink.write(wav_stream_header().data(), wav_stream_header().size());
                started = true;
                if (std::optional<std::vector<float>> piece = job->next()) {
                    std::string bytes = pcm16_bytes(*piece);
                    if (sse)
                        bytes = "event: speech.audio.delta\ndata: " +
                                json{{"type", "speech.audio.delta"}, {"audio", remote::base64_encode(bytes)},
                                     {"response_format", "pcm"}}
                                    .dump() +
                                "\n\n";
                    if (!sink.write(bytes.data(), bytes.size())) {
                        job->cancel();
                        return false;
                    }
                    return true;
                }
                if (sse) {   // the end, or the error, as the last event (the status line is long gone)
                    const std::optional<EngineError> e = job->error();
                    const std::string last =
                        e ? "event: speech.audio.error\ndata: " +
                                json{{"type", "speech.audio.error"},
                                     {"error", {{"message", said(*e)}, {"type", "server_error"}, {"param", nullptr},
                                                {"code", status_for(*e)}}}}
                                    .dump() +
                                "\n\n"
                          : "event: speech.audio.done\ndata: {\"type\":\"speech.audio.done\"}\n\n";
                    sink.write(last.data(), last.size());
                    sink.done();
                    return true;
                }
                // fish-speech's raw stream has no way to say it failed: an error ends it early,
                // without the chunked terminator, so the client sees a cut stream, not a short take.
                if (job->error()) return false;
                sink.done();
                return true;
            },
            [job](bool) { job->cancel(); });
    }

    void whole(ServeJob& job, const SpeechJob& spec, httplib::Response& res, bool openai) {
        std::vector<float> audio;
        while (std::optional<std::vector<float>> piece = job.next()) audio.insert(audio.end(), piece->begin(), piece->end());
        if (const std::optional<EngineError> e = job.error()) return refuse(res, status_for(*e), said(*e), openai);
        try {
            res.set_content(speech_bytes(audio, spec), speech_content_type(spec, openai));
        } catch (const audio::AudioError& e) {   // the parsers refused what the encoder cannot take
            return refuse(res, 500, std::string("encoding the answer failed: ") + e.what(), openai);
        }
    }

    ServeService& m_service;
    ReferenceStore m_references;
    const ServeOptions& m_o;
    ModelInfo m_info;
};

}  // namespace

void register_serve(CLI::App& app) {
    auto o = std::make_shared<ServeOptions>();
    auto* cmd = app.add_subcommand(
        "serve", "serve this machine's engine over HTTP: fish-speech's /v1/tts and the OpenAI-compatible /v1/audio/speech");
    o->engine.add_to(cmd);
    cmd->add_option("--host", o->host, "address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)")
        ->capture_default_str();
    cmd->add_option("--port", o->port, "port (0 = any free one, see --port-file)")->capture_default_str();
    cmd->add_option("--listen", o->listen, "HOST:PORT to listen on, instead of --host and --port ([ADDR]:PORT for IPv6)")
        ->excludes("--host")
        ->excludes("--port");
    cmd->add_option("--port-file", o->port_file, "write the port listened on to this file once ready");
    cmd->add_option("--api-key", o->api_key, "require \"Authorization: Bearer KEY\" on every route; default: $REEF_API_KEY")
        ->envname("REEF_API_KEY");
    cmd->add_option("--queue", o->queue, "requests waiting or running at once; more are refused with 503")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    cmd->add_option("--batch-size", o->batch_size,
                    "requests decoding together: the ones waiting when the engine is free start as one batch "
                    "(1 = one at a time, 0 = auto: as many as half the free memory holds, at most 8)")
        ->check(CLI::Range(0, kMaxBatch))
        ->capture_default_str();
    cmd->add_option("--stream-chunk", o->stream_chunk, "frames per streamed audio piece")->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd->add_option("--max-text", o->max_text_bytes, "longest text accepted, in UTF-8 bytes")->capture_default_str();
    cmd->add_option("--max-frames", o->max_frames,
                    "most audio frames (21.5 a second) one request may make, whatever its max_new_tokens asks "
                    "(0 = as the request asks)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--max-body-mb", o->max_body_mb, "largest request body (reference clips included)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    cmd->callback([o] {
        if (!o->listen.empty()) {
            const auto address = parse_listen_address(o->listen);
            if (const auto* why = std::get_if<std::string>(&address)) fail(*why);
            o->host = std::get<ListenAddress>(address).host;
            o->port = std::get<ListenAddress>(address).port;
        }
        if (o->host != "127.0.0.1" && o->host != "localhost" && o->host != "::1" && o->api_key.empty())
            std::cerr << "warning: listening on " << o->host << " without --api-key: anyone who can reach it can use it\n";
        ServeService service(o->engine.to_config(), o->queue, o->batch_size);
        const Result<ModelInfo> info = service.load_result();
        if (!info) fail(info.error());
        std::cerr << "loaded " << info->name << " on " << to_string(info->device) << " " << to_string(info->precision) << "\n";

        httplib::Server server;
        // Handler threads: the queue's worth plus a few for health checks and refusals.
        const size_t threads = size_t(o->queue) + 4;
        server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
        server.set_payload_max_length(size_t(o->max_body_mb) << 20);
        // A stop waits for each idle keep-alive connection's read to time out: keep that short.
        server.set_read_timeout(10, 0);
        server.set_keep_alive_timeout(3);
        server.set_write_timeout(60, 0);
        Routes routes(service, *o, info.value());
        routes.install(server);
        const int port = o->port == 0 ? server.bind_to_any_port(o->host) : (server.bind_to_port(o->host, o->port) ? o->port : -1);
        if (port <= 0) fail("cannot listen on " + o->host + ":" + std::to_string(o->port) + " (in use, or not an address of this machine)");
        if (!o->port_file.empty()) {
            const std::string tmp = o->port_file + ".tmp";
            std::ofstream(tmp) << port;
            std::rename(tmp.c_str(), o->port_file.c_str());
        }
        std::cerr << "listening on http://" << o->host << ":" << port << " (fish-speech /v1/tts, OpenAI /v1/audio/speech)"
                  << (o->api_key.empty() ? "" : ", key required") << "\n";
        g_server = &server;
        std::signal(SIGINT, on_signal);
        std::signal(SIGTERM, on_signal);
        server.listen_after_bind();
        g_server = nullptr;
        std::cerr << "stopped\n";
    });
}

}  // namespace reef::cli
