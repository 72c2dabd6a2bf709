// The public engine API on a tiny demo model: load, synthesize with streaming audio, cancel,
// determinism, SDPA policies and KV modes, and bad input. Only the public headers are used.
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include "check.h"
#include "demo_models.h"
#include "reef/cpu_kernels.h"
#include "reef/engine.h"
#include "reef/sampling_settings.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

const std::string& demo_dir(const std::string& layout) { return reef_test::tiny_demo_dir("pipeline_models", layout, 1234); }

EngineConfig config_for(const std::string& layout) {
    EngineConfig c;
    c.model_dir = demo_dir(layout);
    return c;
}

SynthesisRequest greedy_request(int frames = 12) {
    SynthesisRequest r;
    r.id = 7;
    r.text = "Hello from Reef.";
    r.sampling.temperature = 0;
    r.sampling.max_new_frames = frames;
    r.stream_chunk_frames = 4;
    return r;
}

}  // namespace

TEST_CASE(loads_demo_model_and_streams_audio) {
    Engine engine;
    auto info = engine.load(config_for("s2"));
    CHECK(info.ok());
    if (!info) return;
    CHECK(info->is_demo);
    CHECK(info->n_parameters > 0);
    CHECK(info->num_codebooks == 10);
    std::vector<float> streamed;
    int frames = 0, chunks = 0;
    bool saw_last = false;
    Callbacks cb;
    cb.on_frame = [&](uint64_t id, int, const std::vector<int32_t>& col) { CHECK(id == 7); CHECK(col.size() == 11); ++frames; };
    cb.on_audio_chunk = [&](const AudioChunk& c) {
        CHECK(c.first_sample == int64_t(streamed.size()));
        streamed.insert(streamed.end(), c.samples.begin(), c.samples.end());
        saw_last = c.last;
        ++chunks;
    };
    auto r = engine.synthesize(greedy_request(), cb);
    CHECK(r.ok());
    if (!r) { std::fprintf(stderr, "%s\n", r.error().to_string().c_str()); return; }
    CHECK(r->codes.n_codebooks == 10);
    CHECK_EQ(r->codes.n_frames, frames);
    CHECK(frames >= 1 && frames <= 12);
    CHECK_EQ(int64_t(r->audio.size()), int64_t(frames) * kSamplesPerFrame);
    CHECK(streamed == r->audio);
    CHECK(saw_last);
    CHECK(chunks >= 2 || frames <= 4);
    for (float s : r->audio) CHECK(s >= -1.0f && s <= 1.0f);
    CHECK(r->metrics.time_to_first_audio_ms > 0);
    CHECK(!r->metrics.backends.empty());
    // each decode step's thread count reaches the facade, within the load's count
    CHECK_EQ(r->metrics.step_threads.size(), r->metrics.step_ms.size());
    for (const int n : r->metrics.step_threads) CHECK(n >= 1 && n <= info->cpu_threads);
    // Decoding the returned codes in one go gives the streamed audio (chunked == whole).
    auto whole = engine.decode_codes(r->codes);
    CHECK(whole.ok());
    if (whole) {
        double worst = 0;
        for (size_t i = 0; i < whole->size(); ++i) worst = std::max(worst, double(std::fabs((*whole)[i] - r->audio[i])));
        CHECK(worst < 1e-4);
    }
}

