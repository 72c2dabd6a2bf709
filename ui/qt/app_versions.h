// Versions shown in the status bar and the About dialog.
#pragma once
#include <QString>

namespace reef::ui {

struct AppVersions {
    QString reef, qt, libtorch, cuda, portaudio, sndfile;
    QString deviceSummary;   // "CPU (libtorch 2.13.0, no CUDA)"
};

AppVersions appVersions();

}  // namespace reef::ui
