// The main window over the scripted fake backend, with everything it needs in a temp folder
// (settings, voices, optionally the take history and dictionary), for the window tests; plus the
// small file helpers they share.
#pragma once
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "fake_backend.h"
#include "qt/engine_controller.h"
#include "qt/playback_controller.h"
#include "qt/settings.h"
#include "qt/voice_list_model.h"
#include "widgets/main_window.h"

namespace reef_test {

struct FakeWindow {
    QTemporaryDir dir;
    std::shared_ptr<FakeScript> script = std::make_shared<FakeScript>();
    reef::ui::Settings settings{dir.filePath(QStringLiteral("reef.ini"))};
    reef::ui::VoiceListModel voices{dir.filePath(QStringLiteral("voices"))};
    reef::ui::EngineController engine{std::make_unique<FakeBackend>(script)};
    reef::ui::PlaybackController playback{std::make_unique<reef::ui::ClockSink>()};
    std::unique_ptr<reef::ui::MainWindow> window;
    // dataDir: where the take history and the dictionary live (StudioController::openDataDir); empty = none.
    explicit FakeWindow(const QString& dataDir = {}) {
        settings.setModelDir(dir.path());
        window = std::make_unique<reef::ui::MainWindow>(engine, settings, playback, voices);
        if (!dataDir.isEmpty())
            window->studio().openDataDir(dataDir);
        window->show();
        window->activateWindow();
    }
    bool load() {
        window->loadModel();
        return QTest::qWaitFor([&] { return engine.state() == reef::ui::EngineState::Ready; }, 3000);
    }
};

inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// With REEF_SCREENS_DIR set (scripts/screenshots.sh), saves the widget as name there.
inline void saveScreen(QWidget* w, const char* name) {
    const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(QDir(dir).filePath(QString::fromLatin1(name))));
}

}  // namespace reef_test
