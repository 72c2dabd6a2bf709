// The compile venv set-up (reef/compile_python.h) off the GUI thread: pip's lines as they come,
// cancel, and one finished signal. The set-up is a child process, no libtorch work, so it runs on
// a thread of its own rather than queueing behind a synthesis on the engine thread.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace reef::ui {

class CompileSetupJob : public QObject {
    Q_OBJECT
public:
    explicit CompileSetupJob(QObject* parent = nullptr);
    ~CompileSetupJob() override;   // cancels and waits: no line arrives after the job is gone

    void start();
    void cancel();
    bool isRunning() const { return m_thread.joinable() && !m_done; }

Q_SIGNALS:
    void line(const QString& text);
    // ok: the venv is ready; else message is the error and its hint
    void finished(bool ok, const QString& message);

private:
    std::thread m_thread;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    std::atomic<bool> m_done{false};
};

}  // namespace reef::ui
