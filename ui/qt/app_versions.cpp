#include "qt/app_versions.h"

#include <QCoreApplication>

#include "audio/audio_versions.h"
#include "reef/engine.h"

namespace reef::ui {

AppVersions appVersions() {
    const VersionInfo v = Engine::versions();
    AppVersions a;
    a.reef = QString::fromStdString(v.reef);
    a.qt = QString::fromLatin1(qVersion());
    a.libtorch = QString::fromStdString(v.libtorch);
    a.cuda = !v.cuda_compiled ? QCoreApplication::translate("reef::ui::AppVersions", "not compiled in")
             : v.cuda_available ? QCoreApplication::translate("reef::ui::AppVersions", "available, CUDA %1").arg(QString::fromStdString(v.cuda_version))
                                : QCoreApplication::translate("reef::ui::AppVersions", "compiled in, no GPU visible");
    a.portaudio = QString::fromStdString(audio::portaudio_version());
    a.sndfile = QString::fromStdString(audio::sndfile_version());
    a.deviceSummary = v.cuda_available ? QStringLiteral("CUDA · libtorch %1").arg(a.libtorch)
                                       : QStringLiteral("CPU · libtorch %1").arg(a.libtorch);
    return a;
}

}  // namespace reef::ui
