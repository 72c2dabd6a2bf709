#include "qt/app_versions.h"

#include <QCoreApplication>

#include "audio/audio_versions.h"
#include "reef/cpu_kernels.h"
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
    // the SIMD target the CPU kernels run: a user on an AVX2 laptop sees it is not an AVX-512 figure
    const CpuKernelInfo k = cpu_kernel_info();
    QString runs;
    for (const std::string& t : k.runnable) runs += (runs.isEmpty() ? "" : " ") + QString::fromStdString(t);
    a.cpuKernels = !k.built ? QStringLiteral("libtorch")
                            : QStringLiteral("%1 (this CPU runs: %2)").arg(QString::fromStdString(k.target), runs);
    a.deviceSummary = v.cuda_available ? QStringLiteral("CUDA · libtorch %1").arg(a.libtorch)
                      : k.built        ? QStringLiteral("CPU · %1 · libtorch %2").arg(QString::fromStdString(k.target), a.libtorch)
                                       : QStringLiteral("CPU · libtorch %1").arg(a.libtorch);
    return a;
}

}  // namespace reef::ui
