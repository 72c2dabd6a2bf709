// Pace (Rubber Band): a tempo change keeps the pitch and lasts exactly n / speed samples. The pitch
// is measured here by autocorrelation, independently of the stretcher.
#include <cmath>
#include <vector>

#include "audio/audio_error.h"
#include "audio/time_stretch.h"
#include "check.h"

using namespace reef::audio;

namespace {

constexpr int kRate = 44100;

// A sung-vowel-like tone: 180 Hz with harmonics, in 3 notes-long syllables with gaps.
std::vector<float> voiced(double seconds, double f0) {
    std::vector<float> x(size_t(seconds * kRate));
    for (size_t i = 0; i < x.size(); ++i) {
        const double t = double(i) / kRate;
        const double env = std::pow(std::sin(M_PI * std::fmod(t, 0.5) / 0.5), 2.0);
        x[i] = float(0.3 * env * (std::sin(2 * M_PI * f0 * t) + 0.5 * std::sin(4 * M_PI * f0 * t) +
                                  0.25 * std::sin(6 * M_PI * f0 * t)));
    }
    return x;
}

// The fundamental of the loudest 100 ms window, from the autocorrelation peak in 60–500 Hz with
// parabolic interpolation.
double pitch_hz(const std::vector<float>& x) {
    const size_t win = kRate / 10;
    size_t best = 0;
    double best_e = -1;
    for (size_t s = 0; s + win < x.size(); s += win / 2) {
        double e = 0;
        for (size_t i = 0; i < win; ++i)
            e += double(x[s + i]) * x[s + i];
        if (e > best_e) {
            best_e = e;
            best = s;
        }
    }
    const int lo = kRate / 500, hi = kRate / 60;
    std::vector<double> r(size_t(hi + 2), 0.0);
    for (int lag = lo - 1; lag <= hi + 1; ++lag)
        for (size_t i = 0; i + size_t(lag) < win; ++i)
            r[size_t(lag)] += double(x[best + i]) * x[best + i + size_t(lag)];
    int peak = lo;
    for (int lag = lo; lag <= hi; ++lag)
        if (r[size_t(lag)] > r[size_t(peak)])
            peak = lag;
    const double a = r[size_t(peak - 1)], b = r[size_t(peak)], c = r[size_t(peak + 1)];
    const double shift = 0.5 * (a - c) / (a - 2 * b + c);
    return kRate / (double(peak) + shift);
}

}  // namespace

TEST_CASE(tempo_changes_duration_not_pitch) {
    const auto x = voiced(4.0, 180.0);
    const double f_in = pitch_hz(x);
    CHECK_NEAR(f_in, 180.0, 1.0);
    for (double speed : {0.5, 0.8, 1.25, 2.0}) {
        const auto y = change_tempo(x, kRate, speed);
        CHECK_EQ(y.size(), size_t(std::llround(double(x.size()) / speed)));
        // Same pitch within 1 %.
        CHECK_NEAR(pitch_hz(y), f_in, f_in * 0.01);
        // The syllables moved: the envelope's energy sits where the tempo puts it (the 5th
        // syllable's middle, 2.25 s in the input).
        auto energy = [&](const std::vector<float>& s, double at) {
            double e = 0;
            const size_t c = size_t(at * kRate);
            for (size_t i = c - 2000; i < c + 2000; ++i)
                e += double(s[i]) * s[i];
            return e;
        };
        CHECK(energy(y, 2.25 / speed) > 10 * energy(y, (2.0 + 0.005) / speed));
    }
}

TEST_CASE(unity_and_bad_speeds) {
    const auto x = voiced(1.0, 200.0);
    CHECK(change_tempo(x, kRate, 1.0) == x);
    CHECK(change_tempo({}, kRate, 1.5).empty());
    CHECK_THROWS(change_tempo(x, kRate, 0.49));
    CHECK_THROWS(change_tempo(x, kRate, 2.01));
    CHECK_THROWS(change_tempo(x, kRate, std::nan("")));
    CHECK_THROWS(change_tempo(x, 100, 1.5));
}

TEST_MAIN()
