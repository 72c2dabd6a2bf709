// Engine::synthesize_batch (issue #27) through the public API on tiny demo models: every request's
// codes and audio equal Engine::synthesize of it alone (the yardstick), with S2 text split into
// several batches (the later ones join the batch when the earlier finish), with sampling, with a
// batch smaller than the request count, with batch size auto; a bad request fails alone; a cancel
// ends them all; on_done hears each request as it ends.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "check.h"
#include "reef/engine.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

std::string demo(const std::string& layout) {
    static const fs::path base = reef_test::temp_dir("synthesize_batch");
    const fs::path dir = base / ("tiny-" + layout);
    if (!fs::exists(dir / "config.json")) {
        auto st = write_demo_model(dir.string(), "tiny", layout, 99);
        if (!st) std::fprintf(stderr, "demo model: %s\n", st.error().to_string().c_str());
    }
    return dir.string();
}

void load(Engine& engine, const std::string& layout) {
    EngineConfig c;
    c.model_dir = demo(layout);
    CHECK(engine.load(c).ok());
}

std::vector<SynthesisRequest> requests() {
    const char* texts[] = {
        "<|speaker:0|>The harbour was quiet in the early morning.<|speaker:1|>The boats rocked gently against the pier.",
        "A light wind came in from the sea.",
        "<|speaker:0|>Nobody remembered when the tradition began,<|speaker:1|>but every child knew the story of the "
        "reef.<|speaker:0|>It was told at night, by the fire.",
        "When the tide was low, the coral rose close to the surface.",
        "The keeper counted the boats.",
    };
    std::vector<SynthesisRequest> out;
    for (int i = 0; i < 5; ++i) {
        SynthesisRequest r;
        r.id = uint64_t(10 + i);
        r.text = texts[i];
        r.sampling.seed = uint64_t(100 + i);
        r.sampling.max_new_frames = 6 + 3 * i;
        r.sampling.chunk_length = 48;  // S2: the texts with speaker turns become two or three batches
        r.stream_chunk_frames = 4;
        out.push_back(r);
    }
    return out;
}

void batch_equals_alone(const std::string& layout, int max_batch) {
    Engine engine;
    load(engine, layout);
    const std::vector<SynthesisRequest> reqs = requests();
    std::vector<int> chunks(reqs.size(), 0);
    Callbacks cb;
    cb.on_audio_chunk = [&](const AudioChunk& chunk) {
        for (size_t i = 0; i < reqs.size(); ++i)
            if (reqs[i].id == chunk.request_id) ++chunks[i];
    };
    const auto batch = engine.synthesize_batch(reqs, max_batch, cb);
    CHECK_EQ(batch.size(), reqs.size());
    // The first text batches start together (auto: the tiny model's caches fit many times over).
    const int limit = max_batch > 0 ? max_batch : TtsBackend::kAutoMaxBatch;
    if (limit > 1) CHECK_EQ(batch[0].value().metrics.batch, std::min<int>(limit, int(reqs.size())));
    for (size_t i = 0; i < reqs.size(); ++i) {
        const auto alone = engine.synthesize(reqs[i], {});
        CHECK(alone.ok() && batch[i].ok());
        if (!alone.ok() || !batch[i].ok()) continue;
        CHECK_EQ(batch[i]->request_id, reqs[i].id);
        CHECK(batch[i]->codes.data == alone->codes.data);
        CHECK(batch[i]->audio == alone->audio);
        CHECK_EQ(alone->metrics.batch, 1);
        CHECK(batch[i]->metrics.batch <= limit);
        CHECK(chunks[i] >= 1);  // its audio streamed under its own id
    }
}

}  // namespace

TEST_CASE(s2_batch_equals_each_request_alone) { batch_equals_alone("s2", 3); }
TEST_CASE(s1_batch_equals_each_request_alone) { batch_equals_alone("s1", 5); }
TEST_CASE(batch_size_one_runs_them_one_by_one_alike) { batch_equals_alone("s2", 1); }

TEST_CASE(a_bad_request_fails_alone) {
    Engine engine;
    load(engine, "s2");
    std::vector<SynthesisRequest> reqs = requests();
    reqs[1].text = "";
    reqs[3].sampling.top_p = 7.0;
    const auto out = engine.synthesize_batch(reqs, 4, {});
    CHECK(out[0].ok() && out[2].ok() && out[4].ok());
    CHECK(!out[1].ok() && out[1].error().code == ErrorCode::InvalidArgument);
    CHECK(!out[3].ok() && out[3].error().code == ErrorCode::InvalidArgument);
}

TEST_CASE(a_cancel_ends_every_request_and_the_engine_stays_ready) {
    Engine engine;
    load(engine, "s2");
    int frames = 0;
    Callbacks cb;
    cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++frames; };
    cb.should_abort = [&] { return frames >= 5; };
    const auto out = engine.synthesize_batch(requests(), 3, cb);
    for (const auto& r : out) CHECK(!r.ok() && r.error().code == ErrorCode::Cancelled);
    CHECK(engine.synthesize(requests()[0], {}).ok());
}

