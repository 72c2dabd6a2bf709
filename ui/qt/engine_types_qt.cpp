#include "qt/engine_types_qt.h"

namespace reef::ui {

void registerEngineMetaTypes() {
    qRegisterMetaType<reef::EngineConfig>();
    qRegisterMetaType<reef::SynthesisRequest>();
    qRegisterMetaType<reef::SynthesisResult>();
    qRegisterMetaType<reef::AudioChunk>();
    qRegisterMetaType<reef::PerfSample>();
    qRegisterMetaType<reef::ModelInfo>();
    qRegisterMetaType<reef::DeviceCaps>();
    qRegisterMetaType<reef::Codes>();
    qRegisterMetaType<reef::EngineError>();
    qRegisterMetaType<reef::BenchRequest>();
    qRegisterMetaType<reef::BenchReport>();
}

QString errorText(const EngineError& error) {
    QString text = qs(error.message);
    if (text.isEmpty())
        text = qs(error_code_name(error.code));
    if (!error.hint.empty())
        text += QStringLiteral(" — ") + qs(error.hint);
    return text;
}

QString formatBytes(int64_t bytes) {
    if (bytes < 0)
        return QStringLiteral("n/a");
    const double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        return QStringLiteral("%1 GiB").arg(mib / 1024.0, 0, 'f', 2);
    return QStringLiteral("%1 MiB").arg(mib, 0, 'f', 1);
}

}  // namespace reef::ui
