// The whole window over the REAL reef::Engine on the tiny demo model (offscreen): type, Generate,
// wait for the take, live charts and the attention-backend report, WAV export read back; then bad
// input, each with a clear message and nothing lost: empty text, a folder without a model, an
// unwritable export path, a corrupt reference clip. One window and one loaded model for all slots
// (they run in order); few frames and one libtorch thread keep it fast on a 2-core machine.
// With REEF_SCREENS_DIR set it also saves a screenshot after the real generation.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "audio/flac_chapters.h"
#include "audio/loudness.h"
#include "audio/wav_file.h"
#include "epub_writer.h"
#include "qt/project_assembly.h"
#include "qt/batch_table_model.h"
#include "qt/engine_controller.h"
#include "qt/perf_history_model.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/settings.h"
#include "qt/synthesis_queue.h"
#include "qt/translations.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "reef/engine.h"
#include "widgets/banner.h"
#include "widgets/compare_view.h"
#include "widgets/main_window.h"
#include "widgets/quantize_dialog.h"
#include "widgets/perf_chart_widget.h"
#include "widgets/production_dialog.h"
#include "widgets/project_view.h"
#include "widgets/settings_panel.h"
#include "widgets/synthesis_panel.h"
#include "widgets/voice_library_dialog.h"

using namespace reef;
using namespace reef::ui;

namespace {

constexpr int kMaxFrames = 10;
constexpr int kSlowMs = 90000;   // generous: real decoding on a loaded CI machine

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

}  // namespace

class TstRealWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<VoiceListModel> m_voices;
    std::unique_ptr<EngineController> m_engine;
    std::unique_ptr<PlaybackController> m_playback;
    std::unique_ptr<MainWindow> m_window;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    // Clicks Generate and waits for one more take; returns false (with a message) on failure.
    bool generateOneTake() {
        MainWindow& w = *m_window;
        const int before = w.takesModel().rowCount();
        QSignalSpy failed(m_engine.get(), &EngineController::synthesisFailed);
        if (!w.generateButton()->isEnabled())
            return false;
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return w.takesModel().rowCount() > before || !failed.isEmpty(); }, kSlowMs) &&
               failed.isEmpty();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        installTranslations(*qApp, QStringLiteral("en"));   // as the app does: English plural forms
        const Status s = write_demo_model(path("demo").toStdString(), "tiny", "s2");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().to_string().c_str());
        m_settings = std::make_unique<Settings>(path("reef.ini"));
        EngineConfig c = m_settings->engineConfig();
        c.model_dir = path("demo").toStdString();
        c.cpu_threads = 1;
        m_settings->setEngineConfig(c);
        SamplingParams p = m_settings->sampling();
        p.max_new_frames = kMaxFrames;
        m_settings->setSampling(p);
        m_settings->setStreamChunkFrames(4);
        m_voices = std::make_unique<VoiceListModel>(path("voices"));
        m_engine = std::make_unique<EngineController>(std::make_unique<Engine>());
        m_playback = std::make_unique<PlaybackController>(std::make_unique<ClockSink>());
        m_window = std::make_unique<MainWindow>(*m_engine, *m_settings, *m_playback, *m_voices);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->loadModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_engine->state() != EngineState::Loading, kSlowMs);
        QVERIFY2(m_engine->isModelLoaded(), qPrintable(m_window->banner()->text()));
        QVERIFY(m_engine->modelInfo().is_demo);
    }

    void emptyTextIsRefusedWithAReason() {
        MainWindow& w = *m_window;
        QSignalSpy started(m_engine.get(), &EngineController::synthesisStarted);
        for (const QString& text : {QString(), QStringLiteral("   \n\t ")}) {
            w.textEdit()->setPlainText(text);
            QVERIFY(!w.generateButton()->isEnabled());   // disabled, with the reason as its tooltip
            QVERIFY(w.generateButton()->toolTip().contains(QStringLiteral("Type some text")));
            w.generate();   // the direct call (shortcut, menu) says why instead of doing nothing
            QVERIFY(w.synthesisPanel()->progressText().contains(QStringLiteral("Type some text")));
        }
        QTest::qWait(50);
        QCOMPARE(started.count(), 0);
        QCOMPARE(w.takesModel().rowCount(), 0);
        QCOMPARE(m_engine->state(), EngineState::Ready);
    }

    void typeGenerateSeeChartsAndExport() {
        MainWindow& w = *m_window;
        w.textEdit()->clear();
        QTest::keyClicks(w.textEdit(), QStringLiteral("Hello from the real engine."));
        QVERIFY(w.generateButton()->isEnabled());
        QVERIFY(generateOneTake());
        QCOMPARE(w.takesModel().rowCount(), 1);
        const Take& take = w.takesModel().take(0);
        QCOMPARE(take.text, QStringLiteral("Hello from the real engine."));
        QVERIFY(take.metrics.frames > 0 && take.metrics.frames <= kMaxFrames);
        QCOMPARE(qint64(take.audio.size()), qint64(take.metrics.frames) * kSamplesPerFrame);

        // Live charts received samples, and the backend per call site is on screen as text too.
        QVERIFY(w.perfModel().rowCount() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(w.perfChart()->pointCount() > 0, 2000);
        QVERIFY(w.perfChart()->backendPointCount() >= kNumCallSites);
        const QString live = w.perfChart()->backendText();
        QVERIFY2(live.contains(QStringLiteral("slow-decode")) && live.contains(QStringLiteral("fast-decode")),
                 qPrintable(live));
        // the engine's thread count for CPU decode: this window's load asked for one thread
        QVERIFY2(live.endsWith(QStringLiteral(" · decode threads: 1 of 1")), qPrintable(live));
        QVERIFY(!take.metrics.backends.empty());
        const QString report = w.lastAttentionText();
        QVERIFY2(report.startsWith(QStringLiteral("attention: ")), qPrintable(report));
        for (const BackendUse& u : take.metrics.backends)
            QVERIFY2(report.contains(QStringLiteral("%1 %2").arg(QLatin1String(to_string(u.site)),
                                                                 QLatin1String(to_string(u.backend)))),
                     qPrintable(report));
        QVERIFY(w.synthesisPanel()->progressText().startsWith(QStringLiteral("Done")));
        QVERIFY(w.synthesisPanel()->progressText().endsWith(QStringLiteral("\n") + report));   // on screen, under Done
        QVERIFY(w.takesModel().data(w.takesModel().index(0, 0), Qt::ToolTipRole).toString().contains(report));

        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty()) {
            QDir().mkpath(dir);
            QVERIFY(w.grab().save(QDir(dir).filePath(QStringLiteral("real_engine_window.png"))));
        }

        // Export through the function the Export dialogs call, and read it back.
        const QString wav = path("take.wav");
        QString error;
        QVERIFY2(w.exportTo(0, wav, &error), qPrintable(error));
        const audio::AudioData back = audio::read_audio(wav.toStdString());
        QCOMPARE(back.sample_rate, 44100);
        QCOMPARE(back.channels, 1);
        QCOMPARE(back.frames(), qint64(take.metrics.frames) * 2048);
        QVERIFY(std::abs(back.samples[1000] - take.audio[1000]) < 1e-3f);
    }

    // Issue #18's flow over the real engine: a long text split into segments, all generated through
    // the queue, one re-generated with another seed (the others keep their audio bit for bit), the
    // project exported as one file and as one file per segment, each read back.
    void longTextThroughAProject() {
        MainWindow& w = *m_window;
        ProjectView& view = *w.projectView();
        ProjectModel& project = w.project();
        w.tabs()->setCurrentWidget(&view);
        view.sourceEditor()->setPlainText(QStringLiteral(
            "Coral reefs cover less than one percent of the ocean floor. They shelter a quarter of all marine "
            "species!\n\nDivers come from far away to see them. Will they still be here in fifty years?"));
        QTest::mouseClick(view.splitButton(), Qt::LeftButton);
        QCOMPARE(project.segmentCount(), 4);   // four sentences
        QTest::mouseClick(view.generateAllButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(project.segmentsNeedingAudio().isEmpty(), kSlowMs);
        std::vector<std::vector<float>> before;
        for (int r = 0; r < 4; ++r) {
            before.push_back(project.segmentAudio(r));
            QVERIFY(!before.back().empty());
            QCOMPARE(project.segment(r).takes.size(), size_t(1));
        }

        SamplingParams p = m_settings->sampling();
        p.seed += 1000;
        m_settings->setSampling(p);
        view.selectRow(2);
        QTest::mouseClick(view.regenerateButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(project.segment(2).takes.size(), size_t(2), kSlowMs);
        QCOMPARE(project.segment(2).takes[1].sampling.seed, p.seed);
        QVERIFY(project.segmentAudio(2) != before[2]);   // another seed, another take
        for (int r : {0, 1, 3})
            QVERIFY(project.segmentAudio(r) == before[size_t(r)]);

        const QString whole = path("project.wav");
        QString error;
        QVERIFY2(w.studio().exportProjectTo(whole, audio::ExportFormat::WavFloat, w.projectView()->crossfadeMs(), &error), qPrintable(error));
        qint64 expected = 0, shortest = std::numeric_limits<qint64>::max();
        for (int r = 0; r < 4; ++r) {
            expected += qint64(project.segmentAudio(r).size());
            shortest = std::min(shortest, qint64(project.segmentAudio(r).size()));
        }
        const qint64 fade = std::min<qint64>(qint64(view.crossfadeMs()) * kSampleRate / 1000, shortest / 2);
        QVERIFY(shortest / 2 >= fade);
        QCOMPARE(audio::read_audio(whole.toStdString()).frames(), expected - 3 * fade);
        const QStringList files = w.studio().exportSegmentsTo(path("segments"), audio::ExportFormat::Flac, &error);
        QCOMPARE(files.size(), 4);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(audio::read_audio(files[r].toStdString()).frames(), qint64(project.segmentAudio(r).size()));
        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty()) {
            QDir().mkpath(dir);
            QVERIFY(w.grab().save(QDir(dir).filePath(QStringLiteral("project_real.png"))));
        }
        w.tabs()->setCurrentIndex(0);
    }

    // Issue #27 in the studio: Settings → Batch size 2, the project's four segments re-generated
    // with the seed of their first takes go to the engine as one batch, and each new take is the
    // first take again, code for code (made alone, above); the live chart plots the aggregate
    // and the per-item frames/s.
    void aProjectGeneratesInABatchWithTheSameTakes() {
        MainWindow& w = *m_window;
        ProjectModel& project = w.project();
        QCOMPARE(project.segmentCount(), 4);
        auto* batch = w.settingsPanel()->findChild<QComboBox*>(QStringLiteral("batchSizeCombo"));
        QVERIFY(batch);
        batch->setCurrentIndex(batch->findData(2));
        QCOMPARE(m_settings->batchSize(), 2);
        SamplingParams p = m_settings->sampling();
        p.seed = project.segment(0).takes.front().sampling.seed;
        m_settings->setSampling(p);
        std::vector<size_t> takesBefore;
        for (int r = 0; r < 4; ++r)
            takesBefore.push_back(project.segment(r).takes.size());
        QSignalSpy batches(m_engine.get(), &EngineController::batchStarted);
        w.studio().generateSegments({0, 1, 2, 3});
        QTRY_VERIFY_WITH_TIMEOUT(!w.studio().queue().isRunning() && w.studio().queue().pendingCount() == 0, kSlowMs);
        QCOMPARE(batches.count(), 1);
        QCOMPARE(batches.first().first().value<QList<quint64>>().size(), 4);
        for (int r = 0; r < 4; ++r) {
            const Segment& seg = project.segment(r);
            QCOMPARE(seg.takes.size(), takesBefore[size_t(r)] + 1);
            const SegmentTake& alone = seg.takes.front();
            const SegmentTake& batched = seg.takes.back();
            QCOMPARE(batched.sampling.seed, alone.sampling.seed);
            QVERIFY2(batched.codes.data == alone.codes.data, qPrintable(QStringLiteral("segment %1").arg(r + 1)));
            // the batch's audio is decoded whole after its last frame (no one listens to a batch),
            // the take made alone streamed to the player chunk by chunk: the same codes decoded, so
            // the same samples up to the codec's rounding (fp32 here)
            QCOMPARE(batched.audio.size(), alone.audio.size());
            float worst = 0;
            for (size_t i = 0; i < batched.audio.size(); ++i)
                worst = std::max(worst, std::fabs(batched.audio[i] - alone.audio[i]));
            QVERIFY2(worst < 1e-4f, qPrintable(QStringLiteral("segment %1: %2").arg(r + 1).arg(double(worst))));
        }
        QVERIFY(w.perfChart()->itemPointCount() > 0);
        m_settings->setBatchSize(1);
        QCOMPARE(batch->currentData().toInt(), 1);   // the panel follows the setting
    }

    // The Compare view over the real bench: two arms and a two-length context sweep; the sweep
    // chart draws one line per arm with one point per length, at the prompt lengths the bench
    // really prefilled (read from the report's JSON, not from the chart's own code).
    void compareViewRunsAContextSweep() {
        MainWindow& w = *m_window;
        w.tabs()->setCurrentWidget(w.compareView());
        CompareView& cv = *w.compareView();
        QCOMPARE(cv.selectedArms().size(), size_t(2));   // eager x {auto, math}
        cv.contextEdit()->setText(QStringLiteral("100, 260"));
        cv.batchEdit()->setText(QStringLiteral("1,2"));
        QSignalSpy done(m_engine.get(), &EngineController::benchFinished);
        QSignalSpy failed(m_engine.get(), &EngineController::benchFailed);
        QTest::mouseClick(cv.runButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, kSlowMs));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const auto lines = cv.sweepLines();
        QCOMPARE(int(lines.size()), 2);
        const QString base = path("sweep-report");
        const QStringList errors = cv.exportAll(base);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QFile json(base + QStringLiteral(".json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray sweep = QJsonDocument::fromJson(json.readAll()).object().value(QStringLiteral("sweep")).toArray();
        QCOMPARE(sweep.size(), 4);
        // The batch table shows the report's batch points (read back from its JSON).
        const QJsonArray batch = QJsonDocument::fromJson([&] {
                                     QFile again(base + QStringLiteral(".json"));
                                     return again.open(QIODevice::ReadOnly) ? again.readAll() : QByteArray();
                                 }()).object().value(QStringLiteral("batch")).toArray();
        QCOMPARE(batch.size(), 2);
        QVERIFY(cv.batchTable()->isVisibleTo(&cv));
        QCOMPARE(cv.batchModel().rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            const QJsonObject o = batch[r].toObject();
            QVERIFY2(o.value(QStringLiteral("ran")).toBool(), qPrintable(o.value(QStringLiteral("error")).toString()));
            QCOMPARE(cv.batchModel().data(cv.batchModel().index(r, BatchTableModel::Batch), BatchTableModel::ValueRole).toInt(),
                     o.value(QStringLiteral("batch")).toInt());
            QCOMPARE(cv.batchModel().data(cv.batchModel().index(r, BatchTableModel::AggregateFps), BatchTableModel::ValueRole).toDouble(),
                     o.value(QStringLiteral("aggregate_frames_per_s")).toDouble());
        }
        for (const auto& [name, points] : lines) {
            QCOMPARE(int(points.size()), 2);
            for (const QPointF& pt : points) {
                bool found = false;
                for (const QJsonValue& v : sweep) {
                    const QJsonObject o = v.toObject();
                    found = found || (o.value(QStringLiteral("arm")).toString() == name &&
                                      o.value(QStringLiteral("prompt_tokens")).toInt() == int(pt.x()) &&
                                      std::abs(o.value(QStringLiteral("warm_frames_per_s")).toDouble() - pt.y()) < 1e-9);
                }
                QVERIFY2(found, qPrintable(QStringLiteral("%1 at %2 tokens").arg(name).arg(pt.x())));
            }
            QVERIFY(points[1].x() > points[0].x() + 100);   // 260 vs 100 tokens asked
        }
        QVERIFY(QFileInfo(base + QStringLiteral("-pr.md")).size() > 0);
        QVERIFY(QFileInfo(base + QStringLiteral("-pr-wavs")).isDir());
        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty()) {
            const QSize before = w.size();
            w.resize(1500, 1000);
            QTest::qWait(300);   // the charts' scenes lay out on the event loop
            QDir().mkpath(dir);
            QVERIFY(w.grab().save(QDir(dir).filePath(QStringLiteral("compare_sweep.png"))));
            w.resize(before);
        }
        w.tabs()->setCurrentIndex(0);
    }

    void unwritableExportPathKeepsTheTake() {
        MainWindow& w = *m_window;
        QCOMPARE(w.takesModel().rowCount(), 1);
        QFile blocker(path("a-file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QVERIFY(QDir().mkpath(path("a-folder")));
        const QStringList before = entries(m_dir.path());
        const QString bad[] = {path("no/such/folder/x.wav"), path("a-file/x.wav"), path("a-folder")};
        for (const QString& target : bad) {
            QString error;
            QVERIFY(!w.exportTo(0, target, &error));
            qInfo("export error: %s", qPrintable(error));
            QVERIFY2(error.contains(QStringLiteral("Could not export")) && error.contains(target), qPrintable(error));
            QVERIFY2(error.contains(QStringLiteral("another folder")), qPrintable(error));
        }
        // Nothing partial anywhere: no new file, no temp file, the folder still a folder.
        QCOMPARE(entries(m_dir.path()), before);
        QVERIFY(QFileInfo(path("a-folder")).isDir());
        QVERIFY(entries(path("a-folder")).isEmpty());
        QVERIFY(!QFileInfo::exists(path("no")));
        // The take is still there and exports elsewhere.
        QCOMPARE(w.takesModel().rowCount(), 1);
        QString error;
        QVERIFY2(w.exportTo(0, path("a-folder/ok.wav"), &error), qPrintable(error));
        QCOMPARE(audio::read_audio(path("a-folder/ok.wav").toStdString()).frames(),
                 qint64(w.takesModel().take(0).audio.size()));
    }

    void folderWithoutAModelKeepsThePreviousOne() {
        MainWindow& w = *m_window;
        QVERIFY(QDir().mkpath(path("empty-model")));
        const std::string previous = m_engine->modelInfo().name;
        const QString goodDir = m_settings->modelDir();
        m_settings->setModelDir(path("empty-model"));
        QSignalSpy failed(m_engine.get(), &EngineController::loadFailed);
        w.loadModel();
        QVERIFY(failed.wait(kSlowMs));
        const QString reason = failed.first().at(0).toString();
        QVERIFY(!reason.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(w.banner()->isVisible(), 2000);
        QCOMPARE(w.banner()->kind(), Banner::Kind::Error);
        const QString banner = w.banner()->text();
        qInfo("banner: %s", qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("Could not load the model")), qPrintable(banner));
        QVERIFY2(banner.contains(reason.toHtmlEscaped()), qPrintable(banner));     // the specific reason
        QVERIFY2(banner.contains(QStringLiteral("empty-model")), qPrintable(banner));  // names the folder
        QVERIFY2(banner.contains(QStringLiteral("Still using the previous model")), qPrintable(banner));

        // The previous model is still loaded and Generate still works.
        QCOMPARE(m_engine->state(), EngineState::Ready);
        QVERIFY(m_engine->isModelLoaded());
        QCOMPARE(m_engine->modelInfo().name, previous);
        w.textEdit()->setPlainText(QStringLiteral("Still working."));
        QVERIFY(generateOneTake());
        QCOMPARE(w.takesModel().rowCount(), 2);
        m_settings->setModelDir(goodDir);
    }

    void corruptReferenceClipIsRefused() {
        const QString clip = path("x.wav");
        QFile f(clip);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("this is not audio at all, just garbage bytes \x01\x02\x03", 48).repeated(40));
        f.close();
        const int rows = m_voices->rowCount();
        const QStringList before = entries(path("voices"));
        VoiceLibraryDialog dialog(*m_voices, m_window.get());
        QSignalSpy added(&dialog, &VoiceLibraryDialog::voiceAdded);
        QString error;
        QVERIFY(dialog.addVoice(QStringLiteral("Bad clip"), clip, QStringLiteral("Hello."), &error).isEmpty());
        qInfo("clip error: %s", qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("x.wav")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("reference clip")), qPrintable(error));
        QVERIFY(dialog.statusText().contains(QStringLiteral("x.wav")));
        QCOMPARE(added.count(), 0);
        QCOMPARE(m_voices->rowCount(), rows);   // the library is unchanged, on screen and on disk
        QCOMPARE(entries(path("voices")), before);
        QCOMPARE(m_engine->state(), EngineState::Ready);
    }

    // Compile mode aot-inductor from the settings: the first Generate compiles the decode step with
    // its progress on screen ("compiling the decode step: ... (N s)"), and Stop ends the compile,
    // leaving no package (half-written or otherwise) in the cache.
    void compileModeShowsProgressAndStops() {
        MainWindow& w = *m_window;
        const QString cache = path("cache");
        qputenv("REEF_CACHE_DIR", cache.toUtf8());
        qputenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1");   // a real compile to stop, cached or not
        EngineConfig c = m_settings->engineConfig();
        c.compile_mode = CompileMode::AotInductor;
        m_settings->setEngineConfig(c);
        w.loadModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_engine->state() == EngineState::Ready, kSlowMs);
        QSignalSpy cancelled(m_engine.get(), &EngineController::synthesisCancelled);
        w.textEdit()->setPlainText(QStringLiteral("Compiled."));
        QTest::mouseClick(w.generateButton(), Qt::LeftButton);
        // the seconds count on screen while the exporter works
        QTRY_VERIFY_WITH_TIMEOUT(w.synthesisPanel()->progressText().contains(QStringLiteral("compiling the decode step")) &&
                                     w.synthesisPanel()->progressText().contains(QStringLiteral("(3 s)")),
                                 60000);
        QVERIFY(w.stopButton()->isEnabled());
        QTest::mouseClick(w.stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.count() == 1, 15000);
        QTRY_COMPARE(m_engine->state(), EngineState::Ready);
        QCOMPARE(w.synthesisPanel()->progressText(), QStringLiteral("Stopped."));
        QCOMPARE(entries(cache + QStringLiteral("/aoti")), QStringList());
        c.compile_mode = CompileMode::Eager;
        m_settings->setEngineConfig(c);
        qunsetenv("REEF_CACHE_DIR");
        qunsetenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES");
    }

    // Every sampling control of the Settings panel at both ends of its range, and the seed at 0 and
    // 2^64 - 1, through Generate into the real engine: whatever the panel allows, the engine runs
    // (its first frame decodes; then Stop). The engine's own validation is the judge here.
    void everySettingsExtremeIsAccepted() {
        MainWindow& w = *m_window;
        SettingsPanel* panel = w.settingsPanel();
        const SamplingParams saved = m_settings->sampling();
        w.textEdit()->setPlainText(QStringLiteral("Extremes."));
        auto generateThenStop = [&](const QString& what) {
            QSignalSpy failed(m_engine.get(), &EngineController::synthesisFailed);
            QSignalSpy finished(m_engine.get(), &EngineController::synthesisFinished);
            QSignalSpy progress(m_engine.get(), &EngineController::progress);
            QVERIFY2(w.generateButton()->isEnabled(), qPrintable(what));
            QTest::mouseClick(w.generateButton(), Qt::LeftButton);
            QVERIFY2(QTest::qWaitFor([&] { return !progress.isEmpty() || !finished.isEmpty() || !failed.isEmpty(); },
                                     kSlowMs),
                     qPrintable(what));
            QVERIFY2(failed.isEmpty(),
                     qPrintable(what + QStringLiteral(": ") +
                                (failed.isEmpty() ? QString() : failed.first().at(1).toString())));
            if (m_engine->state() == EngineState::Generating)
                QTest::mouseClick(w.stopButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(m_engine->state(), EngineState::Ready, kSlowMs);
        };
        int tried = 0;
        for (const SamplingSetting& st : sampling_settings()) {
            QDoubleSpinBox* spin = panel->samplingSpin(st.key);
            for (double end : {spin->minimum(), spin->maximum()}) {
                spin->setValue(end);
                generateThenStop(QStringLiteral("%1 = %2").arg(QLatin1String(st.name)).arg(end));
                ++tried;
            }
            m_settings->setSampling(saved);   // the next setting's ends on otherwise usual values
        }
        for (const QString& seed : {QStringLiteral("0"), QStringLiteral("18446744073709551615")}) {
            panel->seedEdit()->setText(seed);
            Q_EMIT panel->seedEdit()->editingFinished();
            QCOMPARE(QString::number(m_settings->sampling().seed), seed);
            generateThenStop(QStringLiteral("seed = ") + seed);
            ++tried;
        }
        QCOMPARE(tried, 2 * int(sampling_settings().size()) + 2);
        m_settings->setSampling(saved);
    }

    // A quantized copy of the model (reef-cli quantize's engine call) loads like any folder, and the
    // status line says so: "int8 weights", and fewer GB in memory than the float model it came from
    // (the sizes read from the model's own account, compared with each other, not with the text).
    // Settings → Engine → "Quantize (int8/int4)…" (issue #44): the dialog, int8 by default, writes
    // the copy on the engine thread with a progress bar; Cancel stops it and leaves no folder; "Use
    // the int8 copy" loads it, and the status line says int8 with fewer bytes.
    void quantizeFromTheStudioAndUseTheCopy() {
        MainWindow& w = *m_window;
        const ModelInfo before = m_engine->modelInfo();
        QVERIFY(w.statusStateText().contains(QString::fromUtf8(to_string(before.precision)) + QStringLiteral(" weights")));
        QVERIFY(w.statusStateText().contains(QStringLiteral("GB in memory")));
        QCOMPARE(m_settings->modelDir(), path("demo"));
        // The model picker says, before any load, what the folder takes and what its int8 and int4
        // copies would
        QLabel* size = w.settingsPanel()->modelSizeLabel();
        QVERIFY2(size->isVisibleTo(w.settingsPanel()) && size->text().contains(QStringLiteral("an int8 copy")) &&
                     size->text().contains(QStringLiteral("an int4 copy")),
                 qPrintable(size->text()));
        QTest::mouseClick(w.settingsPanel()->quantizeButton(), Qt::LeftButton);
        QuantizeDialog* d = w.quantizeDialog();
        QVERIFY(d && d->isVisible());
        // int8 unless chosen otherwise; the group size is int4's alone
        QCOMPARE(d->format(), QStringLiteral("int8"));
        QCOMPARE(d->group(), 128);
        QVERIFY(!d->groupCombo()->isEnabled());
        QVERIFY2(d->tradeOffLabel()->text().contains(QStringLiteral("half")), qPrintable(d->tradeOffLabel()->text()));
        const QString target = path("demo-int8");
        QCOMPARE(d->targetEdit()->text(), target);

        // Start and Cancel at once: the engine stops before it writes anything; the dialog stays
        QTest::mouseClick(d->startButton(), Qt::LeftButton);
        QTest::mouseClick(d->cancelButton(), Qt::LeftButton);
        QVERIFY(d->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), kSlowMs);
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("cancelled")), qPrintable(d->statusLabel()->text()));
        QVERIFY(!QFileInfo::exists(target));
        QVERIFY(!d->useButton()->isVisible());
        QCOMPARE(m_engine->state(), EngineState::Ready);

        // For real: while it runs Generate waits (read as the state changes: the tiny model's
        // quantize may be over before this test looks); then the folder is there and says int8
        QList<bool> generateEnabledWhileQuantizing;
        const auto watch = connect(m_engine.get(), &EngineController::stateChanged, d, [&](EngineState st) {
            if (st == EngineState::Quantizing)
                generateEnabledWhileQuantizing << w.generateButton()->isEnabled();
        });
        QTest::mouseClick(d->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), kSlowMs);
        disconnect(watch);
        QCOMPARE(generateEnabledWhileQuantizing, QList<bool>{false});
        QVERIFY2(d->useButton()->isVisible(), qPrintable(d->statusLabel()->text()));
        QCOMPARE(d->progressBar()->value(), d->progressBar()->maximum());
        QFile header(target + QStringLiteral("/quantization.json"));
        QVERIFY(header.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(header.readAll()).object().value(QStringLiteral("format")).toString(),
                 QStringLiteral("int8"));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/model.safetensors")));
        QCOMPARE(m_settings->modelDir(), path("demo"));   // nothing changes until the user says so
        if (const QString dir = qEnvironmentVariable("REEF_SCREENS_DIR"); !dir.isEmpty()) {
            QDir().mkpath(dir);   // the README's picture of the dialog, the copy written
            QVERIFY(d->grab().save(QDir(dir).filePath(QStringLiteral("quantize_dialog.png"))));
        }

        QTest::mouseClick(d->useButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_engine->state() != EngineState::Loading, kSlowMs);
        QVERIFY(m_engine->isModelLoaded());
        QCOMPARE(QString::fromStdString(m_engine->modelInfo().model_dir), target);
        QCOMPARE(QString::fromStdString(m_engine->modelInfo().weights), QStringLiteral("int8"));
        QVERIFY(m_engine->modelInfo().weight_bytes < before.weight_bytes);
        QVERIFY2(w.statusStateText().contains(QStringLiteral("int8 weights")), qPrintable(w.statusStateText()));
        // ... and for the int8 folder, a figure within 5 % of what the loaded copy holds (the RoPE
        // table comes on top of the weights there)
        static const QRegularExpression figure(QStringLiteral("^int8 weights: ([0-9.]+) (kB|MB|GB) in memory"));
        const QRegularExpressionMatch m = figure.match(size->text());
        QVERIFY2(m.hasMatch(), qPrintable(size->text()));
        const double unit = m.captured(2) == QStringLiteral("GB") ? 1e9 : m.captured(2) == QStringLiteral("MB") ? 1e6 : 1e3;
        const double said = m.captured(1).toDouble() * unit, held = double(m_engine->modelInfo().weight_bytes);
        QVERIFY2(std::abs(said - held) <= 0.05 * held, qPrintable(QStringLiteral("%1 against %2 bytes").arg(size->text()).arg(held)));
        w.textEdit()->setPlainText(QStringLiteral("Spoken from the int8 copy."));
        QVERIFY(generateOneTake());

        // The copy cannot be quantized again: the engine's reason, in the dialog
        QTest::mouseClick(w.settingsPanel()->quantizeButton(), Qt::LeftButton);
        d = w.quantizeDialog();
        QVERIFY(d && d->isVisible());
        QCOMPARE(d->targetEdit()->text(), target + QStringLiteral("-int8"));
        QTest::mouseClick(d->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), kSlowMs);
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("already quantized")), qPrintable(d->statusLabel()->text()));
        QVERIFY(!QFileInfo::exists(target + QStringLiteral("-int8")));
        d->close();
    }

    // The same dialog, int4 chosen: the group size comes alive and the suggested folder follows the
    // choice (a name the user typed stays). The tiny model's 64-wide layers do not split into groups
    // of 128: the engine's reason, in the dialog, and nothing written; in groups of 32 the copy is
    // written, says int4 in its quantization.json, loads, speaks, and the status line and the model
    // picker say "int4-g32 weights".
    void quantizeToInt4FromTheStudio() {
        MainWindow& w = *m_window;
        m_settings->setModelDir(path("demo"));   // back to the float model (the last test left the int8 copy)
        QTRY_VERIFY(m_engine->state() == EngineState::Ready);
        const qint64 int8Bytes = m_engine->modelInfo().weight_bytes;   // the int8 copy, still loaded
        QTest::mouseClick(w.settingsPanel()->quantizeButton(), Qt::LeftButton);
        QuantizeDialog* d = w.quantizeDialog();
        QVERIFY(d && d->isVisible());
        QCOMPARE(d->targetEdit()->text(), path("demo-int8-2"));   // demo-int8 is there now
        d->setFormat(QStringLiteral("int4"));
        QCOMPARE(d->formatCombo()->currentData().toString(), QStringLiteral("int4"));
        QVERIFY(d->groupCombo()->isEnabled());
        QCOMPARE(d->group(), 128);
        QVERIFY2(d->tradeOffLabel()->text().contains(QStringLiteral("quarter")), qPrintable(d->tradeOffLabel()->text()));
        QCOMPARE(d->targetEdit()->text(), path("demo-int4"));
        // A name of the user's own survives a change of format; emptied, the suggestion returns
        d->targetEdit()->setText(path("mine"));
        d->setFormat(QStringLiteral("int8"));
        QCOMPARE(d->targetEdit()->text(), path("mine"));
        QVERIFY(!d->groupCombo()->isEnabled());
        d->targetEdit()->clear();
        d->setFormat(QStringLiteral("int4"));
        QCOMPARE(d->targetEdit()->text(), path("demo-int4"));

        // Groups of 128 do not divide the tiny model's inputs: refused before any work
        QTest::mouseClick(d->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), kSlowMs);
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("group size")), qPrintable(d->statusLabel()->text()));
        QVERIFY(!d->useButton()->isVisible());
        QVERIFY(!QFileInfo::exists(path("demo-int4")));
        QCOMPARE(m_engine->state(), EngineState::Ready);

        // Groups of 32, the embedding tables too: written, and the folder says so
        d->setGroup(32);
        const QString target = path("demo-int4-g32");
        QCOMPARE(d->targetEdit()->text(), target);
        QVERIFY(d->embeddingsCheck()->isEnabled() && !d->embeddingsCheck()->isChecked());
        d->embeddingsCheck()->setChecked(true);
        QTest::mouseClick(d->startButton(), Qt::LeftButton);
        QVERIFY(!d->formatCombo()->isEnabled() || !d->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), kSlowMs);
        QVERIFY2(d->useButton()->isVisible(), qPrintable(d->statusLabel()->text()));
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("int4-g32")), qPrintable(d->statusLabel()->text()));
        QCOMPARE(d->useButton()->text(), QStringLiteral("Use the int4 copy"));
        QFile header(target + QStringLiteral("/quantization.json"));
        QVERIFY(header.open(QIODevice::ReadOnly));
        const QJsonObject marker = QJsonDocument::fromJson(header.readAll()).object();
        QCOMPARE(marker.value(QStringLiteral("format")).toString(), QStringLiteral("int4"));
        QCOMPARE(marker.value(QStringLiteral("group")).toInt(), 32);
        QVERIFY(marker.value(QStringLiteral("embeddings")).toBool());
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/model.safetensors")));

        QTest::mouseClick(d->useButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_engine->state() != EngineState::Loading, kSlowMs);
        QVERIFY2(m_engine->isModelLoaded(), qPrintable(w.banner()->text()));
        QCOMPARE(QString::fromStdString(m_engine->modelInfo().model_dir), target);
        QCOMPARE(QString::fromStdString(m_engine->modelInfo().weights), QStringLiteral("int4-g32"));
        QVERIFY(m_engine->modelInfo().weight_bytes < int8Bytes);
        QVERIFY2(w.statusStateText().contains(QStringLiteral("int4-g32 weights")), qPrintable(w.statusStateText()));
        QLabel* size = w.settingsPanel()->modelSizeLabel();
        static const QRegularExpression figure(QStringLiteral("^int4-g32 weights: ([0-9.]+) (kB|MB|GB) in memory"));
        const QRegularExpressionMatch m = figure.match(size->text());
        QVERIFY2(m.hasMatch(), qPrintable(size->text()));
        const double unit = m.captured(2) == QStringLiteral("GB") ? 1e9 : m.captured(2) == QStringLiteral("MB") ? 1e6 : 1e3;
        // the size line counts what the load takes: the weights held and the fp32 RoPE table (on
        // this tiny model 4096 x 16 x 4 bytes, 8 % of its quantized weights)
        const double said = m.captured(1).toDouble() * unit, held = double(m_engine->modelInfo().weight_bytes);
        QVERIFY2(said >= 0.99 * held && said <= 1.12 * held,
                 qPrintable(QStringLiteral("%1 against %2 bytes").arg(size->text()).arg(held)));
        w.textEdit()->setPlainText(QStringLiteral("Spoken from the int4 copy."));
        QVERIFY(generateOneTake());
    }

    // Issue #48 through the studio's queue on the real engine: a 3-chapter EPUB with two speakers
    // and pause markup is imported, generated, and exported as a book (FLAC with chapter marks,
    // one file per chapter, SRT and WebVTT) normalized to the audiobook preset.
    void anEpubBookThroughTheQueue() {
        MainWindow& w = *m_window;
        ProjectModel& project = w.project();
        const QString book = path("reef_tales.epub");
        QVERIFY(reef_test::writeEpub(book, QStringLiteral("Reef Tales"),
                                     {"<h1>One</h1><p>&lt;|speaker:0|&gt;The tide came in. [pause 1.5s]</p>"
                                      "<p>&lt;|speaker:1|&gt;The reef woke, and sang.</p>",
                                      "<h1>Two</h1><p>&lt;|speaker:0|&gt;Morning light fell on the water.</p>",
                                      "<h1>Three</h1><p>&lt;|speaker:1|&gt;Everyone listened.</p>"}));
        QString error;
        QVERIFY2(w.importEpub(book, &error), qPrintable(error));
        QCOMPARE(project.segmentCount(), 7);
        QCOMPARE(project.speakers(), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
        QTest::mouseClick(w.projectView()->generateAllButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(project.segmentsNeedingAudio().isEmpty(), kSlowMs);
        for (int r = 0; r < project.segmentCount(); ++r)
            QVERIFY(project.segment(r).takes.front().codes.n_frames > 0);   // the take kept its codes

        ProductionDialog d(project, *m_voices, &w);
        auto* preset = d.findChild<QComboBox*>(QStringLiteral("loudnessPreset"));
        preset->setCurrentIndex(1);
        Q_EMIT preset->activated(1);   // audiobook: −18 LUFS, −3 dBTP
        for (const char* box : {"perChapterCheck", "srtCheck", "vttCheck"})
            d.findChild<QCheckBox*>(QString::fromLatin1(box))->setChecked(true);
        QStringList files;
        const QString out = path("book");
        QDir().mkpath(out);
        QVERIFY2(d.exportTo(out, &files, &error), qPrintable(error));
        QCOMPARE(files.size(), 12);   // the book, 3 chapters, SRT and VTT for the book and each chapter
        const std::string flac = QDir(out).filePath(QStringLiteral("Reef Tales.flac")).toStdString();
        QCOMPARE(int(audio::read_flac_chapters(flac).size()), 3);
        const audio::AudioData a = audio::read_audio(flac);
        const audio::Loudness l = audio::measure_loudness(a.samples, kSampleRate);
        QVERIFY2(std::abs(l.integrated_lufs + 18.0) < 0.5 && l.true_peak_dbtp <= -2.9,
                 qPrintable(QStringLiteral("%1 LUFS, %2 dBTP").arg(l.integrated_lufs).arg(l.true_peak_dbtp)));
        // The markup's 1.5 s lie between the first speaker's take and the second's, to the sample.
        ProjectData doc = project.document();
        doc.assembly.normalize = false;
        const AssembledProject plain = assembleProject(doc);
        QCOMPARE(plain.spans[2].start - (plain.spans[1].start + plain.spans[1].length), qint64(66150));
        // Re-decode: the stored codes through the codec again, a new take with the same codes; on
        // the same model and precision the same audio (the take was decoded in streamed chunks,
        // this whole: they differ by float rounding only, measured ~120 dB SNR).
        w.projectView()->selectRow(1);
        QVERIFY(w.projectView()->redecodeButton()->isEnabled());
        const SegmentTake before = project.segment(1).takes.back();
        QTest::mouseClick(w.projectView()->redecodeButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(project.segment(1).takes.size(), size_t(2), kSlowMs);
        QCOMPARE(project.segment(1).currentTake, 1);
        QCOMPARE(project.segment(1).takes[1].codes.data, before.codes.data);
        QCOMPARE(project.segment(1).takes[1].sampling.seed, before.sampling.seed);
        const std::vector<float>& again = project.segment(1).takes[1].audio;
        QCOMPARE(again.size(), before.audio.size());
        double num = 0, den = 0;
        for (size_t i = 0; i < again.size(); ++i) {
            num += double(before.audio[i]) * before.audio[i];
            den += (double(again[i]) - before.audio[i]) * (double(again[i]) - before.audio[i]);
        }
        const double snr = 10 * std::log10(num / std::max(den, 1e-30));
        qInfo("re-decoded vs streamed take: SNR %.1f dB", snr);
        QVERIFY(snr > 90.0);
        QFile srt(QDir(out).filePath(QStringLiteral("Reef Tales.srt")));
        QVERIFY(srt.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(srt.readAll()).count(QStringLiteral(" --> ")), 7);
    }

    void cleanupTestCase() {
        m_window.reset();   // before the controller it points at
        m_engine.reset();
    }
};

QTEST_MAIN(TstRealWindow)
#include "tst_real_window.moc"
