// Versions of the audio libraries, for --version and the About dialog.
#pragma once
#include <string>

namespace reef::audio {

std::string portaudio_version();
std::string sndfile_version();
std::string soxr_version();
std::string ebur128_version();
std::string rubberband_version();

}  // namespace reef::audio