TEST_CASE(cancelling_one_request_leaves_the_others_their_takes) {
    Engine engine;
    load(engine, "s2");
    const std::vector<SynthesisRequest> reqs = requests();
    int frames_of_12 = 0;
    Callbacks cb;
    cb.on_frame = [&](uint64_t id, int, const std::vector<int32_t>&) { frames_of_12 += id == 12; };
    for (int max_batch : {3, 1}) {  // batched, and one by one (the default path's rule too)
        frames_of_12 = 0;
        const auto out = engine.synthesize_batch(reqs, max_batch, cb, [&](uint64_t id) { return id == 12 && frames_of_12 >= 3; });
        CHECK(!out[2].ok() && out[2].error().code == ErrorCode::Cancelled);
        CHECK_EQ(frames_of_12, 3);
        for (size_t i : {size_t(0), size_t(1), size_t(3), size_t(4)}) {
            const auto alone = engine.synthesize(reqs[i], {});
            CHECK(out[i].ok() && alone.ok());
            if (out[i].ok() && alone.ok()) CHECK(out[i]->codes.data == alone->codes.data);
        }
    }
}

TEST_CASE(not_loaded_is_an_error_for_every_request) {
    Engine engine;
    std::vector<uint64_t> heard;
    const auto out = engine.synthesize_batch(requests(), 2, {}, {}, [&](uint64_t id, const Result<SynthesisResult>& r) {
        heard.push_back(id);
        CHECK(!r.ok() && r.error().code == ErrorCode::NotLoaded);
    });
    CHECK_EQ(out.size(), size_t(5));
    CHECK_EQ(heard.size(), size_t(5));
    for (const auto& r : out) CHECK(!r.ok() && r.error().code == ErrorCode::NotLoaded);
}

// on_done: each request once, with what synthesize_batch returns for it, as soon as it ends (the
// first is heard while others still decode); a request refused up front is heard too.
TEST_CASE(on_done_hears_each_request_once_as_it_ends) {
    Engine engine;
    load(engine, "s1");
    std::vector<SynthesisRequest> reqs = requests();
    reqs[2].text = "";  // refused before the batch starts
    int frames = 0;
    int frames_at_first_done = -1;
    Callbacks cb;
    cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) { ++frames; };
    std::map<uint64_t, Result<SynthesisResult>> heard;
    int calls = 0;
    const auto out = engine.synthesize_batch(reqs, 5, cb, {}, [&](uint64_t id, const Result<SynthesisResult>& r) {
        ++calls;
        if (r.ok() && frames_at_first_done < 0) frames_at_first_done = frames;
        heard.emplace(id, r);
    });
    CHECK_EQ(calls, 5);
    CHECK_EQ(heard.size(), size_t(5));
    for (size_t i = 0; i < reqs.size(); ++i) {
        const auto& h = heard.at(reqs[i].id);
        CHECK_EQ(h.ok(), out[i].ok());
        if (h.ok() && out[i].ok()) CHECK(h->codes.data == out[i]->codes.data && h->audio == out[i]->audio);
    }
    CHECK(!heard.at(12).ok() && heard.at(12).error().code == ErrorCode::InvalidArgument);
    CHECK(frames_at_first_done > 0);
    CHECK(frames_at_first_done < frames);  // heard before the batch was over
}

// Batch size 0 = auto: the engine picks by free memory, says which, and every take is the one alone.
TEST_CASE(auto_batch_size_says_what_it_picked_and_keeps_each_take) {
    batch_equals_alone("s1", 0);
    Engine engine;
    load(engine, "s1");
    std::vector<std::string> lines;
    Callbacks cb;
    cb.on_status = [&](const std::string& line) { lines.push_back(line); };
    const auto out = engine.synthesize_batch(requests(), 0, cb);
    for (const auto& r : out) CHECK(r.ok());
    CHECK_EQ(lines.size(), size_t(2));  // the size picked, then what each core does
    if (!lines.empty()) CHECK(lines[0].find("batch size auto: ") == 0);
}

// The status line says what each core does while a batch runs: the decode's threads, and where the
// audio goes, by the configuration the test chose (a codec worker beside the decode, or each item's
// audio decoded whole after its last frame when no one listens to it live).
TEST_CASE(the_status_line_says_what_each_core_does) {
    for (const bool worker : {false, true}) {
        Engine engine;
        EngineConfig c;
        c.model_dir = demo("s2");
        c.cpu_threads = 1;
        c.codec_worker = worker;
        CHECK(engine.load(c).ok());
        std::vector<SynthesisRequest> rs = requests();
        rs.resize(3);
        for (SynthesisRequest& r : rs) r.listened_live = false;
        std::vector<std::string> lines;
        Callbacks cb;
        cb.on_status = [&](const std::string& s) { lines.push_back(s); };
        for (const auto& r : engine.synthesize_batch(rs, 2, cb)) CHECK(r.ok());
        std::string plan;
        for (const std::string& s : lines)
            if (s.find("decode together") != std::string::npos) plan = s;
        std::fprintf(stderr, "codec worker %s: %s\n", worker ? "on" : "off", plan.c_str());
        CHECK(plan.find("up to 2 sequences decode together on 1 thread") == 0);
        CHECK_EQ(plan.find("codec worker on 1 thread") != std::string::npos, worker);
        CHECK_EQ(plan.find("decoded whole after each one's last frame") != std::string::npos, !worker);
    }
}

TEST_MAIN()
