// makeDeviceSink for builds whose reef_audio has no AudioPlayer yet: playback keeps time silently.
#include "qt/playback_sink.h"

#include <QCoreApplication>

namespace reef::ui {

std::unique_ptr<PlaybackSink> makeDeviceSink(QString* whyNot) {
    if (whyNot)
        *whyNot = QCoreApplication::translate("reef::ui::PlaybackSink", "this build has no audio player");
    return nullptr;
}

}  // namespace reef::ui
