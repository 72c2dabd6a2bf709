#include "audio/time_stretch.h"

#include <rubberband/RubberBandStretcher.h>

#include <algorithm>
#include <cmath>

#include "audio/audio_error.h"

namespace reef::audio {

std::vector<float> change_tempo(const std::vector<float>& mono, int rate, double speed) {
    if (!(speed >= kMinSpeed && speed <= kMaxSpeed))
        throw AudioError("pace: a speed of " + std::to_string(speed) + " is outside 0.5…2");
    if (rate < 8000 || rate > 384000)
        throw AudioError("pace: sample rate " + std::to_string(rate) + " Hz is out of range");
    if (speed == 1.0 || mono.empty())
        return mono;
    const size_t want = size_t(std::llround(double(mono.size()) / speed));
    using RB = RubberBand::RubberBandStretcher;
    // Offline: the stretcher studies the whole take first, so the output lines up with the input
    // from its first sample (no start delay to trim) and its length is the ratio's.
    RB rb(size_t(rate), 1, RB::OptionProcessOffline | RB::OptionEngineFiner | RB::OptionPitchHighConsistency,
          1.0 / speed, 1.0);
    rb.setExpectedInputDuration(mono.size());
    constexpr size_t kBlock = 4096;
    rb.setMaxProcessSize(kBlock);
    for (size_t off = 0; off < mono.size(); off += kBlock) {
        const float* p = mono.data() + off;
        rb.study(&p, std::min(kBlock, mono.size() - off), off + kBlock >= mono.size());
    }
    std::vector<float> out;
    out.reserve(want + kBlock);
    std::vector<float> buf(kBlock);
    auto drain = [&] {
        for (int avail = rb.available(); avail > 0; avail = rb.available()) {
            float* q = buf.data();
            const size_t got = rb.retrieve(&q, std::min(size_t(avail), kBlock));
            out.insert(out.end(), buf.begin(), buf.begin() + long(got));
        }
    };
    for (size_t off = 0; off < mono.size(); off += kBlock) {
        const float* p = mono.data() + off;
        rb.process(&p, std::min(kBlock, mono.size() - off), off + kBlock >= mono.size());
        drain();
    }
    drain();   // offline, the final process() leaves everything ready to retrieve
    // Offline stretching lands within a few samples of the ratio; the ends are silence-padded or
    // trimmed so a timeline built on round(n / speed) is exact.
    out.resize(want, 0.0f);
    // The phase vocoder can overshoot a full-scale input slightly; Reef's audio stays in [-1, 1].
    for (float& v : out)
        v = std::clamp(v, -1.0f, 1.0f);
    return out;
}

}  // namespace reef::audio
