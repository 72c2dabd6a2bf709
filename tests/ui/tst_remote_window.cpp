// The whole window with speech from a server: reef-cli serve (loopback, with a key) on the tiny demo
// model. Settings → Speech from a server: a wrong key is refused with a banner that says so; the
// right one connects and the status bar says where speech is made; a project's segments are
// generated remotely, two requests at once (one item cancelled), stored like local takes with the server recorded
// in their settings, and exported. With REEF_SCREENS_DIR set it saves remote_project.png.
#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "audio/wav_file.h"
#include "qt/engine_controller.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/settings.h"
#include "qt/synthesis_queue.h"
#include "qt/takes_model.h"
#include "qt/translations.h"
#include "qt/voice_list_model.h"
#include "reef/engine.h"
#include "widgets/banner.h"
#include "widgets/main_window.h"
#include "widgets/perf_chart_widget.h"
#include "widgets/project_view.h"
#include "widgets/server_settings.h"
#include "widgets/settings_panel.h"

using namespace reef;
using namespace reef::ui;

class TstRemoteWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QProcess m_server;
    QString m_url;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        installTranslations(*qApp, QStringLiteral("en"));   // as the app does: English plural forms
        const QString demo = m_dir.filePath(QStringLiteral("demo"));
        QVERIFY(write_demo_model(demo.toStdString(), "tiny", "s2").ok());
        const QString portFile = m_dir.filePath(QStringLiteral("port"));
        m_server.setProcessChannelMode(QProcess::ForwardedChannels);
        m_server.start(qEnvironmentVariable("REEF_CLI"), {QStringLiteral("serve"), QStringLiteral("-m"), demo,
                                                          QStringLiteral("--port"), QStringLiteral("0"),
                                                          QStringLiteral("--port-file"), portFile,
                                                          QStringLiteral("--api-key"), QStringLiteral("s3cret")});
        QVERIFY(m_server.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(portFile), 60000);
        QFile f(portFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        m_url = QStringLiteral("http://127.0.0.1:%1").arg(QString::fromLatin1(f.readAll()).trimmed());
    }

    void cleanupTestCase() {
        m_server.terminate();
        m_server.waitForFinished(10000);
    }

    // A start with "Speech from a server" on: the window connects to the server instead of loading
    // a model folder (the key, absent from the settings file, from the secret store or this session).
    void startingUpConnectsToTheServer() {
        Settings settings(m_dir.filePath(QStringLiteral("start.ini")));
        ServerProfile p;
        p.url = m_url.toStdString();
        settings.setServerProfile(p);
        settings.setUseServer(true);
        VoiceListModel voices(m_dir.filePath(QStringLiteral("voices-start")));
        EngineController engine(std::make_unique<Engine>());
        PlaybackController playback(std::make_unique<ClockSink>());
        {   // no key anywhere: the server refuses, and the banner says where to fix it
            MainWindow w(engine, settings, playback, voices);
            QSignalSpy failed(&engine, &EngineController::loadFailed);
            w.startUp(m_dir.filePath(QStringLiteral("data-start")));
            QVERIFY(failed.wait(30000));
            QVERIFY2(w.banner()->text().contains(QStringLiteral("Speech from a server")), qPrintable(w.banner()->text()));
        }
        settings.setServerKey(QStringLiteral("s3cret"));   // as typed in this session
        MainWindow w(engine, settings, playback, voices);
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        w.startUp(m_dir.filePath(QStringLiteral("data-start")));
        QVERIFY(loaded.wait(30000));
        QVERIFY(w.studio().isRemote());
        QVERIFY2(w.statusDeviceText().contains(m_url), qPrintable(w.statusDeviceText()));
        QVERIFY(settings.modelDir().isEmpty());   // no demo model was made for a server start
    }

    void aProjectMadeOnAServer() {
        Settings settings(m_dir.filePath(QStringLiteral("reef.ini")));
        VoiceListModel voices(m_dir.filePath(QStringLiteral("voices")));
        EngineController engine(std::make_unique<Engine>());   // this machine's engine stays unused
        PlaybackController playback(std::make_unique<ClockSink>());
        // This computer's engine set to bf16: nothing of it may show up in what the server (fp32) made.
        EngineConfig local = settings.engineConfig();
        local.precision = Precision::Bf16;
        settings.setEngineConfig(local);
        MainWindow w(engine, settings, playback, voices);
        w.resize(1400, 900);
        w.show();

        // Settings → Speech from a server, as a user fills it in: a wrong key first.
        ServerSettings* server = w.settingsPanel()->serverSettings();
        server->urlEdit()->setText(m_url);
        server->keyEdit()->setText(QStringLiteral("wrong"));
        QSignalSpy failed(&engine, &EngineController::loadFailed);
        server->connectButton()->click();   // (the dock scrolls: the button may be out of view)
        QVERIFY(failed.wait(30000));
        QVERIFY2(w.banner()->isVisible() && w.banner()->text().contains(QStringLiteral("Could not connect to the server")),
                 qPrintable(w.banner()->text()));
        QVERIFY2(w.banner()->text().contains(QStringLiteral("refused the API key")), qPrintable(w.banner()->text()));
        // A GUI user is told where the studio takes the key, not reef-cli's flags (issue #47).
        QVERIFY2(w.banner()->text().contains(QStringLiteral("Settings → Speech from a server → Key")) &&
                     !w.banner()->text().contains(QStringLiteral("--api-key")),
                 qPrintable(w.banner()->text()));
        // The key never reaches the settings file.
        settings.sync();
        QFile ini(m_dir.filePath(QStringLiteral("reef.ini")));
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray stored = ini.readAll();
        QVERIFY(!stored.contains("wrong"));
        QVERIFY(stored.contains(m_url.toUtf8()));

        server->keyEdit()->setText(QStringLiteral("s3cret"));
        server->concurrencySpin()->setValue(2);   // two requests on the server at once
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        server->connectButton()->click();   // (the dock scrolls: the button may be out of view)
        QVERIFY(loaded.wait(30000));
        QVERIFY2(w.statusDeviceText().contains(m_url), qPrintable(w.statusDeviceText()));
        QVERIFY(w.studio().isRemote());
        QTRY_COMPARE_WITH_TIMEOUT(w.queue().laneCount(), 2, 30000);   // the second connection answered
        // The Engine panel is this computer's: disabled, with a note naming the server and how it runs.
        QVERIFY(!w.settingsPanel()->engineGroup()->isEnabled());
        QVERIFY2(w.settingsPanel()->servedByNote()->isVisibleTo(w.settingsPanel()) &&
                     w.settingsPanel()->servedByNote()->text().contains(QStringLiteral("fp32")),
                 qPrintable(w.settingsPanel()->servedByNote()->text()));

        // A project of three segments made on the server; the second cancelled while it waits.
        ProjectModel& project = w.project();
        project.newProject(QStringLiteral("Remote"),
                           QStringLiteral("Reefs are made by corals. They need warm water. Divers love them."),
                           SplitMode::Sentences);
        QCOMPARE(project.segmentCount(), 3);
        SamplingParams p = settings.sampling();
        p.max_new_frames = 12;
        settings.setSampling(p);
        int mostAtOnce = 0;
        connect(&w.queue(), &SynthesisQueue::itemStarted, this,
                [&] { mostAtOnce = std::max(mostAtOnce, w.queue().runningCount()); });
        const QList<quint64> ids = w.studio().generateSegments({0, 1, 2});
        QCOMPARE(ids.size(), 3);
        w.queue().cancel(ids[1]);
        QSignalSpy idle(&w.queue(), &SynthesisQueue::idle);
        QVERIFY(idle.wait(120000));
        QVERIFY(project.segment(0).hasAudio());
        QVERIFY(!project.segment(1).hasAudio());
        QVERIFY(project.segment(2).hasAudio());
        QCOMPARE(w.queue().item(ids[1])->state, QueueItem::State::Cancelled);
        QCOMPARE(mostAtOnce, 2);
        const SegmentTake& take = project.segment(0).takes[0];
        QVERIFY(!take.audio.empty());
        QCOMPARE(take.metrics.stop_reason, std::string("server"));
        QVERIFY2(take.madeWith.contains(m_url), qPrintable(take.madeWith));   // the server it came from

        // A take of the Synthesis tab records the server as where it was made.
        w.textEdit()->setPlainText(QStringLiteral("A take from the server."));
        const int before = w.takesModel().rowCount();
        QSignalSpy progress(&engine, &EngineController::progress);
        // The README's picture of a remote run: the window while the server's audio streams in
        // (a longer take, so there is a moment between the first frame and the last).
        SamplingParams longer = settings.sampling();
        longer.max_new_frames = 200;
        settings.setSampling(longer);
        bool shot = false;
        QMetaObject::Connection mid;
        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty())
            mid = connect(&engine, &EngineController::progress, this, [&, dir](quint64, int frames) {
                if (shot || frames < 20)
                    return;
                shot = true;
                QDir().mkpath(dir);
                w.grab().save(QDir(dir).filePath(QStringLiteral("remote_progress.png")));
            });
        w.generate();
        QTRY_VERIFY_WITH_TIMEOUT(w.takesModel().rowCount() > before, 60000);
        // Progress moved while the server streamed (frames counted from the audio that arrived),
        // and the chart got samples; it says the server did not report its attention backends.
        int lastFrames = 0, reports = 0;
        for (const QList<QVariant>& p : progress)
            if (p.at(1).toInt() > lastFrames) {
                lastFrames = p.at(1).toInt();
                ++reports;
            }
        QVERIFY2(reports >= 2, qPrintable(QString::number(reports)));
        disconnect(mid);
        QVERIFY(w.perfChart()->pointCount() > 0);
        QVERIFY2(w.perfChart()->backendText().contains(QStringLiteral("not reported")), qPrintable(w.perfChart()->backendText()));
        QVERIFY2(QString::fromStdString(w.takesModel().take(0).config.model_dir) == m_url,
                 qPrintable(QString::fromStdString(w.takesModel().take(0).config.model_dir)));
        // Its settings are the server's, as it reported them (reef-cli serve runs fp32 here), never this
        // computer's bf16; and the history does not claim a stop reason the server never gave.
        const QString summary = w.takesModel().take(0).settingsSummary();
        QVERIFY2(summary.contains(m_url) && summary.contains(QStringLiteral("fp32")) && !summary.contains(QStringLiteral("bf16")),
                 qPrintable(summary));
        const QString stop = w.takesModel().data(w.takesModel().index(0, TakesModel::StopReason)).toString();
        QVERIFY2(stop != QStringLiteral("server"), qPrintable(stop));

        // A reconnect with a wrong key fails; the connection goes on with the right key, and the key
        // field shows that one again, not the refused one.
        server->keyEdit()->setText(QStringLiteral("wrong-again"));
        QSignalSpy failedAgain(&engine, &EngineController::loadFailed);
        server->connectButton()->click();
        QVERIFY(failedAgain.wait(30000));
        QVERIFY(w.studio().isRemote());
        QTRY_COMPARE_WITH_TIMEOUT(server->keyEdit()->text(), QStringLiteral("s3cret"), 2000);
        QCOMPARE(settings.serverKey(), QStringLiteral("s3cret"));

        // Exported like any project: the two segments with audio, read back.
        QString error;
        const QString out = m_dir.filePath(QStringLiteral("remote.wav"));
        QVERIFY2(w.studio().exportProjectTo(out, audio::ExportFormat::WavPcm16, 0, &error), qPrintable(error));
        const audio::AudioData back = audio::read_audio(out.toStdString());
        QCOMPARE(back.frames(), qint64(project.segment(0).takes[0].audio.size() + project.segment(2).takes[0].audio.size()));

        // Saved as a named profile: the studio lists it, and reef-cli finds it by name in the same file.
        QVERIFY(server->saveProfileAs(QStringLiteral("Loopback box")));
        QCOMPARE(settings.serverProfileNames(), QStringList{QStringLiteral("Loopback box")});
        QVERIFY(server->profileCombo()->findData(QStringLiteral("Loopback box")) > 0);
        settings.sync();
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REEF_SETTINGS"), m_dir.filePath(QStringLiteral("reef.ini")));
        env.insert(QStringLiteral("REEF_API_KEY"), QStringLiteral("s3cret"));
        cli.setProcessEnvironment(env);
        const QString byName = m_dir.filePath(QStringLiteral("by-name.wav"));
        cli.start(qEnvironmentVariable("REEF_CLI"), {QStringLiteral("synth"), QStringLiteral("--server"),
                                                     QStringLiteral("Loopback box"), QStringLiteral("-t"),
                                                     QStringLiteral("By name."), QStringLiteral("--max-new-frames"),
                                                     QStringLiteral("8"), QStringLiteral("-o"), byName});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(audio::read_audio(byName.toStdString()).frames() > 0);
        cli.start(qEnvironmentVariable("REEF_CLI"), {QStringLiteral("synth"), QStringLiteral("--server"),
                                                     QStringLiteral("Nowhere"), QStringLiteral("-t"), QStringLiteral("x"),
                                                     QStringLiteral("-o"), byName});
        QVERIFY(cli.waitForFinished(60000));
        const QByteArray said = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() != 0 && said.contains("it has: Loopback box"), said.constData());
        // Another profile, then back: selecting one brings its address back and clears the key,
        // which the secret store (where there is one) supplies again.
        server->urlEdit()->setText(QStringLiteral("http://127.0.0.1:9"));
        QVERIFY(server->saveProfileAs(QStringLiteral("Nothing there")));
        QVERIFY(settings.selectServerProfile(QStringLiteral("Loopback box")));
        QCOMPARE(server->urlEdit()->text(), m_url);
        QVERIFY(settings.serverKey().isEmpty());
        settings.removeServerProfile(QStringLiteral("Nothing there"));
        QCOMPARE(settings.serverProfileNames(), QStringList{QStringLiteral("Loopback box")});
        settings.sync();
        QFile again(m_dir.filePath(QStringLiteral("reef.ini")));
        QVERIFY(again.open(QIODevice::ReadOnly));
        QVERIFY(!again.readAll().contains("s3cret"));   // profiles hold no keys either

        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty()) {
            w.tabs()->setCurrentWidget(w.projectView());
            w.projectView()->selectRow(0);
            QTest::qWait(300);
            QDir().mkpath(dir);
            QVERIFY(w.grab().save(QDir(dir).filePath(QStringLiteral("remote_project.png"))));
        }
    }
};

QTEST_MAIN(TstRemoteWindow)
#include "tst_remote_window.moc"
