// The whole window over the fake backend: type, Generate, watch progress and charts, Stop, export a
// valid WAV; the Compare view fills from a fake bench; load errors land in the banner.
// With REEF_SCREENS_DIR set it also saves screenshots of the main window and the Compare view.
#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "audio/wav_file.h"
#include "fake_backend.h"
#include "fake_window.h"
#include "qt/bench_table_model.h"
#include "qt/engine_controller.h"
#include "qt/perf_history_model.h"
#include "qt/playback_controller.h"
#include "qt/settings.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "widgets/about_dialog.h"
#include "widgets/banner.h"
#include "widgets/compare_view.h"
#include "widgets/main_window.h"
#include "widgets/perf_chart_widget.h"
#include "widgets/player_bar.h"
#include "widgets/settings_panel.h"
#include "widgets/synthesis_panel.h"

using namespace reef;
using namespace reef::ui;
using reef_test::FakeBackend;
using reef_test::FakeScript;
using reef_test::saveScreen;
using App = reef_test::FakeWindow;

namespace {

}  // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void constructsWithTitleAndVersions() {
        App app;
        QVERIFY(QTest::qWaitForWindowExposed(app.window.get()));
        QCOMPARE(app.window->windowTitle(), QStringLiteral("Reef"));
        QVERIFY(app.window->statusDeviceText().contains(QStringLiteral("libtorch 2.")));
        QVERIFY(!app.window->generateButton()->isEnabled());   // no model loaded yet: disabled, not fake
        QVERIFY(!app.window->generateButton()->toolTip().isEmpty());
    }

    void aboutShowsLibraryVersions() {
        AboutDialog d;
        const QString t = d.versionsText();
        QVERIFY(t.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        QVERIFY(t.contains(QStringLiteral("PortAudio")));
        QVERIFY(t.contains(QStringLiteral("libsndfile")));
    }

    void wholeFakeSynthesis() {
        App app;
        app.script->frames = 60;
        app.script->frame_delay_ms = 8;
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        QVERIFY(!w.generateButton()->isEnabled());   // no text yet: disabled, with the reason
        QVERIFY(w.generateButton()->toolTip().contains(QStringLiteral("Type some text")));
        QTest::keyClicks(w.textEdit(), QStringLiteral("Hello from the fake engine."));
        QVERIFY(w.generateButton()->isEnabled());
        QSignalSpy finished(&app.engine, &EngineController::synthesisFinished);
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        // Generate goes through the queue, which starts the item from the event loop.
        QTRY_VERIFY_WITH_TIMEOUT(!w.generateButton()->isEnabled(), 1000);
        QVERIFY(w.stopButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(w.synthesisPanel()->progressText().contains(QStringLiteral("frames")), 3000);
        QTRY_VERIFY_WITH_TIMEOUT(w.perfChart()->pointCount() >= 2, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(app.playback.isPlaying(), 3000);   // plays while generating
        QVERIFY(app.engine.state() == EngineState::Generating);
        QVERIFY(finished.wait(5000));
        QTest::qWait(20);
        QVERIFY(w.synthesisPanel()->progressText().startsWith(QStringLiteral("Done")));
        QCOMPARE(w.takesModel().rowCount(), 1);
        QCOMPARE(w.takesModel().take(0).text, QStringLiteral("Hello from the fake engine."));
        QCOMPARE(qint64(app.playback.samples().size()), qint64(60) * kSamplesPerFrame);
        QVERIFY(w.perfModel().rowCount() >= 2);   // the last run stays visible
        QVERIFY(w.playerBar()->exportButton()->isEnabled());
        saveScreen(&w, "main_window.png");

        // Export writes a valid WAV with the take's samples.
        const QString wav = app.dir.filePath(QStringLiteral("take.wav"));
        QString error;
        QVERIFY2(w.exportAudio(wav, &error), qPrintable(error));
        const audio::AudioData back = audio::read_audio(wav.toStdString());
        QCOMPARE(back.sample_rate, kSampleRate);
        QCOMPARE(back.channels, 1);
        QCOMPARE(back.frames(), qint64(60) * kSamplesPerFrame);
        QVERIFY(std::abs(back.samples[100] - app.playback.samples()[100]) < 1e-3f);
        QVERIFY(w.exportTake(0, app.dir.filePath(QStringLiteral("take0.wav")), &error));
        QVERIFY(!w.exportAudio(app.dir.filePath(QStringLiteral("no/such/dir/x.wav")), &error));
        QVERIFY(!error.isEmpty());
    }

    void stopWorks() {
        App app;
        app.script->frames = 100000;
        app.script->frame_delay_ms = 3;
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        w.textEdit()->setPlainText(QStringLiteral("A very long text."));
        QSignalSpy progress(&app.engine, &EngineController::progress);
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        QVERIFY(progress.wait(3000));
        QTest::mouseClick(w.stopButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(app.engine.state(), EngineState::Ready, 3000);
        QVERIFY(w.generateButton()->isEnabled());
        QVERIFY(!w.stopButton()->isEnabled());
        QCOMPARE(w.synthesisPanel()->progressText(), QStringLiteral("Stopped."));
        QCOMPARE(w.takesModel().rowCount(), 0);
    }

    void failingLoadShowsTheBanner() {
        App app;
        app.script->load_error = EngineError{ErrorCode::CorruptModel, "model.safetensors is truncated at byte 1024", {}};
        app.window->loadModel();
        QTRY_VERIFY_WITH_TIMEOUT(app.window->banner()->isVisible(), 3000);
        QCOMPARE(app.window->banner()->kind(), Banner::Kind::Error);
        QVERIFY(app.window->banner()->text().contains(QStringLiteral("truncated at byte 1024")));
        app.window->banner()->dismiss();
        QVERIFY(!app.window->banner()->isVisible());
    }

    void demoModelSaysItIsNoise() {
        App app;
        app.script->info.is_demo = true;
        app.script->info.name = "demo tiny";
        QVERIFY(app.load());
        QVERIFY(app.window->banner()->isVisible());
        QCOMPARE(app.window->banner()->kind(), Banner::Kind::Info);
        QVERIFY(app.window->banner()->text().contains(QStringLiteral("random weights")));
        QVERIFY(app.window->banner()->text().contains(QStringLiteral("Open model folder")));
    }

    void firstStartWithoutModelUsesTheDemoModel() {
        App app;
        app.settings.setModelDir(QString());
        app.window->startUp(app.dir.filePath(QStringLiteral("data")));
        // Either the demo model was written and is loading, or the banner says why it could not be.
        if (app.settings.modelDir().isEmpty()) {
            QVERIFY(app.window->banner()->isVisible());
            QVERIFY(app.window->banner()->text().contains(QStringLiteral("demo model")));
        } else {
            QVERIFY(app.settings.modelDir().endsWith(QStringLiteral("demo-tiny")));
            QTRY_COMPARE_WITH_TIMEOUT(app.engine.state(), EngineState::Ready, 3000);
        }
    }

    void unavailableOptionsAreDisabledWithAReason() {
        App app;
        QTRY_VERIFY_WITH_TIMEOUT(!app.engine.deviceCaps().devices.empty(), 3000);
        QComboBox* device = app.window->settingsPanel()->deviceCombo();
        const int cuda = device->findData(QStringLiteral("cuda"));
        QVERIFY(cuda >= 0);
        auto* model = qobject_cast<QStandardItemModel*>(device->model());
        QVERIFY(!model->item(cuda)->isEnabled());
        QVERIFY(model->item(cuda)->toolTip().contains(QStringLiteral("CUDA")));
        QComboBox* sdpa = app.window->settingsPanel()->sdpaCombo();
        QVERIFY(!qobject_cast<QStandardItemModel*>(sdpa->model())->item(sdpa->findData(QStringLiteral("flash")))->isEnabled());
    }

    void settingsPanelWritesSettings() {
        App app;
        QSignalSpy sampling(&app.settings, &Settings::samplingChanged);
        app.window->settingsPanel()->seedSpin()->setValue(1234);
        QCOMPARE(app.settings.sampling().seed, uint64_t(1234));
        QCOMPARE(sampling.count(), 1);
        QComboBox* sdpa = app.window->settingsPanel()->sdpaCombo();
        sdpa->setCurrentIndex(sdpa->findData(QStringLiteral("math")));
        QCOMPARE(app.settings.engineConfig().sdpa_policy, SdpaPolicy::Math);
    }

    void compareViewFillsFromAFakeBench() {
        App app;
        QVERIFY(app.load());
        app.window->tabs()->setCurrentWidget(app.window->compareView());
        CompareView& cv = *app.window->compareView();
        QCOMPARE(cv.selectedArms().size(), size_t(2));   // eager × {auto, math} × active
        QVERIFY(cv.runButton()->isEnabled());
        QSignalSpy done(&app.engine, &EngineController::benchFinished);
        QTest::mouseClick(cv.runButton(), Qt::LeftButton);
        QVERIFY(done.wait(3000));
        QTest::qWait(20);
        QCOMPARE(cv.tableModel().rowCount(), 2);
        QCOMPARE(cv.barCount(), 2);
        QVERIFY(cv.table()->indexWidget(cv.tableModel().index(0, BenchTableModel::Play)) != nullptr);
        QVERIFY(cv.statusText().contains(QStringLiteral("fake CPU")));
        saveScreen(app.window.get(), "compare_view.png");

        const QString base = app.dir.filePath(QStringLiteral("report"));
        const QStringList errors = cv.exportAll(base);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        for (const char* suffix : {".json", ".md", ".csv", ".png"})
            QVERIFY2(QFileInfo(base + QLatin1String(suffix)).size() > 0, suffix);
        QFile md(base + QStringLiteral(".md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("eager:math"));
        QImage png(base + QStringLiteral(".png"));
        QVERIFY(!png.isNull() && png.width() > 100);
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