// Streamed audio decodes on the codec worker (EngineConfig::codec_worker, the default): chunks
// arrive in order from one thread other than the caller's, their concatenation is the result's
// audio, equals decoding the codes in one go and the old inline path, and the codec window's
// backend recorded on the worker reaches the metrics.
TEST_CASE(codec_worker_streams_in_order_and_equals_the_whole_decode) {
    std::vector<float> per_path[2];
    std::vector<int32_t> codes_of[2];
    for (int worker = 1; worker >= 0; --worker) {
        Engine engine;
        EngineConfig c = config_for("s2");
        c.codec_worker = worker == 1;
        c.codec_threads = 1;
        CHECK(engine.load(c).ok());
        SynthesisRequest r = greedy_request(24);
        r.sampling.temperature = 0.7f;  // sampled: the tiny model runs longer before <|im_end|>
        r.sampling.seed = 5;
        r.stream_chunk_frames = 3;
        std::vector<float> streamed;
        std::set<std::thread::id> emitters;
        int chunks = 0;
        bool saw_last = false;
        Callbacks cb;
        cb.on_audio_chunk = [&](const AudioChunk& ch) {
            CHECK(!saw_last);  // nothing after the last chunk
            CHECK_EQ(ch.first_sample, int64_t(streamed.size()));
            streamed.insert(streamed.end(), ch.samples.begin(), ch.samples.end());
            saw_last = ch.last;
            emitters.insert(std::this_thread::get_id());
            ++chunks;
        };
        auto res = engine.synthesize(r, cb);
        CHECK(res.ok());
        if (!res) { std::fprintf(stderr, "%s\n", res.error().to_string().c_str()); continue; }
        std::fprintf(stderr, "codec worker %s: %d frames, %d chunks\n", worker ? "on" : "off", res->metrics.frames, chunks);
        CHECK(saw_last);
        CHECK(res->metrics.frames >= 4);
        CHECK(chunks >= 2);
        CHECK(streamed == res->audio);
        CHECK_EQ(int64_t(res->audio.size()), int64_t(res->metrics.frames) * kSamplesPerFrame);
        CHECK_EQ(emitters.size(), size_t(1));
        CHECK((*emitters.begin() != std::this_thread::get_id()) == (worker == 1));
        const RunMetrics& m = res->metrics;
        CHECK(m.codec_ms > 0);
        CHECK(m.time_to_first_audio_ms > 0 && m.time_to_first_audio_ms <= m.total_ms);
        CHECK(m.generation_ms > 0 && m.generation_ms + m.codec_wait_ms <= m.total_ms + 1e-6);
        bool codec_site = false;
        for (const auto& b : m.backends) codec_site = codec_site || (b.site == CallSite::CodecWindow && b.calls > 0);
        CHECK(codec_site);
        auto whole = engine.decode_codes(res->codes);
        CHECK(whole.ok());
        if (whole) {
            CHECK_EQ(whole->size(), res->audio.size());
            double worst = 0;
            for (size_t i = 0; i < whole->size() && i < res->audio.size(); ++i)
                worst = std::max(worst, double(std::fabs((*whole)[i] - res->audio[i])));
            CHECK(worst < 1e-4);
        }
        per_path[worker] = res->audio;
        codes_of[worker] = res->codes.data;
    }
    CHECK(codes_of[0] == codes_of[1]);
    CHECK_EQ(per_path[0].size(), per_path[1].size());
    double worst = 0;
    for (size_t i = 0; i < per_path[0].size() && i < per_path[1].size(); ++i)
        worst = std::max(worst, double(std::fabs(per_path[0][i] - per_path[1][i])));
    CHECK(worst < 1e-5);
}

// A request no one listens to live (listened_live = false), without a codec worker: its audio
// is decoded in one piece after the last frame (one chunk, after every on_frame): the whole decode
// of its codes, bit for bit, and the same codes as the request streamed live.
TEST_CASE(unlistened_audio_decodes_whole_after_the_last_frame) {
    Engine engine;
    EngineConfig c = config_for("s2");
    c.codec_worker = false;
    CHECK(engine.load(c).ok());
    std::vector<int32_t> codes[2];
    for (int live = 1; live >= 0; --live) {
        SynthesisRequest r = greedy_request(24);
        r.sampling.temperature = 0.7f;
        r.sampling.seed = 5;
        r.stream_chunk_frames = 3;
        r.listened_live = live == 1;
        int frames = 0, chunks = 0, frames_at_first_chunk = -1;
        Callbacks cb;
        cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++frames; };
        cb.on_audio_chunk = [&](const AudioChunk&) {
            if (frames_at_first_chunk < 0) frames_at_first_chunk = frames;
            ++chunks;
        };
        auto res = engine.synthesize(r, cb);
        CHECK(res.ok());
        if (!res) { std::fprintf(stderr, "%s\n", res.error().to_string().c_str()); return; }
        CHECK(res->metrics.frames >= 7);  // three chunks at least when streamed
        codes[live] = res->codes.data;
        if (live) {
            CHECK(chunks >= 3);
            CHECK(frames_at_first_chunk < res->metrics.frames);   // streamed as it went
            continue;
        }
        CHECK_EQ(chunks, 1);
        CHECK_EQ(frames_at_first_chunk, res->metrics.frames);     // after the last frame
        auto whole = engine.decode_codes(res->codes);
        CHECK(whole.ok());
        if (whole) CHECK(*whole == res->audio);
    }
    CHECK(codes[0] == codes[1]);
}

