#include "qt/compile_setup_job.h"

#include <QMetaObject>

#include "reef/compile_python.h"

namespace reef::ui {

CompileSetupJob::CompileSetupJob(QObject* parent) : QObject(parent) {}

CompileSetupJob::~CompileSetupJob() {
    cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void CompileSetupJob::start() {
    if (isRunning())
        return;
    if (m_thread.joinable())
        m_thread.join();
    m_cancel->store(false);
    m_done = false;
    auto cancelled = m_cancel;
    m_thread = std::thread([this, cancelled] {
        // queued to the GUI thread; the destructor joins this thread, so `this` outlives the posts
        auto post = [this](auto fn) { QMetaObject::invokeMethod(this, fn, Qt::QueuedConnection); };
        const Status s = setup_compile_python(
            [&](const std::string& text) {
                const QString t = QString::fromStdString(text);
                post([this, t] { Q_EMIT line(t); });
            },
            [cancelled] { return cancelled->load(); });
        QString message;
        if (!s)
            message = QString::fromStdString(s.error().message) +
                      (s.error().hint.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(s.error().hint)));
        const bool ok = s.ok();
        m_done = true;
        post([this, ok, message] { Q_EMIT finished(ok, message); });
    });
}

void CompileSetupJob::cancel() { m_cancel->store(true); }

}  // namespace reef::ui
