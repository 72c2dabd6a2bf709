// The one exception type of reef_audio; messages name the file or device and the reason.
#pragma once
#include <stdexcept>

namespace reef::audio {

class AudioError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace reef::audio