// Stop while the worker is behind (a slow consumer of the chunks): the call returns Cancelled
// within about one chunk, the queued chunks are dropped, nothing is emitted after it returned,
// and the engine is ready for the next request. The stop comes on an event (frames generated and a
// chunk being consumed), and "promptly" is measured against this test's own consumer delay.
TEST_CASE(cancel_while_the_codec_worker_streams_returns_promptly_and_emits_nothing_after) {
    constexpr int kConsumerMs = 200;  // a consumer slower than generation: a backlog of chunks builds
    Engine engine;
    EngineConfig c = config_for("s2");
    c.codec_worker = true;  // on whatever the cores (automatic is off where generation has them all)
    c.codec_threads = 1;
    CHECK(engine.load(c).ok());
    SynthesisRequest r = greedy_request(200);
    r.sampling.temperature = 0.7f;
    r.sampling.seed = 5;
    r.stream_chunk_frames = 1;
    std::atomic<int> frames{0}, chunks{0}, after_return{0};
    std::atomic<bool> returned{false};
    std::chrono::steady_clock::time_point aborted{};
    int frames_at_abort = 0, chunks_at_abort = 0;
    Callbacks cb;
    cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++frames; };
    cb.on_audio_chunk = [&](const AudioChunk&) {
        if (returned) ++after_return;
        ++chunks;
        std::this_thread::sleep_for(std::chrono::milliseconds(kConsumerMs));
    };
    cb.should_abort = [&] {  // while the worker is inside the first chunk's callback
        if (frames.load() < 6 || chunks.load() < 1) return false;
        if (aborted == std::chrono::steady_clock::time_point{}) {
            aborted = std::chrono::steady_clock::now();
            frames_at_abort = frames.load();
            chunks_at_abort = chunks.load();
        }
        return true;
    };
    auto res = engine.synthesize(r, cb);
    returned = true;
    CHECK(aborted != std::chrono::steady_clock::time_point{});  // the stop really came mid-stream
    const double cancel_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - aborted).count();
    const int chunks_at_return = chunks.load();
    CHECK(!res.ok());
    if (!res) CHECK(res.error().code == ErrorCode::Cancelled);
    // One chunk per frame was posted; those not yet started at the stop were queued behind the one
    // being consumed.
    const int backlog = frames_at_abort - chunks_at_abort;
    std::fprintf(stderr, "cancelled after %d frames (%d queued chunks), %d chunks, in %.0f ms\n", frames.load(),
                 backlog, chunks_at_return, cancel_ms);
    // Returned within the running chunk (its consumer: at most kConsumerMs) plus half of what the
    // queued chunks would take: a stop that let the worker work through the backlog takes all of it.
    CHECK(cancel_ms < kConsumerMs * (1 + 0.5 * backlog));
    CHECK(chunks_at_return < frames.load() - 1);  // the backlog was dropped
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK_EQ(after_return.load(), 0);
    CHECK_EQ(chunks.load(), chunks_at_return);
    r.sampling.max_new_frames = 8;
    auto next = engine.synthesize(r, {});
    CHECK(next.ok());
}

// An exception on the codec worker (here from the chunk callback) comes out of the facade as the
// same error value as when the chunk decodes on the generation thread, and the engine stays ready.
TEST_CASE(an_error_on_the_codec_worker_becomes_the_facade_error) {
    std::string message[2];
    ErrorCode code[2] = {ErrorCode::Internal, ErrorCode::Internal};
    for (int worker = 0; worker < 2; ++worker) {
        Engine engine;
        EngineConfig c = config_for("s2");
        c.codec_worker = worker == 1;
        c.codec_threads = 1;
        CHECK(engine.load(c).ok());
        SynthesisRequest r = greedy_request(24);
        r.stream_chunk_frames = 2;
        Callbacks cb;
        cb.on_audio_chunk = [](const AudioChunk&) { throw std::runtime_error("the audio device went away"); };
        auto res = engine.synthesize(r, cb);
        CHECK(!res.ok());
        if (!res) {
            code[worker] = res.error().code;
            message[worker] = res.error().message;
        }
        auto next = engine.synthesize(greedy_request(6), {});
        CHECK(next.ok());
    }
    CHECK(code[1] == code[0]);
    CHECK(message[1] == message[0]);
    CHECK(message[1] == std::string("synthesize: the audio device went away"));
}

