#include "audio/loudness.h"

#include <ebur128.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>

#include "audio/audio_error.h"
#include "audio/resample.h"

namespace reef::audio {
namespace {

double db_to_lin(double db) { return std::pow(10.0, db / 20.0); }
double lin_to_db(double lin) { return lin > 0 ? 20.0 * std::log10(lin) : -std::numeric_limits<double>::infinity(); }

struct StateDeleter {
    void operator()(ebur128_state* st) const { ebur128_destroy(&st); }
};

// Per input sample, the largest magnitude of the signal between it and its neighbours, from a 4×
// band-limited upsampling (what a true-peak meter sees). Used only to steer the limiter; the
// result is then measured with libebur128's own meter.
std::vector<float> true_peak_envelope(const std::vector<float>& x, int rate) {
    const std::vector<float> up = resample(x, rate, rate * 4);
    std::vector<float> p(x.size());
    const size_t n = up.size();
    for (size_t i = 0; i < x.size(); ++i) {
        float m = std::abs(x[i]);
        const size_t lo = i * 4 >= 2 ? i * 4 - 2 : 0, hi = std::min(n, i * 4 + 4);
        for (size_t k = lo; k < hi; ++k)
            m = std::max(m, std::abs(up[k]));
        p[i] = m;
    }
    return p;
}

// Gain g, then a look-ahead limiter at the linear threshold `ceiling`:
//   r[i] = the gain that keeps sample i under the ceiling (1 where it already is)
//   a[i] = min r[i .. i+L]          (look ahead, so the gain is down before the peak arrives)
//   c[i] = min(a[i], release from c[i-1] towards 1)
//   b[i] = mean c[i-L .. i]         (smooth attack; b[i] <= r[i], since every c in the window is)
std::vector<float> gain_and_limit(const std::vector<float>& x, const std::vector<float>& peak, double g, double ceiling,
                                  int rate, double* max_reduction_db) {
    const size_t n = x.size();
    const size_t look = size_t(std::max(1, rate / 200));   // 5 ms
    const double release = 1.0 - std::exp(-1.0 / (0.050 * rate));
    std::vector<double> r(n);
    for (size_t i = 0; i < n; ++i) {
        const double p = double(peak[i]) * g;
        r[i] = p > ceiling ? ceiling / p : 1.0;
    }
    // Sliding minimum over [i, i + look] with a monotonic deque of indices.
    std::vector<double> c(n);
    std::deque<size_t> window;
    size_t next = 0;
    double prev = 1.0;
    for (size_t i = 0; i < n; ++i) {
        for (; next < n && next <= i + look; ++next) {
            while (!window.empty() && r[window.back()] >= r[next])
                window.pop_back();
            window.push_back(next);
        }
        while (window.front() < i)
            window.pop_front();
        const double a = r[window.front()];
        prev = std::min(a, prev + (1.0 - prev) * release);
        c[i] = prev;
    }
    std::vector<float> y(n);
    double sum = 0.0, lowest = 1.0;
    for (size_t i = 0; i < n; ++i) {
        sum += c[i];
        if (i > look)
            sum -= c[i - look - 1];
        const double b = std::min(1.0, sum / double(std::min(i + 1, look + 1)));
        lowest = std::min(lowest, b);
        y[i] = float(double(x[i]) * g * b);
    }
    *max_reduction_db = -lin_to_db(lowest);
    return y;
}

// A libebur128 meter in `mode` fed all of the samples.
std::unique_ptr<ebur128_state, StateDeleter> metered(const std::vector<float>& mono, int rate, int mode) {
    if (rate < 8000 || rate > 384000)
        throw AudioError("loudness: sample rate " + std::to_string(rate) + " Hz is out of range");
    std::unique_ptr<ebur128_state, StateDeleter> st(ebur128_init(1, unsigned(rate), mode));
    if (!st)
        throw AudioError("loudness: libebur128 could not be initialised");
    // Mono counts once (BS.1770's weight 1 for a centre channel), as ffmpeg's ebur128 filter does.
    ebur128_set_channel(st.get(), 0, EBUR128_CENTER);
    constexpr size_t kChunk = 1 << 16;
    for (size_t off = 0; off < mono.size(); off += kChunk)
        if (ebur128_add_frames_float(st.get(), mono.data() + off, std::min(kChunk, mono.size() - off)) != EBUR128_SUCCESS)
            throw AudioError("loudness: libebur128 refused the samples");
    return st;
}

double integrated(ebur128_state* st) {
    double v = 0;
    return ebur128_loudness_global(st, &v) == EBUR128_SUCCESS && std::isfinite(v) ? v
                                                                                  : -std::numeric_limits<double>::infinity();
}

}  // namespace

Loudness measure_loudness(const std::vector<float>& mono, int rate) {
    const auto st = metered(mono, rate, EBUR128_MODE_I | EBUR128_MODE_LRA | EBUR128_MODE_TRUE_PEAK);
    Loudness out;
    double v = 0;
    out.integrated_lufs = integrated(st.get());
    out.true_peak_dbtp = ebur128_true_peak(st.get(), 0, &v) == EBUR128_SUCCESS ? lin_to_db(v) : 0.0;
    out.loudness_range_lu = ebur128_loudness_range(st.get(), &v) == EBUR128_SUCCESS && std::isfinite(v) ? v : 0.0;
    return out;
}

double integrated_loudness(const std::vector<float>& mono, int rate) {
    return integrated(metered(mono, rate, EBUR128_MODE_I).get());
}

const std::vector<LoudnessPreset>& loudness_presets() {
    static const std::vector<LoudnessPreset> presets = {
        {"podcast", {-16.0, -1.0}},
        {"audiobook", {-18.0, -3.0}},         // ACX asks for −18…−23 RMS with peaks under −3 dB
        {"audiobook-quiet", {-20.0, -3.0}},
        {"broadcast", {-23.0, -1.0}},         // EBU R128
    };
    return presets;
}

std::vector<float> normalize_loudness(const std::vector<float>& mono, int rate, const LoudnessTarget& target,
                                      NormalizeReport* report) {
    if (!(target.integrated_lufs >= -40.0 && target.integrated_lufs <= -5.0))
        throw AudioError("loudness: a target of " + std::to_string(target.integrated_lufs) +
                         " LUFS is outside −40…−5 LUFS");
    if (!(target.true_peak_ceiling_dbtp >= -9.0 && target.true_peak_ceiling_dbtp <= 0.0))
        throw AudioError("loudness: a true-peak ceiling of " + std::to_string(target.true_peak_ceiling_dbtp) +
                         " dBTP is outside −9…0 dBTP");
    NormalizeReport rep;
    rep.before = measure_loudness(mono, rate);
    if (!std::isfinite(rep.before.integrated_lufs)) {
        rep.after = rep.before;
        if (report)
            *report = rep;
        return mono;
    }
    const std::vector<float> peak = true_peak_envelope(mono, rate);
    // The limiter lowers loudness and the envelope only estimates libebur128's meter: a few rounds
    // correct the threshold by any peak still over and the gain by the loudness still missing. Past
    // the limiter's knee a dB of gain buys less than a dB of loudness, so the gain steps by the
    // secant of the last two rounds (clamped), not by the missing loudness alone.
    constexpr double kMaxGainDb = 60.0;
    double gain_db = std::min(kMaxGainDb, target.integrated_lufs - rep.before.integrated_lufs);
    double threshold_db = target.true_peak_ceiling_dbtp - 0.05;
    double last_gain = 0, last_lufs = 0;
    bool have_last = false;
    std::vector<float> out;
    for (int round = 0; round < 12; ++round) {
        out = gain_and_limit(mono, peak, db_to_lin(gain_db), db_to_lin(threshold_db), rate, &rep.max_reduction_db);
        rep.after = measure_loudness(out, rate);
        rep.gain_db = gain_db;
        if (rep.after.true_peak_dbtp > target.true_peak_ceiling_dbtp) {
            threshold_db -= rep.after.true_peak_dbtp - target.true_peak_ceiling_dbtp + 0.02;
            have_last = false;
            continue;
        }
        const double missing = target.integrated_lufs - rep.after.integrated_lufs;
        if (std::abs(missing) <= 0.05 || gain_db >= kMaxGainDb)
            break;
        double slope = 1.0;
        if (have_last && gain_db != last_gain)
            slope = std::clamp((rep.after.integrated_lufs - last_lufs) / (gain_db - last_gain), 0.05, 1.0);
        last_gain = gain_db;
        last_lufs = rep.after.integrated_lufs;
        have_last = true;
        gain_db = std::min(kMaxGainDb, gain_db + std::clamp(missing / slope, -20.0, 20.0));
    }
    // Never over the ceiling: should the rounds not settle, the whole take goes down by the excess.
    if (rep.after.true_peak_dbtp > target.true_peak_ceiling_dbtp) {
        const double down = db_to_lin(target.true_peak_ceiling_dbtp - rep.after.true_peak_dbtp - 0.01);
        for (float& v : out)
            v = float(double(v) * down);
        rep.after = measure_loudness(out, rate);
    }
    if (report)
        *report = rep;
    return out;
}

}  // namespace reef::audio
