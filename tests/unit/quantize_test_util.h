// What the quantization tests share (tst_quantize, tst_quantize_int4): greedy decoding options, a
// run's codes, and the message of a refused load.
#pragma once
#include <ATen/ATen.h>

#include <cstdio>
#include <string>

#include "reef/engine.h"
#include "t2s_fixtures.h"

namespace quantize_test {

inline reef::GenerateOptions greedy(int64_t frames, int capture = 0) {
    reef::GenerateOptions o;
    o.knobs = reef::SampleKnobs{0.0, 0.8, 30};
    o.max_new_tokens = frames;
    o.suppress_im_end = true;
    o.capture_logits_frames = capture;
    return o;
}

inline at::Tensor codes_of_run(const reef::DualArModel& m, const at::Tensor& prompt, const reef::GenerateOptions& o,
                               reef::GenerateStats& stats) {
    reef::Text2SemanticCaches caches;
    at::Generator gen = reef::make_request_generator(m.device(), 1);
    return reef::generate(m, caches, prompt, t2s_test::token_ids(m), o, gen, stats);
}

// The message of the ReefError `f` throws ("" if none).
template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const reef::ReefError& e) {
        return e.error().message;
    }
    return "";
}

inline bool has(const std::string& s, const std::string& part) {
    const bool ok = s.find(part) != std::string::npos;
    if (!ok) std::fprintf(stderr, "  message '%s' lacks '%s'\n", s.c_str(), part.c_str());
    return ok;
}

}  // namespace quantize_test
