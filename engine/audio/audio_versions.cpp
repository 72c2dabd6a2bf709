#include "audio/audio_versions.h"

#include <portaudio.h>
#include <sndfile.h>
#include <soxr.h>

namespace reef::audio {

std::string portaudio_version() { return Pa_GetVersionText(); }
std::string sndfile_version() { return sf_version_string(); }
std::string soxr_version() { return ::soxr_version(); }

}  // namespace reef::audio
