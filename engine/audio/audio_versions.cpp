#include "audio/audio_versions.h"

#include <ebur128.h>
#include <portaudio.h>
#include <rubberband/RubberBandStretcher.h>
#include <sndfile.h>
#include <soxr.h>

namespace reef::audio {

std::string portaudio_version() { return Pa_GetVersionText(); }
std::string sndfile_version() { return sf_version_string(); }
std::string soxr_version() { return ::soxr_version(); }
std::string ebur128_version() {
    int major = 0, minor = 0, patch = 0;
    ebur128_get_version(&major, &minor, &patch);
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}
std::string rubberband_version() { return RUBBERBAND_VERSION; }

}  // namespace reef::audio
