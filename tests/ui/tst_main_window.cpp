// The whole window over the fake backend: type, Generate, watch progress and charts, Stop, export a
// valid WAV; the Compare view fills from a fake bench; load errors land in the banner.
// With REEF_SCREENS_DIR set it also saves screenshots of the main window and the Compare view.
#include <cmath>

#include <QCheckBox>
#include <QHeaderView>
#include <QGroupBox>
#include <QAction>
#include <QMenuBar>
#include <QScrollBar>
#include <QScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QProgressBar>
#include <QSignalSpy>
#include <QtCharts>
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
#include "qt/synthesis_queue.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "widgets/about_dialog.h"
#include "widgets/banner.h"
#include "widgets/compare_view.h"
#include "widgets/main_window.h"
#include "widgets/perf_chart_widget.h"
#include "widgets/player_bar.h"
#include "widgets/queue_view.h"
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
        QVERIFY(t.contains(QStringLiteral("CPU kernels ")));  // the SIMD target that runs (or libtorch)
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
        // the last sample's decode threads (the fake moved from 2 to 1 halfway), beside the backends
        QTRY_VERIFY2_WITH_TIMEOUT(w.perfChart()->backendText().endsWith(QStringLiteral(" · decode threads: 1 of 2")),
                                  qPrintable(w.perfChart()->backendText()), 2000);
        // The four call sites' lines stay apart where they share a backend (issue #47): each has its
        // own dash pattern and its own offset within the backend's row.
        QSet<int> styles;
        QList<double> offsets;
        for (int c = 0; c < kNumCallSites; ++c) {
            const QLineSeries* line = w.perfChart()->backendSeries(c);
            QVERIFY(line->count() > 0);
            styles.insert(int(line->pen().style()));
            offsets << line->at(0).y() - std::round(line->at(0).y());
        }
        QCOMPARE(int(styles.size()), kNumCallSites);
        for (int i = 0; i < offsets.size(); ++i)
            for (int j = i + 1; j < offsets.size(); ++j)
                QVERIFY2(std::abs(offsets[i] - offsets[j]) >= 0.09, qPrintable(QStringLiteral("sites %1 and %2").arg(i).arg(j)));
        QVERIFY(w.playerBar()->exportButton()->isEnabled());
        saveScreen(&w, "main_window.png");

        // Export writes a valid WAV with the take's samples.
        const QString wav = app.dir.filePath(QStringLiteral("take.wav"));
        QString error;
        QVERIFY2(w.exportTo(-1, wav, &error), qPrintable(error));
        const audio::AudioData back = audio::read_audio(wav.toStdString());
        QCOMPARE(back.sample_rate, kSampleRate);
        QCOMPARE(back.channels, 1);
        QCOMPARE(back.frames(), qint64(60) * kSamplesPerFrame);
        QVERIFY(std::abs(back.samples[100] - app.playback.samples()[100]) < 1e-3f);
        QVERIFY(w.exportTo(0, app.dir.filePath(QStringLiteral("take0.wav")), &error));
        QVERIFY(!w.exportTo(-1, app.dir.filePath(QStringLiteral("no/such/dir/x.wav")), &error));
        QVERIFY(!error.isEmpty());
    }

    // Issue #47 fault 5: a compile before the first frame (the fake sleeps 3 s there) is no decode
    // time. Counting it, the ETA at frame N of F would be at least (F - N) * elapsed / N; timed from
    // the first frame it is (F - N) frames at the decode's own pace, far below that.
    void etaCountsDecodingFromItsFirstFrame() {
        App app;
        constexpr int kFrames = 150;
        app.script->frames = kFrames;
        app.script->frame_delay_ms = 10;
        app.script->first_frame_delay_ms = 3000;
        QVERIFY(app.load());
        SamplingParams p = app.settings.sampling();
        p.max_new_frames = kFrames;
        app.settings.setSampling(p);
        MainWindow& w = *app.window;
        w.textEdit()->setPlainText(QStringLiteral("A text whose decode step compiles first."));
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        static const QRegularExpression pattern(
            QStringLiteral("^(\\d+) frames · ([0-9.]+) s elapsed · ETA ≤ ([0-9.]+) s · ([0-9.]+)× real time"));
        QRegularExpressionMatch m;
        QTRY_VERIFY_WITH_TIMEOUT((m = pattern.match(w.synthesisPanel()->progressText())).hasMatch() &&
                                     m.captured(1).toInt() >= 40,
                                 15000);
        const int n = m.captured(1).toInt();
        const double elapsed = m.captured(2).toDouble(), eta = m.captured(3).toDouble(), rtf = m.captured(4).toDouble();
        QVERIFY2(n < kFrames, qPrintable(m.captured(0)));
        QVERIFY2(elapsed >= 3.0, qPrintable(m.captured(0)));   // the elapsed time still counts the compile
        const double countingTheCompile = (kFrames - n) * elapsed / n;
        QVERIFY2(eta < 0.6 * countingTheCompile, qPrintable(QStringLiteral("%1 (counting the compile: ETA %2 s)")
                                                                 .arg(m.captured(0))
                                                                 .arg(countingTheCompile)));
        // The real-time factor likewise: audio made per second of decoding, not per second since Generate.
        const double audioPerElapsed = n / kFramesPerSecond / elapsed;
        QVERIFY2(rtf > 1.5 * audioPerElapsed, qPrintable(m.captured(0)));
        app.engine.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(app.engine.state(), EngineState::Ready, 5000);
    }

    // Issue #47 fault 3: a long one-line error wraps in the window instead of widening it and
    // pushing the Settings dock off screen.
    void aLongErrorWrapsInsteadOfWideningTheWindow() {
        App app;
        app.window->resize(1280, 860);
        QVERIFY(QTest::qWaitForWindowExposed(app.window.get()));
        app.script->frames = 3;
        QString reason = QStringLiteral("compile mode 'aot-inductor' cannot run this:");
        while (reason.size() < 600)
            reason += QStringLiteral(" the_package_at_/a/very/long/path/that/keeps/going");
        app.script->synth_error = EngineError{ErrorCode::BackendUnavailable, reason.toStdString(), "pick another"};
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        QWidget* dock = w.findChild<QDockWidget*>(QStringLiteral("settingsDock"));
        QVERIFY(dock);
        const int dockWidth = dock->width();
        w.textEdit()->setPlainText(QStringLiteral("Hello."));
        QSignalSpy failed(&app.engine, &EngineController::synthesisFailed);
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        QVERIFY(failed.wait(5000));
        QTest::qWait(50);   // the layouts settle
        QVERIFY(w.synthesisPanel()->progressText().contains(QStringLiteral("keeps/going")));
        QCOMPARE(w.width(), 1280);
        QVERIFY2(dock->isVisible() && dock->geometry().right() <= w.width() && dock->width() >= dockWidth - 2,
                 qPrintable(QStringLiteral("dock %1 px at x %2, was %3 px").arg(dock->width()).arg(dock->x()).arg(dockWidth)));
    }

    // Issue #47 fault 4: a batch of 4 with 8 items says which items decode and which wait; the
    // header counts failed and cancelled apart from done; the selected row keeps its progress bar;
    // after "Cancel item" the focus is back on the list, not on "Cancel all".
    void theQueueTellsTheTruthAboutABatch() {
        App app;
        app.script->frames = 60;
        app.script->frame_delay_ms = 20;
        app.settings.setBatchSize(4);
        SamplingParams sampling = app.settings.sampling();
        sampling.max_new_frames = 60;   // the fake's frames: the rows' percentages reach 100
        app.settings.setSampling(sampling);
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        w.resize(1280, 860);
        SynthesisQueue& queue = w.queue();
        QList<quint64> ids;
        for (int i = 0; i < 8; ++i)
            ids << w.studio().generateText(QStringLiteral("Item %1.").arg(i), QString());
        // The fake decodes a batch call's requests one after another, the engine 4 at a time: either
        // way at least 8 - 4 items of the call have no frame yet while the first decodes.
        QTRY_VERIFY_WITH_TIMEOUT(queue.item(ids[0])->frames > 0, 5000);
        int waiting = 0;
        for (int r = 0; r < queue.rowCount(); ++r) {
            const QString text = queue.data(queue.index(r), SynthesisQueue::StateTextRole).toString();
            QVERIFY2(!text.contains(QStringLiteral("batch of 8")), qPrintable(text));
            waiting += text.startsWith(QStringLiteral("waiting for a slot in the batch of 4"));
        }
        QVERIFY2(waiting >= 4, qPrintable(QString::number(waiting)));
        const QString first = queue.data(queue.index(0), SynthesisQueue::StateTextRole).toString();
        QVERIFY2(first.startsWith(QStringLiteral("running")) && first.contains(QStringLiteral("batch of 4")), qPrintable(first));
        QVERIFY2(w.synthesisPanel()->progressText().contains(QStringLiteral("4 decode together")),
                 qPrintable(w.synthesisPanel()->progressText()));

        // The selected running row still shows its bar: a run of the selection's text colour
        // (the bar's fill there), 5 px high, which the selection's own colour would hide.
        QueueView& view = *w.queueView();
        int runningRow = -1;
        auto findRunning = [&] {
            for (int r = 0; r < queue.rowCount(); ++r)
                if (QueueItem::State(queue.data(queue.index(r), SynthesisQueue::StateRole).toInt()) == QueueItem::State::Running &&
                    queue.data(queue.index(r), SynthesisQueue::ProgressRole).toInt() >= 20)
                    return (runningRow = r) >= 0;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(findRunning(), 5000);
        view.list()->setCurrentIndex(queue.index(runningRow));
        const QRect rowRect = view.list()->visualRect(queue.index(runningRow));
        const QImage img = view.list()->viewport()->grab(rowRect).toImage();
        const QRgb fill = view.list()->palette().color(QPalette::HighlightedText).rgb();
        bool barSeen = false;
        for (int y = 0; y + 3 < img.height() && !barSeen; ++y)
            for (int x = 0, run = 0; x < img.width() && !barSeen; ++x) {
                bool column = true;
                for (int dy = 0; dy < 4; ++dy)
                    column = column && img.pixel(x, y + dy) == fill;
                run = column ? run + 1 : 0;
                barSeen = run >= 8;
            }
        QVERIFY2(barSeen, "the selected running row shows no progress bar");
        saveScreen(&w, "queue_batch.png");   // the README's picture of a batch of 4 with 8 items

        // Cancel one queued item with the keyboard's button: focus goes back to the list.
        view.list()->setCurrentIndex(queue.index(7));
        view.cancelButton()->setFocus();
        QTest::keyClick(view.cancelButton(), Qt::Key_Space);
        QVERIFY2(QApplication::focusWidget() != view.cancelAllButton(), "focus landed on Cancel all");
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(view.list()));
        // (it waits in the batch: it ends as cancelled when the engine reaches it)
        QTRY_COMPARE_WITH_TIMEOUT(queue.item(ids[7])->state, QueueItem::State::Cancelled, 20000);

        // The header counts each outcome apart: the cancelled one is not "finished" work.
        QTRY_COMPARE_WITH_TIMEOUT(queue.pendingCount(), 0, 20000);
        const int done = queue.countIn(QueueItem::State::Done);
        QVERIFY(done >= 1);
        const QString summary = view.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("%1 done").arg(done)) && summary.contains(QStringLiteral("1 cancelled")) &&
                     !summary.contains(QStringLiteral("finished")),
                 qPrintable(summary));
    }

    // Issue #47 fault 8: at the default 1280×860 every Settings row fits the dock's width (no
    // horizontal scrollbar, no button cut short), and View brings a closed dock back.
    void settingsFitAndClosedDocksComeBack() {
        App app;
        app.script->info.is_demo = true;   // the demo banner shows
        app.window->resize(1280, 860);
        QVERIFY(QTest::qWaitForWindowExposed(app.window.get()));
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        QTest::qWait(50);
        auto* scroll = w.settingsPanel()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        saveScreen(&w, "settings_1280.png");   // the README's picture of the Settings at 1280×860
        QWidget* inner = scroll->widget();
        QVERIFY2(inner->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("groups %1 px in a %2 px view").arg(inner->width()).arg(scroll->viewport()->width())));
        for (QPushButton* b : inner->findChildren<QPushButton*>()) {
            if (!b->isVisibleTo(inner))
                continue;
            QVERIFY2(b->width() >= b->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("\"%1\" is %2 px, needs %3").arg(b->text()).arg(b->width()).arg(b->minimumSizeHint().width())));
            const QPoint right = b->mapTo(scroll->viewport(), QPoint(b->width() - 1, 0));
            QVERIFY2(right.x() < scroll->viewport()->width(), qPrintable(b->text()));
        }
        // View lists the docks; one closed comes back from there.
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("settingsDock"));
        auto* queueDock = w.findChild<QDockWidget*>(QStringLiteral("queueDock"));
        // Settings gets most of the column it shares with the queue (more than three groups in view).
        QVERIFY2(dock->height() > 2 * queueDock->height(),
                 qPrintable(QStringLiteral("settings %1 px, queue %2 px").arg(dock->height()).arg(queueDock->height())));
        QAction* toggle = nullptr;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
                for (QAction* a : menu->menu()->actions())
                    if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Settings"))
                        toggle = a;
        QVERIFY(toggle);
        dock->close();
        QVERIFY(!dock->isVisible());
        toggle->trigger();
        QTRY_VERIFY(dock->isVisible());
        // The project dialogs start in the user's documents (an independent reading: $HOME/Documents
        // made here), never in the app's data folder with the take history.
        const QByteArray home = qgetenv("HOME");
        QTemporaryDir fakeHome;
        QVERIFY(QDir(fakeHome.path()).mkpath(QStringLiteral("Documents")));
        qputenv("HOME", fakeHome.path().toUtf8());
        const QString dialogDir = w.projectDialogDir();
        qputenv("HOME", home);
        QCOMPARE(QDir(dialogDir).canonicalPath(), QDir(fakeHome.filePath(QStringLiteral("Documents"))).canonicalPath());
        // The demo banner's ellipsis is not followed by a full stop.
        QVERIFY2(w.banner()->text().contains(QStringLiteral("random weights")), qPrintable(w.banner()->text()));
        QVERIFY2(!w.banner()->text().contains(QStringLiteral("….")), qPrintable(w.banner()->text()));
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

    // After a refused or failed Generate the red banner says why; the next run that starts takes
    // it away, and the progress bar never shows a failed run as complete.
    void synthesisFailureBannerGoesWithTheNextRun() {
        App app;
        app.script->frames = 5;
        app.script->synth_error = EngineError{ErrorCode::InvalidArgument, "temperature 2.00 is outside [0, 2)", {}};
        QVERIFY(app.load());
        MainWindow& w = *app.window;
        w.textEdit()->setPlainText(QStringLiteral("Hello."));
        QSignalSpy failed(&app.engine, &EngineController::synthesisFailed);
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        QVERIFY(failed.wait(3000));
        QVERIFY(w.banner()->isVisible());
        QCOMPARE(w.banner()->kind(), Banner::Kind::Error);
        QVERIFY(w.banner()->text().contains(QStringLiteral("outside [0, 2)")));
        const QProgressBar* bar = w.synthesisPanel()->progressBar();
        QVERIFY2(bar->value() < bar->maximum(), "a failed run is not shown as complete");

        app.script->synth_error.reset();
        QSignalSpy finished(&app.engine, &EngineController::synthesisFinished);
        QTRY_COMPARE_WITH_TIMEOUT(app.engine.state(), EngineState::Ready, 3000);
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        QVERIFY(finished.wait(3000));
        QVERIFY(!w.banner()->isVisible());
        QCOMPARE(bar->value(), bar->maximum());
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
        // on this CPU build: the CUDA-only kernels are off, with the engine's reason
        QComboBox* sdpa = app.window->settingsPanel()->sdpaCombo();
        auto* sdpaModel = qobject_cast<QStandardItemModel*>(sdpa->model());
        for (const char* cudaOnly : {"efficient", "cudnn"}) {
            if (app.engine.deviceCaps().cuda_available)
                break;
            const QStandardItem* item = sdpaModel->item(sdpa->findData(QLatin1String(cudaOnly)));
            QVERIFY2(!item->isEnabled(), cudaOnly);
            QVERIFY2(item->toolTip().contains(QStringLiteral("CUDA")), qPrintable(item->toolTip()));
        }
        QVERIFY(sdpaModel->item(sdpa->findData(QStringLiteral("math")))->isEnabled());
    }

    // Nothing this machine cannot run is offered enabled: the Compare view's arm picker and the
    // Settings' device and compile-mode lists. Whether there is a GPU is read from the driver's
    // device node, not from libtorch (the code under test).
    void compareViewAndDevicesOfferOnlyWhatRuns() {
        App app;
        QTRY_VERIFY_WITH_TIMEOUT(!app.engine.deviceCaps().devices.empty(), 3000);
        const bool gpu = QFile::exists(QStringLiteral("/dev/nvidiactl"));
        const CompareView& cv = *app.window->compareView();
        auto box = [](const std::vector<QCheckBox*>& boxes, const QString& name) -> QCheckBox* {
            for (QCheckBox* c : boxes)
                if (c->text() == name)
                    return c;
            return nullptr;
        };
        // cuda-graph: refused everywhere until the capture has run on a GPU
        QCheckBox* graph = box(cv.compileChecks(), QStringLiteral("cuda-graph"));
        QVERIFY(graph);
        QVERIFY(!graph->isEnabled());
        QVERIFY(!graph->isChecked());
        QVERIFY(!graph->toolTip().isEmpty());
        QVERIFY(box(cv.compileChecks(), QStringLiteral("eager"))->isEnabled());
        QVERIFY(box(cv.sdpaChecks(), QStringLiteral("math"))->isEnabled());
        QVERIFY(box(cv.sdpaChecks(), QStringLiteral("auto"))->isEnabled());
        if (!gpu) {
            for (const char* cudaOnly : {"efficient", "cudnn"}) {
                QCheckBox* c = box(cv.sdpaChecks(), QLatin1String(cudaOnly));
                QVERIFY2(c && !c->isEnabled() && !c->isChecked(), cudaOnly);
                QVERIFY2(c->toolTip().contains(QStringLiteral("CUDA")), qPrintable(c->toolTip()));
            }
        }
        // Settings: the device list names this CPU as /proc/cpuinfo does; no GPU entry is enabled without one
        QString cpuName;
        QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
        QVERIFY(cpuinfo.open(QIODevice::ReadOnly));
        for (const QByteArray& line : cpuinfo.readAll().split('\n'))
            if (line.startsWith("model name")) {
                cpuName = QString::fromUtf8(line.mid(line.indexOf(':') + 1)).trimmed();
                break;
            }
        QComboBox* device = app.window->settingsPanel()->deviceCombo();
        auto* model = qobject_cast<QStandardItemModel*>(device->model());
        const int cpu = device->findData(QStringLiteral("cpu"));
        QVERIFY(cpu >= 0);
        QVERIFY2(device->itemText(cpu).contains(cpuName), qPrintable(device->itemText(cpu) + QStringLiteral(" / ") + cpuName));
        QVERIFY(model->item(cpu)->isEnabled());
        for (int i = 0; i < device->count(); ++i) {
            const QString id = device->itemData(i).toString();
            if (id.startsWith(QStringLiteral("cuda")) && !gpu)
                QVERIFY2(!model->item(i)->isEnabled() && !model->item(i)->toolTip().isEmpty(), qPrintable(id));
            if (id == QStringLiteral("mps"))   // Apple GPUs: never on this Linux machine
                QVERIFY(!model->item(i)->isEnabled());
        }
        QComboBox* compile = app.window->settingsPanel()->compileCombo();
        auto* compileModel = qobject_cast<QStandardItemModel*>(compile->model());
        QVERIFY(!compileModel->item(compile->findData(QStringLiteral("cuda-graph")))->isEnabled());
    }

    // A device the list marks unavailable stays disabled, with its reason, even where the per-kind
    // table says the kind runs (cuda:1 busy beside a working cuda:0).
    void unavailableDeviceStaysDisabled() {
        App app;
        QTRY_VERIFY_WITH_TIMEOUT(!app.engine.deviceCaps().devices.empty(), 3000);
        SettingsPanel* panel = app.window->settingsPanel();
        DeviceCaps caps = app.engine.deviceCaps();
        DeviceInfo busy;
        busy.id = "cuda:1";
        busy.name = "Test GPU";
        busy.available = false;
        busy.reason = "in use by another process";
        caps.device_list.push_back(busy);
        caps.devices["cuda"] = {true, {}};
        panel->setDeviceCaps(caps);
        QComboBox* device = panel->deviceCombo();
        auto* model = qobject_cast<QStandardItemModel*>(device->model());
        const int i = device->findData(QStringLiteral("cuda:1"));
        QVERIFY(i >= 0);
        QVERIFY(!model->item(i)->isEnabled());
        QCOMPARE(model->item(i)->toolTip(), QStringLiteral("in use by another process"));
        QVERIFY(model->item(device->findData(QStringLiteral("cpu")))->isEnabled());
    }

    // aot-inductor without a Python to compile with: the option is off and "Set up" beside it runs
    // the venv set-up; a set-up that cannot start says why and leaves no folder behind.
    void compileSetupButtonRunsTheSetUp() {
        App app;
        QTRY_VERIFY_WITH_TIMEOUT(!app.engine.deviceCaps().devices.empty(), 3000);
        SettingsPanel* panel = app.window->settingsPanel();
        DeviceCaps caps = app.engine.deviceCaps();
        // the button follows the capability's needs_setup, not the words of its reason
        caps.compile_modes["aot-inductor"] = {false, "not in this build (no `reef-cli compile --setup` would help)", false};
        panel->setDeviceCaps(caps);
        QVERIFY(panel->compileSetupButton()->isHidden());
        caps.compile_modes["aot-inductor"] = {false, "needs a Python with torch", true};
        panel->setDeviceCaps(caps);
        QVERIFY(!panel->compileSetupButton()->isHidden());
        QVERIFY(panel->compileSetupStatus()->text().contains(QStringLiteral("needs a Python with torch")));
        auto* compileModel = qobject_cast<QStandardItemModel*>(panel->compileCombo()->model());
        QVERIFY(!compileModel->item(panel->compileCombo()->findData(QStringLiteral("aot-inductor")))->isEnabled());
        const QString venv = app.dir.filePath(QStringLiteral("compile-venv"));
        qputenv("REEF_COMPILE_VENV", venv.toUtf8());
        qputenv("REEF_SETUP_PYTHON", "/nonexistent/python3");
        QSignalSpy done(panel, &SettingsPanel::compileSetupFinished);
        QTest::mouseClick(panel->compileSetupButton(), Qt::LeftButton);
        QVERIFY(done.wait(30000));
        QCOMPARE(done.first().first().toBool(), false);
        const QString status = panel->compileSetupStatus()->text();
        QVERIFY2(status.contains(QStringLiteral("/nonexistent/python3")) && status.contains(QStringLiteral("could not be started")),
                 qPrintable(status));
        QVERIFY(!QFileInfo::exists(venv));
        QVERIFY(QDir(app.dir.path()).entryList({QStringLiteral("compile-venv*")}, QDir::AllEntries | QDir::Hidden).isEmpty());
        qunsetenv("REEF_COMPILE_VENV");
        qunsetenv("REEF_SETUP_PYTHON");
        // once the real caps say it is ready (a Python was found), the button goes
        panel->setDeviceCaps(app.engine.deviceCaps());
        QCOMPARE(panel->compileSetupButton()->isHidden(), !app.engine.deviceCaps().compile_modes.count("aot-inductor") ||
                                                             app.engine.deviceCaps().compile_modes.at("aot-inductor").available);
    }

    void settingsPanelWritesSettings() {
        App app;
        QSignalSpy sampling(&app.settings, &Settings::samplingChanged);
        // a seed past 2^31 and 2^53: all 64 bits reach the settings and come back
        QLineEdit* seed = app.window->settingsPanel()->seedEdit();
        seed->setText(QStringLiteral("18446744073709551557"));
        Q_EMIT seed->editingFinished();
        QCOMPARE(app.settings.sampling().seed, uint64_t(18446744073709551557ull));
        QCOMPARE(sampling.count(), 1);
        app.settings.sync();
        Settings reread(app.dir.filePath(QStringLiteral("reef.ini")));
        QCOMPARE(reread.sampling().seed, uint64_t(18446744073709551557ull));
        // past 2^64 - 1: refused, the field shows the stored seed again
        seed->setText(QStringLiteral("99999999999999999999"));
        Q_EMIT seed->editingFinished();
        QCOMPARE(app.settings.sampling().seed, uint64_t(18446744073709551557ull));
        QCOMPARE(seed->text(), QStringLiteral("18446744073709551557"));
        QComboBox* sdpa = app.window->settingsPanel()->sdpaCombo();
        sdpa->setCurrentIndex(sdpa->findData(QStringLiteral("math")));
        QCOMPARE(app.settings.engineConfig().sdpa_policy, SdpaPolicy::Math);
    }

    void compareViewFillsFromAFakeBench() {
        App app;
        app.window->resize(1280, 860);   // the default size: the table fits it (issue #47)
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
        // Every column in view without a horizontal scrollbar, none cut to nothing; the text of a
        // narrowed cell is whole in its tooltip.
        QTRY_VERIFY(!cv.table()->horizontalScrollBar()->isVisible());
        QHeaderView* header = cv.table()->horizontalHeader();
        int right = 0;
        for (int c = 0; c < header->count(); ++c) {
            QVERIFY2(header->sectionSize(c) >= 40, qPrintable(QStringLiteral("column %1: %2 px").arg(c).arg(header->sectionSize(c))));
            right = std::max(right, header->sectionViewportPosition(c) + header->sectionSize(c));
        }
        QVERIFY2(right <= cv.table()->viewport()->width(), qPrintable(QStringLiteral("%1 > %2").arg(right).arg(cv.table()->viewport()->width())));
        const QModelIndex backends = cv.tableModel().index(1, BenchTableModel::Backends);
        QVERIFY(cv.tableModel().data(backends, Qt::ToolTipRole).toString().size() > 0);
        // The value axis ticks fall on round numbers: a step of 1, 2 or 5 times a power of ten,
        // from 0 to a multiple of the step that covers the largest bar.
        const auto axes = cv.fpsChart()->axes(Qt::Horizontal);
        QCOMPARE(axes.size(), qsizetype(1));
        const auto* axis = qobject_cast<const QValueAxis*>(axes.first());
        QVERIFY(axis != nullptr);
        const double step = (axis->max() - axis->min()) / (axis->tickCount() - 1);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9,
                 qPrintable(QStringLiteral("tick step %1").arg(step)));
        QCOMPARE(axis->min(), 0.0);
        double largest = 0;
        for (const ArmResult& a : cv.tableModel().report().arms) largest = std::max(largest, a.warm_frames_per_s);
        QVERIFY(axis->max() >= largest);
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
