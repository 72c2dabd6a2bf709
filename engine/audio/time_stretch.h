// Pace: speech made faster or slower without changing its pitch (Rubber Band's offline R3
// stretcher), applied after synthesis to a take, a project export or a server response.
#pragma once
#include <string>
#include <vector>

namespace reef::audio {

inline constexpr double kMinSpeed = 0.5;
inline constexpr double kMaxSpeed = 2.0;

// The samples played at `speed` times the tempo, same pitch: exactly round(n / speed) samples.
// speed 1 returns the input unchanged. Throws AudioError for a speed outside 0.5…2 or a bad rate.
std::vector<float> change_tempo(const std::vector<float>& mono, int rate, double speed);

}  // namespace reef::audio
