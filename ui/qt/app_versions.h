// Versions shown in the status bar and the About dialog.
#pragma once
#include <QString>

namespace reef::ui {

struct AppVersions {
    QString reef, qt, libtorch, cuda, portaudio, sndfile;
    QString cpuKernels;      // "avx2 (this CPU runs: avx2 sse4 ssse3 scalar)"
    QString deviceSummary;   // "CPU · avx2 · libtorch 2.13.0"
};

AppVersions appVersions();

}  // namespace reef::ui