TEST_CASE(same_seed_same_codes_and_cancel_leaves_engine_ready) {
    Engine engine;
    CHECK(engine.load(config_for("s2")).ok());
    SynthesisRequest r = greedy_request(10);
    r.sampling.temperature = 0.8f;
    r.sampling.seed = 99;
    r.decode_audio = false;
    auto a = engine.synthesize(r, {});
    auto b = engine.synthesize(r, {});
    CHECK(a.ok() && b.ok());
    if (a && b) CHECK(a->codes.data == b->codes.data);

    Callbacks cancel;
    std::atomic<int> seen{0};
    cancel.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++seen; };
    cancel.should_abort = [&] { return seen.load() >= 3; };
    r.sampling.max_new_frames = 50;
    auto c = engine.synthesize(r, cancel);
    CHECK(!c.ok());
    if (!c) CHECK(c.error().code == ErrorCode::Cancelled);
    CHECK(seen.load() <= 4);
    r.sampling.max_new_frames = 10;
    auto d = engine.synthesize(r, {});
    CHECK(d.ok());
    if (a && d) CHECK(a->codes.data == d->codes.data);
}

TEST_CASE(every_cpu_backend_and_kv_mode_gives_the_same_greedy_codes) {
    std::vector<int32_t> reference;
    for (auto policy : {SdpaPolicy::Math, SdpaPolicy::Flash, SdpaPolicy::Auto, SdpaPolicy::FishSpeech, SdpaPolicy::Reef})
        for (auto kv : {KvMode::ActivePrefix, KvMode::Full}) {
            if (policy == SdpaPolicy::Reef && !cpu_kernel_info().built) continue;  // no kernel of Reef's to run
            Engine engine;
            EngineConfig c = config_for("s2");
            c.sdpa_policy = policy;
            c.kv_mode = kv;
            CHECK(engine.load(c).ok());
            SynthesisRequest r = greedy_request(10);
            r.decode_audio = false;
            auto res = engine.synthesize(r, {});
            CHECK(res.ok());
            if (!res) { std::fprintf(stderr, "%s %s: %s\n", to_string(policy), to_string(kv), res.error().to_string().c_str()); continue; }
            if (reference.empty()) reference = res->codes.data;
            CHECK(res->codes.data == reference);
        }
}

TEST_CASE(forced_backend_that_cannot_run_is_a_clear_error_and_engine_stays_ready) {
    Engine engine;
    EngineConfig c = config_for("s2");
    c.sdpa_policy = SdpaPolicy::Efficient;  // CUDA-only kernel
    CHECK(engine.load(c).ok());
    auto r = engine.synthesize(greedy_request(4), {});
    CHECK(!r.ok());
    if (!r) {
        CHECK(r.error().code == ErrorCode::BackendUnavailable);
        CHECK(r.error().message.find("efficient") != std::string::npos);
        CHECK(r.error().message.find("slow-prefill") != std::string::npos);
    }
    // A compile mode or combination no build runs is refused by load() itself, before any weights
    // are read (issue #47), and the model loaded before stays loaded.
    c.compile_mode = CompileMode::CudaGraph;
    c.sdpa_policy = SdpaPolicy::Auto;
    auto g = engine.load(c);
    CHECK(!g.ok() && g.error().code == ErrorCode::BackendUnavailable);
    CHECK(engine.is_loaded());
    c.compile_mode = CompileMode::AotInductor;
    c.sdpa_policy = SdpaPolicy::Reef;
    auto k = engine.load(c);
    CHECK(!k.ok() && k.error().code == ErrorCode::BackendUnavailable);
    if (!k.ok()) CHECK(k.error().message.find("eager") != std::string::npos);
    CHECK(engine.is_loaded());
    c.compile_mode = CompileMode::Eager;
    c.sdpa_policy = SdpaPolicy::Auto;
    CHECK(engine.load(c).ok());
    CHECK(engine.synthesize(greedy_request(4), {}).ok());
}

