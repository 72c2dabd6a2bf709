// makeDeviceSink for builds whose reef_audio has no AudioPlayer yet: playback keeps time silently.
#include "qt/playback_sink.h"

namespace reef::ui {

std::unique_ptr<PlaybackSink> makeDeviceSink(QString* whyNot) {
    if (whyNot)
        *whyNot = QStringLiteral("this build has no audio player");
    return nullptr;
}

}  // namespace reef::ui
