#include "reef/sampling_settings.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

#include "check.h"

// Qt's translation marker, for lupdate only: the engine has no Qt, so here it is the string itself.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace reef {

const std::vector<SamplingSetting>& sampling_settings() {
    // The ranges are what the sampler handles well, not what a float can hold: top_p of 0 would
    // keep no token, a repetition penalty far from 1 degenerates, and 65536 frames are 50 minutes
    // of audio per text batch (more than any model's max_seq_len).
    // The label, meaning and special value are shown by the studio in translation: each is marked
    // here, where it is defined, for Qt's lupdate (scripts/update-translations.sh scans this file;
    // it reads the markers as text), in the context kSamplingTranslationContext names.
    static const std::vector<SamplingSetting> table = {
        {SamplingKey::Temperature, "temperature", QT_TRANSLATE_NOOP("SamplingSettings", "Temperature"),
         QT_TRANSLATE_NOOP("SamplingSettings", "0 = greedy"), 0.0, 2.0, 0.05, 2, nullptr},
        {SamplingKey::TopP, "top_p", QT_TRANSLATE_NOOP("SamplingSettings", "Top-p"),
         QT_TRANSLATE_NOOP("SamplingSettings", "nucleus: the smallest set of tokens holding this probability"), 0.01,
         1.0, 0.05, 2, nullptr},
        {SamplingKey::TopK, "top_k", QT_TRANSLATE_NOOP("SamplingSettings", "Top-k"),
         QT_TRANSLATE_NOOP("SamplingSettings", "the k most likely tokens (0 = off, 1 = greedy)"), 0, 65536, 1, 0,
         QT_TRANSLATE_NOOP("SamplingSettings", "off")},
        {SamplingKey::RepetitionPenalty, "repetition_penalty", QT_TRANSLATE_NOOP("SamplingSettings", "Repetition penalty"),
         QT_TRANSLATE_NOOP("SamplingSettings", "S1-mini: divides the logits of recently used tokens (1 = off)"), 0.5,
         2.0, 0.05, 2, nullptr},
        {SamplingKey::MaxNewFrames, "max_new_frames", QT_TRANSLATE_NOOP("SamplingSettings", "Max new frames"),
         QT_TRANSLATE_NOOP("SamplingSettings", "frames per text batch (21.5 frames = 1 s; 0 = up to the model's limit)"),
         0, 65536, 64, 0, QT_TRANSLATE_NOOP("SamplingSettings", "model limit")},
        {SamplingKey::ChunkLength, "chunk_length", QT_TRANSLATE_NOOP("SamplingSettings", "Chunk length"),
         QT_TRANSLATE_NOOP("SamplingSettings", "UTF-8 bytes of speaker turns per text batch (0 = no length limit)"), 0,
         100000, 50, 0, QT_TRANSLATE_NOOP("SamplingSettings", "no limit")},
    };
    return table;
}

const SamplingSetting& sampling_setting(SamplingKey key) {
    for (const SamplingSetting& s : sampling_settings())
        if (s.key == key) return s;
    throw ReefError(ErrorCode::Internal, "unknown sampling setting");
}

double sampling_value(const SamplingParams& p, SamplingKey key) {
    switch (key) {
    case SamplingKey::Temperature: return p.temperature;
    case SamplingKey::TopP: return p.top_p;
    case SamplingKey::TopK: return p.top_k;
    case SamplingKey::RepetitionPenalty: return p.repetition_penalty;
    case SamplingKey::MaxNewFrames: return p.max_new_frames;
    case SamplingKey::ChunkLength: return p.chunk_length;
    }
    return 0;
}

void set_sampling_value(SamplingParams& p, SamplingKey key, double v) {
    // whole numbers: rounded, and kept inside int so a huge value stays huge (and out of range)
    const int whole = std::isfinite(v) ? int(std::lround(std::clamp(v, -2e9, 2e9))) : INT_MAX;
    switch (key) {
    case SamplingKey::Temperature: p.temperature = float(v); break;
    case SamplingKey::TopP: p.top_p = float(v); break;
    case SamplingKey::TopK: p.top_k = whole; break;
    case SamplingKey::RepetitionPenalty: p.repetition_penalty = float(v); break;
    case SamplingKey::MaxNewFrames: p.max_new_frames = whole; break;
    case SamplingKey::ChunkLength: p.chunk_length = whole; break;
    }
}

namespace {
std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}
}  // namespace

std::string sampling_range_text(const SamplingSetting& s) {
    return "[" + number_text(s.min) + ", " + number_text(s.max) + "]";
}

bool sampling_value_in_range(const SamplingSetting& s, double v) {
    if (!std::isfinite(v)) return false;
    if (s.decimals == 0) return v >= s.min && v <= s.max && v == std::floor(v);
    // stored as a float: compare as one, so the ends themselves (0.01f < 0.01) are inside
    const float f = float(v);
    return f >= float(s.min) && f <= float(s.max);
}

std::optional<std::string> sampling_problem(const SamplingParams& p) {
    for (const SamplingSetting& s : sampling_settings()) {
        const double v = sampling_value(p, s.key);
        if (!sampling_value_in_range(s, v))
            return std::string(s.name) + " " + number_text(v) + " is outside the allowed range " +
                   sampling_range_text(s) + " (" + s.meaning + ")";
    }
    return std::nullopt;
}

}  // namespace reef