TEST_CASE(s1_layout_generates) {
    Engine engine;
    auto info = engine.load(config_for("s1"));
    CHECK(info.ok());
    if (!info) { std::fprintf(stderr, "%s\n", info.error().to_string().c_str()); return; }
    CHECK(info->model_type == "dual_ar");
    auto r = engine.synthesize(greedy_request(6), {});
    CHECK(r.ok());
    if (r) CHECK_EQ(int64_t(r->audio.size()), int64_t(r->codes.n_frames) * kSamplesPerFrame);
}

TEST_CASE(voice_clone_reference_round_trip) {
    Engine engine;
    CHECK(engine.load(config_for("s2")).ok());
    std::vector<float> clip(44100);
    for (size_t i = 0; i < clip.size(); ++i) clip[i] = 0.3f * std::sin(2 * M_PI * 220.0 * double(i) / 44100.0);
    auto codes = engine.encode_reference(clip);
    CHECK(codes.ok());
    if (!codes) return;
    CHECK(codes->n_codebooks == 10);
    CHECK_EQ(codes->n_frames, (44100 + 2047) / 2048);
    SynthesisRequest r = greedy_request(6);
    r.references.push_back({"A reference sentence.", "", *codes});
    auto res = engine.synthesize(r, {});
    CHECK(res.ok());
    if (res) CHECK(res->metrics.prompt_tokens > codes->n_frames);
    r.references[0].codes = {};
    r.references[0].audio_path = "ref.wav";
    auto unencoded = engine.synthesize(r, {});
    CHECK(!unencoded.ok() && unencoded.error().code == ErrorCode::InvalidArgument);
}

// fish-speech's quantize.py writes its int8 model as a copy of the model folder with codec.pth
// deleted, beside the folder it quantized. Loading the copy takes the codec of that folder (the one
// beside it with the copy's config.json), not another model's; with none left, audio is refused
// saying where the codec goes, and codes-only synthesis still runs.
TEST_CASE(a_copy_without_its_codec_takes_the_codec_of_the_folder_it_was_made_from) {
    const fs::path base = reef_test::temp_dir("codec_beside");
    const fs::path source = base / "openaudio", copy = base / "fs-1.2-int8-x", other = base / "a-other";
    CHECK(write_demo_model(source.string(), "tiny", "s2", 1234).ok());
    CHECK(write_demo_model(other.string(), "tiny", "s2", 99).ok());  // another codec, first by name
    {
        std::ifstream in(other / "config.json");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto at = text.find("\"max_seq_len\": 4096");
        CHECK(at != std::string::npos);
        if (at != std::string::npos) text.replace(at, 19, "\"max_seq_len\": 4095");
        std::ofstream(other / "config.json", std::ios::trunc) << text;
    }
    fs::copy(source, copy, fs::copy_options::recursive);
    fs::remove(copy / "codec.pth");

    Codes codes{10, 4, {}};
    for (int i = 0; i < 40; ++i) codes.data.push_back((i * 37) % 97);
    auto pcm_of = [&](const fs::path& dir, ModelInfo* info) {
        Engine engine;
        EngineConfig c;
        c.model_dir = dir.string();
        auto loaded = engine.load(c);
        CHECK(loaded.ok());
        if (!loaded) return std::vector<float>{};
        if (info) *info = *loaded;
        auto pcm = engine.decode_codes(codes);
        CHECK(pcm.ok());
        return pcm ? *pcm : std::vector<float>{};
    };
    ModelInfo info;
    const std::vector<float> from_copy = pcm_of(copy, &info);
    CHECK(!info.codec_dir.empty() && fs::equivalent(info.codec_dir, source));
    CHECK(!from_copy.empty());
    CHECK(from_copy == pcm_of(source, nullptr));
    CHECK(from_copy != pcm_of(other, nullptr));  // the two codecs do differ

    fs::remove(source / "codec.pth");
    Engine engine;
    EngineConfig c;
    c.model_dir = copy.string();
    auto loaded = engine.load(c);
    CHECK(loaded.ok());
    if (!loaded) return;
    CHECK(loaded->codec_dir.empty());
    CHECK(loaded->codec_parameters == 0);
    SynthesisRequest r = greedy_request(4);
    auto refused = engine.synthesize(r, {});
    CHECK(!refused.ok() && refused.error().code == ErrorCode::ModelNotFound);
    if (!refused.ok()) {
        CHECK(refused.error().message.find("has no codec.pth") != std::string::npos);
        CHECK(refused.error().hint.find("quantize.py") != std::string::npos);
    }
    r.decode_audio = false;
    auto codes_only = engine.synthesize(r, {});
    CHECK(codes_only.ok());
    if (codes_only) CHECK(codes_only->codes.n_frames > 0);
}

