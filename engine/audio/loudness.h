// EBU R128 / ITU-R BS.1770 loudness of mono 44.1 kHz speech (libebur128), and normalisation to a
// target with a true-peak ceiling: the takes view shows each take's loudness, the project export
// is normalised to the preset the narrator picks (podcast −16, audiobook −18/−20, broadcast −23).
#pragma once
#include <string>
#include <vector>

namespace reef::audio {

struct Loudness {
    // Gated integrated loudness (LUFS); -infinity when every block is under the −70 LUFS gate
    // (silence or a clip shorter than one 400 ms block).
    double integrated_lufs = 0.0;
    double true_peak_dbtp = 0.0;     // 4× oversampled peak (dBTP); -infinity for digital silence
    double loudness_range_lu = 0.0;  // LRA; 0 for clips under 3 s
};

// Throws AudioError on a bad rate or when libebur128 cannot be set up.
Loudness measure_loudness(const std::vector<float>& mono, int rate);
// The integrated loudness alone (LUFS; -infinity for silence or nothing): no 4× true-peak
// oversampling and no LRA, for labelling many takes cheaply. The same figure as measure_loudness.
double integrated_loudness(const std::vector<float>& mono, int rate);

struct LoudnessTarget {
    double integrated_lufs = -18.0;
    double true_peak_ceiling_dbtp = -1.0;
};

// The presets the export offers, by name ("podcast", "audiobook", "audiobook-quiet", "broadcast").
struct LoudnessPreset {
    const char* name;
    LoudnessTarget target;
};
const std::vector<LoudnessPreset>& loudness_presets();

struct NormalizeReport {
    Loudness before, after;
    double gain_db = 0.0;            // the make-up gain applied before limiting
    double max_reduction_db = 0.0;   // the limiter's deepest gain reduction (0 = it never acted)
};

// Gain to the target, then a look-ahead true-peak limiter (5 ms look-ahead, 50 ms release), so
// the result measures within ±0.1 LU of the target where the limiter leaves enough loudness, with
// its true peak under the ceiling. Silence (no gated block) comes back unchanged with gain 0.
// Throws AudioError for a target outside −40…−5 LUFS or a ceiling outside −9…0 dBTP.
std::vector<float> normalize_loudness(const std::vector<float>& mono, int rate, const LoudnessTarget& target,
                                      NormalizeReport* report = nullptr);

}  // namespace reef::audio
