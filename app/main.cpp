// reef: the desktop app. Wires the engine, the Qt glue and the widgets; nothing else.
#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QScreen>
#include <QStandardPaths>
#include <QTimer>
#include <cstdio>

#include "qt/engine_controller.h"
#include "qt/playback_controller.h"
#include "qt/settings.h"
#include "qt/translations.h"
#include "qt/voice_list_model.h"
#include "reef/engine.h"
#include "widgets/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Reef"));
    QApplication::setOrganizationName(QStringLiteral("Reef"));
    QApplication::setApplicationVersion(QStringLiteral(REEF_VERSION));
    // The installed desktop entry and icon share this id (packaging/): it lets Wayland compositors
    // and docks match the window to the menu entry, and the icon theme find the installed icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.reefstudio.Reef"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.reefstudio.Reef")));

    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dataDir);
    reef::ui::Settings settings;
    // Before any widget exists: widgets translate their strings when they are built.
    reef::ui::installTranslations(app, settings.language());
    reef::ui::VoiceListModel voices(QDir(dataDir).filePath(QStringLiteral("voices")));
    reef::ui::EngineController engine(std::make_unique<reef::Engine>());

    QString noDevice;
    std::unique_ptr<reef::ui::PlaybackSink> sink = reef::ui::makeDeviceSink(&noDevice);
    if (sink && !settings.audioDevice().isEmpty()) {
        try {
            sink->openDevice(settings.audioDevice());
        } catch (const std::exception&) {
            // the default device is opened on the first play; the player reports its own error
        }
    }
    reef::ui::PlaybackController playback(std::move(sink));   // null -> silent ClockSink

    reef::ui::MainWindow window(engine, settings, playback, voices);
    window.show();
    window.startUp(dataDir);
    // Headless screenshots for docs and smoke checks (packaging/test-deb-chroot.sh uses them):
    // QT_QPA_PLATFORM=offscreen REEF_GRAB_PNG=out.png [REEF_GRAB_AFTER_MS=3000] reef
    // REEF_GRAB_GENERATE="text": once the model is loaded, generate that text and grab when the take
    // is done (REEF_GRAB_AFTER_MS is then only the give-up limit, default 120 s).
    // REEF_GRAB_SCREEN=1: grab the whole screen (X11/Xvfb: menus, decorations) instead of the window.
    if (const QString grab = qEnvironmentVariable("REEF_GRAB_PNG"); !grab.isEmpty()) {
        const QString text = qEnvironmentVariable("REEF_GRAB_GENERATE");
        const bool screen = qEnvironmentVariableIntValue("REEF_GRAB_SCREEN") != 0;
        auto shoot = [&window, grab, screen] {
            QScreen* s = window.screen();
            const QPixmap shot = screen && s ? s->grabWindow(0) : window.grab();
            std::fprintf(stderr, "reef: %s %s\n", shot.save(grab) ? "wrote" : "could not write", qPrintable(grab));
            QApplication::quit();
        };
        const int after = qEnvironmentVariableIntValue("REEF_GRAB_AFTER_MS");
        QTimer::singleShot(after > 0 ? after : (text.isEmpty() ? 3000 : 120000), &window, shoot);
        if (!text.isEmpty()) {
            QObject::connect(&engine, &reef::ui::EngineController::modelLoaded, &window, [&window, text] {
                window.textEdit()->setPlainText(text);
                window.generate();
            });
            auto later = [&window, shoot] { QTimer::singleShot(500, &window, shoot); };   // let charts redraw
            QObject::connect(&engine, &reef::ui::EngineController::synthesisFinished, &window, later);
            QObject::connect(&engine, &reef::ui::EngineController::synthesisFailed, &window, later);
        }
    }
    return QApplication::exec();
}