TEST_CASE(bad_input_is_a_specific_error) {
    Engine engine;
    CHECK(engine.synthesize(greedy_request(), {}).error().code == ErrorCode::NotLoaded);
    CHECK(engine.load(config_for("s2")).ok());
    SynthesisRequest r = greedy_request();
    r.text = "   \n";
    CHECK(engine.synthesize(r, {}).error().code == ErrorCode::InvalidArgument);
    r.text = std::string(200001, 'a');
    auto huge = engine.synthesize(r, {});
    CHECK(!huge.ok() && huge.error().message.find("200001") != std::string::npos);
    r = greedy_request();
    r.text.clear();  // one batch (no speaker tags) far longer than the tiny model's 4096-token context
    for (int i = 0; i < 2000; ++i) r.text += "word" + std::to_string(i) + " ";
    auto over = engine.synthesize(r, {});
    CHECK(!over.ok() && over.error().code == ErrorCode::InvalidArgument);
    if (!over.ok()) CHECK(over.error().message.find("max_seq_len") != std::string::npos);
    r = greedy_request();
    r.sampling.top_p = 0;
    CHECK(engine.synthesize(r, {}).error().code == ErrorCode::InvalidArgument);
    Codes wrong{3, 2, {1, 2, 3, 4, 5, 6}};
    CHECK(engine.decode_codes(wrong).error().code == ErrorCode::InvalidArgument);
}

// The engine runs every value of the one sampling description (the ends included) and refuses
// the values just outside, naming the setting and its range: what the Settings panel, reef-cli
// and the files derive their ranges from is what synthesize accepts.
TEST_CASE(sampling_ranges_are_what_the_engine_accepts) {
    Engine engine;
    CHECK(engine.load(config_for("s2")).ok());
    for (const SamplingSetting& st : sampling_settings()) {
        const double outside = std::max(st.step, st.decimals ? 0.01 : 1.0);
        for (double v : {st.min, st.max, st.min - outside, st.max + outside}) {
            SynthesisRequest r = greedy_request(2);
            set_sampling_value(r.sampling, st.key, v);
            int frames = 0;
            Callbacks cb;
            cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++frames; };
            cb.should_abort = [&] { return frames >= 2; };  // accepted: a frame decoded is enough
            auto res = engine.synthesize(r, cb);
            const bool inside = v >= st.min && v <= st.max;
            if (inside) {
                CHECK(res.ok() || res.error().code == ErrorCode::Cancelled);
                if (!res.ok() && res.error().code != ErrorCode::Cancelled)
                    std::fprintf(stderr, "  %s = %g refused: %s\n", st.name, v, res.error().message.c_str());
            } else {
                CHECK(!res.ok() && res.error().code == ErrorCode::InvalidArgument);
                if (!res.ok()) {
                    CHECK(res.error().message.find(st.name) != std::string::npos);
                    CHECK(res.error().message.find(sampling_range_text(st)) != std::string::npos);
                }
            }
        }
    }
}

TEST_CASE(corrupt_or_mismatched_weights_keep_the_previous_model) {
    Engine engine;
    CHECK(engine.load(config_for("s2")).ok());
    const fs::path broken = reef_test::temp_dir("pipeline_broken") / "m";
    fs::copy(demo_dir("s2"), broken, fs::copy_options::recursive);
    {  // truncate the weights
        const fs::path w = broken / "model.safetensors";
        fs::resize_file(w, fs::file_size(w) / 2);
    }
    EngineConfig c;
    c.model_dir = broken.string();
    auto r = engine.load(c);
    CHECK(!r.ok());
    if (!r) {
        CHECK(r.error().code == ErrorCode::CorruptModel);
        CHECK(r.error().message.find("model.safetensors") != std::string::npos);
    }
    CHECK(engine.is_loaded());
    CHECK(engine.synthesize(greedy_request(3), {}).ok());
}

TEST_MAIN()
