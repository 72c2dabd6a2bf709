// The voice-prefix cache (issue #45, text2semantic/prefix_kv_store.h) through the public engine:
// the segments of one voice prefill their reference once, and sound exactly as they do on an
// engine that has never seen the voice. How often the prefix was prefilled is read from the SDPA
// dispatcher's record of the slow prefill calls (each call's key rows), not from the cache's own
// count, which is checked against it.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "check.h"
#include "demo_models.h"
#include "reef/engine.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

const std::string& demo_dir(const std::string& layout) { return reef_test::tiny_demo_dir("prefix_cache_models", layout, 4321); }

EngineConfig config_for(const std::string& layout, KvMode kv_mode = KvMode::ActivePrefix) {
    EngineConfig c;
    c.model_dir = demo_dir(layout);
    c.kv_mode = kv_mode;
    return c;
}

const std::vector<std::string> kTexts = {"The first segment of the chapter.",
                                         "A second one, a little longer than the first, with a comma.",
                                         "Third."};

SynthesisRequest segment(const std::string& text, const Codes& voice) {
    SynthesisRequest r;
    r.id = std::hash<std::string>{}(text);
    r.text = text;
    r.sampling.temperature = 0;
    r.sampling.max_new_frames = 8;
    r.references.push_back({"A reference sentence for the voice.", "", voice});
    return r;
}

Codes voice_of(Engine& engine) {
    std::vector<float> clip(3 * 44100);
    for (size_t i = 0; i < clip.size(); ++i) clip[i] = 0.3f * float(std::sin(2 * M_PI * 180.0 * double(i) / 44100.0));
    auto codes = engine.encode_reference(clip);
    CHECK(codes.ok());
    return codes ? *codes : Codes{};
}

// The slow prefill's attention calls as the dispatcher saw them.
struct Prefill {
    int64_t calls = 0, kv_len_min = 0, kv_len_max = 0;
};
Prefill prefill_of(const SynthesisResult& r) {
    Prefill p;
    for (const BackendUse& u : r.metrics.backends) {
        if (u.site != CallSite::SlowPrefill) continue;
        p.kv_len_min = p.calls ? std::min(p.kv_len_min, u.kv_len_min) : u.kv_len_min;
        p.kv_len_max = std::max(p.kv_len_max, u.kv_len_max);
        p.calls += u.calls;
    }
    return p;
}

}  // namespace

TEST_CASE(segments_of_one_voice_prefill_the_reference_once_and_sound_the_same) {
    for (const std::string layout : {"s2", "s1"}) {
        Engine engine;
        CHECK(engine.load(config_for(layout)).ok());
        const Codes voice = voice_of(engine);
        std::vector<SynthesisResult> cached;
        for (const std::string& text : kTexts) {
            auto r = engine.synthesize(segment(text, voice), {});
            CHECK(r.ok());
            if (!r) return;
            cached.push_back(*r);
        }
        // The first segment prefills the voice prefix (P key rows) and then its own text (T rows);
        // the others only their text, over the same P rows taken from the cache.
        const Prefill first = prefill_of(cached[0]);
        const int64_t p = first.kv_len_min;
        CHECK(p > voice.n_frames && p < cached[0].metrics.prompt_tokens);
        CHECK_EQ(first.kv_len_max, int64_t(cached[0].metrics.prompt_tokens));
        CHECK_EQ(int64_t(cached[0].metrics.prefix_tokens_reused), int64_t(0));
        for (size_t i = 1; i < cached.size(); ++i) {
            const Prefill later = prefill_of(cached[i]);
            CHECK_EQ(later.calls * 2, first.calls);  // one prefill forward instead of two
            CHECK_EQ(later.kv_len_min, int64_t(cached[i].metrics.prompt_tokens));
            CHECK_EQ(int64_t(cached[i].metrics.prefix_tokens_reused), p);
        }
        // The same codes and samples as an engine that prefills the voice itself for each segment.
        for (size_t i = 0; i < kTexts.size(); ++i) {
            Engine fresh;
            CHECK(fresh.load(config_for(layout)).ok());
            auto r = fresh.synthesize(segment(kTexts[i], voice), {});
            CHECK(r.ok());
            if (!r) return;
            CHECK_EQ(int64_t(r->metrics.prefix_tokens_reused), int64_t(0));
            CHECK(r->codes.data == cached[i].codes.data);
            CHECK(r->audio == cached[i].audio);
        }
        // A batch of the three: one member prefills the voice, the other two take it; the codes
        // are the one-by-one codes.
        Engine batch_engine;
        CHECK(batch_engine.load(config_for(layout)).ok());
        std::vector<SynthesisRequest> requests;
        for (const std::string& text : kTexts) requests.push_back(segment(text, voice));
        auto results = batch_engine.synthesize_batch(requests, 3, {});
        int64_t reused = 0;
        for (size_t i = 0; i < results.size(); ++i) {
            CHECK(results[i].ok());
            if (!results[i]) return;
            reused += results[i]->metrics.prefix_tokens_reused;
            CHECK(results[i]->codes.data == cached[i].codes.data);
        }
        CHECK_EQ(reused, 2 * p);
    }
}

TEST_CASE(rows_made_under_other_settings_or_for_another_voice_are_not_reused) {
    Engine engine;
    CHECK(engine.load(config_for("s2")).ok());
    const Codes voice = voice_of(engine);
    auto a = engine.synthesize(segment(kTexts[0], voice), {});
    CHECK(a.ok() && a->metrics.prefix_tokens_reused == 0);
    // another voice: other reference codes
    Codes other = voice;
    for (int32_t& c : other.data) c = (c + 1) % 4;
    auto b = engine.synthesize(segment(kTexts[1], other), {});
    CHECK(b.ok() && b->metrics.prefix_tokens_reused == 0);
    // the first voice again: still kept beside the second
    auto c = engine.synthesize(segment(kTexts[1], voice), {});
    CHECK(c.ok() && c->metrics.prefix_tokens_reused > 0);
    // another KV mode: the rows were made under other settings
    CHECK(engine.load(config_for("s2", KvMode::Full)).ok());
    auto d = engine.synthesize(segment(kTexts[2], voice), {});
    CHECK(d.ok() && d->metrics.prefix_tokens_reused == 0);
    // no reference, no prefix
    SynthesisRequest plain = segment(kTexts[2], voice);
    plain.references.clear();
    auto e = engine.synthesize(plain, {});
    CHECK(e.ok() && e->metrics.prefix_tokens_reused == 0);
}

TEST_MAIN()
