// Engine::synthesize_batch (issue #27) through the public API on tiny demo models: every request's
// codes and audio equal Engine::synthesize of it alone (the yardstick), with S2 text split into
// several batches (the later ones join the batch when the earlier finish), with sampling, with a
// batch smaller than the request count; a bad request fails alone; a cancel ends them all.
#include <filesystem>
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
    EngineConfig c;
    c.model_dir = demo(layout);
    CHECK(engine.load(c).ok());
    const std::vector<SynthesisRequest> reqs = requests();
    std::vector<int> chunks(reqs.size(), 0);
    Callbacks cb;
    cb.on_audio_chunk = [&](const AudioChunk& chunk) {
        for (size_t i = 0; i < reqs.size(); ++i)
            if (reqs[i].id == chunk.request_id) ++chunks[i];
    };
    const auto batch = engine.synthesize_batch(reqs, max_batch, cb);
    CHECK_EQ(batch.size(), reqs.size());
    for (size_t i = 0; i < reqs.size(); ++i) {
        const auto alone = engine.synthesize(reqs[i], {});
        CHECK(alone.ok() && batch[i].ok());
        if (!alone.ok() || !batch[i].ok()) continue;
        CHECK_EQ(batch[i]->request_id, reqs[i].id);
        CHECK(batch[i]->codes.data == alone->codes.data);
        CHECK(batch[i]->audio == alone->audio);
        CHECK(chunks[i] >= 1);  // its audio streamed under its own id
    }
}

}  // namespace

TEST_CASE(s2_batch_equals_each_request_alone) { batch_equals_alone("s2", 3); }
TEST_CASE(s1_batch_equals_each_request_alone) { batch_equals_alone("s1", 5); }
TEST_CASE(batch_size_one_runs_them_one_by_one_alike) { batch_equals_alone("s2", 1); }

TEST_CASE(a_bad_request_fails_alone) {
    Engine engine;
    EngineConfig c;
    c.model_dir = demo("s2");
    CHECK(engine.load(c).ok());
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
    EngineConfig c;
    c.model_dir = demo("s2");
    CHECK(engine.load(c).ok());
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
    EngineConfig c;
    c.model_dir = demo("s2");
    CHECK(engine.load(c).ok());
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
    const auto out = engine.synthesize_batch(requests(), 2, {});
    CHECK_EQ(out.size(), size_t(5));
    for (const auto& r : out) CHECK(!r.ok() && r.error().code == ErrorCode::NotLoaded);
}

TEST_MAIN()
