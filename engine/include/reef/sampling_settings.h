// One description of every sampling setting a request carries: its name, range, default, step and
// meaning. The engine checks requests against it, and everything that offers or stores these
// values derives from it — the studio's Settings panel (its spin boxes' ranges and steps),
// reef-cli's option checks, the project file and the take history (their keys and the ranges a
// file is refused outside of) — so nothing offers a value the engine refuses. The seed has no
// range: every 64-bit value is valid (files keep it as a decimal string).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "reef/engine_types.h"

namespace reef {

enum class SamplingKey { Temperature, TopP, TopK, RepetitionPenalty, MaxNewFrames, ChunkLength };

// The translation context of the label, meaning and at_min texts below: sampling_settings.cpp marks
// each for Qt's lupdate where it is defined, and the studio shows them through
// QCoreApplication::translate(kSamplingTranslationContext, text). English everywhere else.
inline constexpr const char kSamplingTranslationContext[] = "SamplingSettings";

struct SamplingSetting {
    SamplingKey key;
    const char* name;     // in files, messages and reef-cli (with '-'): "temperature", "top_p"
    const char* label;    // "Temperature" (translatable: kSamplingTranslationContext)
    const char* meaning;  // what it does, for tooltips and --help (translatable)
    double min, max;      // the allowed range, both ends included
    double step;          // a useful step for a spin box
    int decimals;         // 0: a whole number
    const char* at_min;   // what the minimum means when it is special ("model limit"), else nullptr (translatable)
};

// Every setting above, in the order a form shows them.
const std::vector<SamplingSetting>& sampling_settings();
const SamplingSetting& sampling_setting(SamplingKey key);

double sampling_value(const SamplingParams& p, SamplingKey key);
void set_sampling_value(SamplingParams& p, SamplingKey key, double value);  // whole numbers are rounded

// "[0, 2]"
std::string sampling_range_text(const SamplingSetting& s);
// Whether a value lies in the setting's range, compared at the precision SamplingParams stores it
// in (a float: 0.01 stored is 0.0099999998, and still inside [0.01, 1]).
bool sampling_value_in_range(const SamplingSetting& s, double value);
// The first value outside its range, as "temperature 2.5 is outside the allowed range [0, 2] (0 =
// greedy)"; nullopt when all are inside.
std::optional<std::string> sampling_problem(const SamplingParams& p);

}  // namespace reef
