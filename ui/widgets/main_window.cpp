#include "widgets/main_window.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <exception>

#include "qt/app_versions.h"
#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/perf_history_model.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/pronunciation_dictionary.h"
#include "qt/synthesis_queue.h"
#include "qt/take_history.h"
#include "qt/reference_audio.h"
#include "qt/settings.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "widgets/about_dialog.h"
#include "widgets/banner.h"
#include "widgets/compare_view.h"
#include "widgets/perf_chart_widget.h"
#include "widgets/project_view.h"
#include "widgets/queue_view.h"
#include "widgets/player_bar.h"
#include "widgets/settings_panel.h"
#include "widgets/synthesis_panel.h"
#include "widgets/takes_view.h"
#include "widgets/voice_library_dialog.h"

namespace reef::ui {

MainWindow::MainWindow(EngineController& engine, Settings& settings, PlaybackController& playback,
                       VoiceListModel& voices, QWidget* parent)
    : QMainWindow(parent), m_engine(engine), m_settings(settings), m_playback(playback), m_voices(voices) {
    setWindowTitle(QStringLiteral("Reef"));
    m_perf = new PerfHistoryModel(1200, this);
    m_takes = new TakesModel(50, this);
    m_project = new ProjectModel(this);
    m_queue = new SynthesisQueue(&m_engine, this);
    m_dictionary = new PronunciationDictionary(this);
    setupUi();
    setupMenus();
    setAcceptDrops(true);   // text files and reference clips (main_window_files.cpp)
    connectEngine();
    playback.setAutoplay(settings.autoplay());
    connect(&settings, &Settings::playbackOptionsChanged, this, [this] { m_playback.setAutoplay(m_settings.autoplay()); });
    connect(&settings, &Settings::audioDeviceChanged, this, [this](const QString& device) {
        try {
            m_playback.sink().openDevice(device);
        } catch (const std::exception& e) {
            statusBar()->showMessage(tr("Audio output: %1").arg(QString::fromStdString(e.what())), 8000);
        }
    });
    m_settingsPanel->setDeviceCaps(engine.deviceCaps());
    m_settingsPanel->setAudioDevices(playback.sink().devices());
    updateState();
    resize(1280, 860);
}

MainWindow::~MainWindow() {
    qApp->removeEventFilter(this);
}

void MainWindow::setupUi() {
    m_banner = new Banner;
    m_synthesis = new SynthesisPanel(m_voices);
    m_chart = new PerfChartWidget(*m_perf);
    m_takesView = new TakesView(*m_takes);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_synthesis);
    split->addWidget(m_chart);
    split->addWidget(m_takesView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);

    m_compare = new CompareView(m_engine, m_settings, m_playback);
    m_tabs = new QTabWidget;
    m_tabs->setAccessibleName(tr("Views"));
    m_projectView = new ProjectView(*m_project, m_voices);
    m_tabs->addTab(split, tr("Synthesis"));
    m_tabs->addTab(m_projectView, tr("Project"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_player = new PlayerBar(m_playback);

    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    v->addWidget(m_banner);
    v->addWidget(m_tabs, 1);
    v->addWidget(m_player);
    setCentralWidget(central);

    m_settingsPanel = new SettingsPanel(m_settings);
    auto* dock = new QDockWidget(tr("Settings"), this);
    dock->setObjectName(QStringLiteral("settingsDock"));
    dock->setWidget(m_settingsPanel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    m_queueView = new QueueView(*m_queue);
    auto* queueDock = new QDockWidget(tr("Queue"), this);
    queueDock->setObjectName(QStringLiteral("queueDock"));
    queueDock->setWidget(m_queueView);
    queueDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, queueDock);

    m_stateLabel = new QLabel;
    m_deviceLabel = new QLabel(appVersions().deviceSummary);
    statusBar()->addWidget(m_stateLabel, 1);
    statusBar()->addPermanentWidget(m_deviceLabel);

    connect(m_synthesis, &SynthesisPanel::generateRequested, this, &MainWindow::generate);
    connect(m_synthesis->textEdit(), &QPlainTextEdit::textChanged, this, [this] {
        if (statusBar()->currentMessage() == SynthesisPanel::emptyTextReason())
            statusBar()->clearMessage();   // the "type some text" hint is answered
    });
    connect(m_synthesis, &SynthesisPanel::stopRequested, &m_engine, &EngineController::cancel);
    connect(m_synthesis, &SynthesisPanel::manageVoicesRequested, this, &MainWindow::manageVoices);
    connect(m_settingsPanel, &SettingsPanel::loadRequested, this, &MainWindow::loadModel);
    connect(m_player, &PlayerBar::exportRequested, this, [this] { exportInteractive(&m_playback.samples(), -1); });
    connect(m_takesView, &TakesView::replayRequested, this, [this](int row) {
        if (row < 0)
            return;
        m_playback.setClip(m_takes->take(row).audio);
        m_playback.play();
    });
    connect(m_takesView, &TakesView::exportRequested, this, [this](int row) {
        if (row >= 0)
            exportInteractive(&m_takes->take(row).audio, row);
    });
    connect(m_takesView, &TakesView::reuseRequested, this, &MainWindow::reuseTakeSettings);
    connect(m_takesView, &TakesView::exportAllRequested, this, &MainWindow::exportAllTakesInteractive);
    connect(m_projectView, &ProjectView::generateRequested, this, &MainWindow::generateSegments);
    connect(m_projectView, &ProjectView::playSegmentRequested, this,
            [this](int row) { playClip(m_project->segmentAudio(row)); });
    connect(m_projectView, &ProjectView::playProjectRequested, this,
            [this] { playClip(m_project->renderProject(m_projectView->crossfadeMs())); });
    connect(m_projectView, &ProjectView::exportProjectRequested, this, &MainWindow::exportProjectInteractive);
    connect(m_projectView, &ProjectView::exportSegmentsRequested, this, &MainWindow::exportSegmentsInteractive);
    connect(m_projectView, &ProjectView::pinSettingsRequested, this,
            [this](int row) { m_project->setSegmentSampling(row, m_settings.sampling()); });
    connect(m_project, &ProjectModel::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_project, &QAbstractItemModel::modelReset, this, &MainWindow::updateTitle);
    connect(m_queue, &SynthesisQueue::itemStarted, this, &MainWindow::onQueueItemStarted);
    connect(m_queue, &SynthesisQueue::itemFinished, this, &MainWindow::onQueueItemFinished);
    connect(&m_playback, &PlaybackController::playbackError, this,
            [this](const QString& reason) { statusBar()->showMessage(tr("Playback: %1").arg(reason), 8000); });
}

void MainWindow::connectEngine() {
    EngineController& e = m_engine;
    connect(&e, &EngineController::stateChanged, this, &MainWindow::updateState);
    connect(&e, &EngineController::capsChanged, m_settingsPanel, &SettingsPanel::setDeviceCaps);
    connect(&e, &EngineController::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(&e, &EngineController::loadFailed, this, [this](const QString& reason) {
        // A failed load keeps the previous model (the engine builds the new one first): say so.
        const QString still = m_engine.isModelLoaded()
                                  ? tr("<br>Still using the previous model, %1; Generate keeps working.")
                                        .arg(QString::fromStdString(m_engine.modelInfo().name).toHtmlEscaped())
                                  : QString();
        m_banner->showMessage(tr("<b>Could not load the model.</b> %1%2<br>Pick a fish-speech S2-Pro or S1-mini folder "
                                 "in Settings → Model, or with File → Open model folder…")
                                  .arg(reason.toHtmlEscaped(), still),
                              Banner::Kind::Error, Banner::Topic::Model);
    });
    connect(&e, &EngineController::synthesisStarted, this, [this](quint64 id) {
        m_banner->dismissTopic(Banner::Topic::Synthesis);  // the last failure is no longer news
        m_perf->startRun(id);
        m_playback.beginStream(id);
        m_synthesis->startProgress(m_lastRequest.sampling.max_new_frames);
    });
    connect(&e, &EngineController::progress, this,
            [this](quint64, int frames, double ms) { m_synthesis->setProgress(frames, ms); });
    connect(&e, &EngineController::status, this,
            [this](quint64, const QString& message) { m_synthesis->showMessage(message); });
    connect(&e, &EngineController::audioChunk, &m_playback, &PlaybackController::appendChunk);
    connect(&e, &EngineController::perfSample, m_perf, &PerfHistoryModel::addSample);
    connect(&e, &EngineController::synthesisFinished, this, &MainWindow::onEngineFinished);
    connect(&e, &EngineController::synthesisFailed, this, [this](quint64, const QString& reason) {
        m_playback.endStream();
        m_synthesis->finishProgress(tr("Failed: %1").arg(reason), /*completed=*/false);
        m_banner->showMessage(tr("<b>Synthesis failed.</b> %1").arg(reason.toHtmlEscaped()), Banner::Kind::Error,
                              Banner::Topic::Synthesis);
    });
    connect(&e, &EngineController::synthesisCancelled, this, [this](quint64) {
        m_playback.endStream();
        m_synthesis->finishProgress(tr("Stopped."), /*completed=*/false);
    });
    connect(&e, &EngineController::referenceEncoded, this, [this](quint64 id, const Codes& codes) {
        const QString voice = m_encoding.take(id);
        QString error;
        if (!voice.isEmpty() && !m_voices.setCodes(voice, codes, &error))
            statusBar()->showMessage(error, 8000);
    });
    connect(&e, &EngineController::referenceFailed, this, [this](quint64 id, const QString& reason) {
        m_encoding.remove(id);
        statusBar()->showMessage(tr("Could not encode the reference clip: %1").arg(reason), 8000);
    });
}

void MainWindow::startUp(const QString& dataDir) {
    openDataDir(dataDir);
    if (m_settings.modelDir().isEmpty()) {
        QString error;
        const QString demo = ensureDemoModel(dataDir, &error);
        if (demo.isEmpty()) {
            m_banner->showMessage(tr("<b>No model is configured</b> and Reef could not create its demo model: %1<br>"
                                     "Open a fish-speech model folder with File → Open model folder….")
                                      .arg(error.toHtmlEscaped()),
                                  Banner::Kind::Error);
            return;
        }
        m_settings.setModelDir(demo);
    }
    loadModel();
}

void MainWindow::loadModel() {
    if (m_settings.modelDir().isEmpty()) {
        m_banner->showMessage(tr("Choose a model folder first (File → Open model folder…)."), Banner::Kind::Error);
        return;
    }
    m_engine.loadModel(m_settings.engineConfig());
}

void MainWindow::openModelFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a fish-speech model folder"), m_settings.modelDir());
    if (dir.isEmpty())
        return;
    m_settings.setModelDir(dir);
    loadModel();
}

void MainWindow::onModelLoaded(const ModelInfo& info) {
    if (info.is_demo)
        m_banner->showMessage(tr("<b>Demo model loaded.</b> \"%1\" has <b>random weights</b>: it runs the whole "
                                 "pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or "
                                 "S1-mini model and open its folder with File → Open model folder….")
                                  .arg(QString::fromStdString(info.name).toHtmlEscaped()),
                              Banner::Kind::Info);
    else
        m_banner->dismiss();
    statusBar()->showMessage(tr("Loaded %1 (%2 M parameters) from %3")
                                 .arg(QString::fromStdString(info.name))
                                 .arg(double(info.n_parameters) / 1e6, 0, 'f', 1)
                                 .arg(QString::fromStdString(info.model_dir)),
                             8000);
    encodePendingVoices();
}

void MainWindow::updateState() {
    const EngineState s = m_engine.state();
    const bool running = s == EngineState::Generating || s == EngineState::Stopping;
    QString why;
    if (s == EngineState::NoModel)
        why = tr("Load a model first");
    else if (s == EngineState::Loading)
        why = tr("The model is loading");
    else if (s == EngineState::Benchmarking)
        why = tr("A bench is running");
    m_synthesis->setBusy(running, s == EngineState::Ready, why);
    m_stopAction->setEnabled(running || s == EngineState::Benchmarking);
    QString text = stateName(s);
    if (m_engine.isModelLoaded())
        text = QStringLiteral("%1 · %2").arg(QString::fromStdString(m_engine.modelInfo().name), text);
    m_stateLabel->setText(text);
}

void MainWindow::generate() {
    // On the Project tab, Generate (Ctrl+Enter) re-generates the selected segment.
    if (m_tabs->currentWidget() == m_projectView && m_projectView->currentRow() >= 0) {
        generateSegments({m_projectView->currentRow()});
        return;
    }
    const QString text = m_synthesis->text();
    if (text.isEmpty()) {   // the button is disabled then; this guards the shortcut and direct calls
        m_synthesis->showMessage(SynthesisPanel::emptyTextReason());
        statusBar()->showMessage(SynthesisPanel::emptyTextReason(), 5000);
        return;
    }
    const int row = m_synthesis->voiceRow();
    enqueue(text, row >= 0 ? m_voices.voice(row).id : QString(), m_settings.sampling(),
            QVariantMap{{QStringLiteral("kind"), QStringLiteral("take")}});
}

void MainWindow::onEngineFinished(const SynthesisResult& result) {
    // Streamed chunks already hold the audio; a run without streaming delivers it only here.
    if (m_playback.samples().size() != result.audio.size()) {
        m_playback.setClip(result.audio);
        if (m_settings.autoplay())
            m_playback.play();
    }
    m_playback.endStream();
}

std::optional<audio::ExportFormat> MainWindow::exportFormatOrError(const QString& path, const QString& filter,
                                                                   QString* error) {
    const std::optional<audio::ExportFormat> format = exportFormatForPath(path, filter);
    if (!format && error)
        *error = tr("unknown audio format (use .wav, .flac, .ogg or .mp3)");
    return format;
}

bool MainWindow::exportAudio(const QString& path, QString* error, const QString& selectedFilter) {
    const std::optional<audio::ExportFormat> format = exportFormatOrError(path, selectedFilter, error);
    if (!format)
        return false;
    AudioExportMeta meta;
    meta.text = m_synthesis->text();
    meta.model = QString::fromStdString(m_engine.modelInfo().name);
    return exportAudioFile(path, m_playback.samples(), *format, meta, error);
}

bool MainWindow::exportTake(int row, const QString& path, QString* error, const QString& selectedFilter) {
    if (row < 0 || row >= m_takes->rowCount()) {
        if (error)
            *error = tr("no take at row %1").arg(row);
        return false;
    }
    const std::optional<audio::ExportFormat> format = exportFormatOrError(path, selectedFilter, error);
    if (!format)
        return false;
    const Take& t = m_takes->take(row);
    AudioExportMeta meta;
    meta.text = t.text;
    meta.model = t.modelName;
    meta.settings = t.settingsSummary();
    meta.seed = t.sampling.seed;
    return exportAudioFile(path, t.audio, *format, meta, error);
}

bool MainWindow::exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter) {
    QString why;
    const bool ok = takeRow >= 0 ? exportTake(takeRow, path, &why, selectedFilter) : exportAudio(path, &why, selectedFilter);
    if (ok) {
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
        return true;
    }
    // Exports write a temp file and rename it, so a failure leaves no partial file behind.
    why = tr("Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it "
             "to another folder.").arg(QDir::toNativeSeparators(path), why);
    statusBar()->showMessage(why, 10000);
    if (error)
        *error = why;
    return false;
}

void MainWindow::exportInteractive(const std::vector<float>* audio, int takeRow) {
    if (!audio || audio->empty())
        return;
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export audio"), QStringLiteral("reef-take.wav"),
                                                exportFileFilter(), &filter);
    if (path.isEmpty())
        return;
    if (const auto format = exportFormatForPath(path, filter))
        path = withExportSuffix(path, *format);
    QString error;
    if (!exportTo(takeRow, path, &error, filter))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::manageVoices() {
    VoiceLibraryDialog dialog(m_voices, this);
    connect(&dialog, &VoiceLibraryDialog::voiceAdded, this, &MainWindow::encodeVoice);
    dialog.exec();
}

void MainWindow::encodeVoice(const QString& voiceId) {
    const int row = m_voices.rowOfId(voiceId);
    if (row < 0 || m_voices.voice(row).hasCodes() || !m_engine.isModelLoaded())
        return;   // encoded later, once a model is loaded
    QString error;
    std::vector<float> audio = loadMono44k(m_voices.voice(row).clipPath, &error);
    if (audio.empty()) {
        statusBar()->showMessage(tr("Cannot read the reference clip: %1").arg(error), 8000);
        return;
    }
    m_encoding.insert(m_engine.encodeReference(std::move(audio)), voiceId);
}

void MainWindow::encodePendingVoices() {
    for (int r = 0; r < m_voices.rowCount(); ++r)
        if (!m_voices.voice(r).hasCodes())
            encodeVoice(m_voices.voice(r).id);
}

QString MainWindow::statusDeviceText() const { return m_deviceLabel->text(); }
QString MainWindow::statusStateText() const { return m_stateLabel->text(); }
QString MainWindow::lastAttentionText() const { return m_lastAttention; }
QPushButton* MainWindow::generateButton() const { return m_synthesis->generateButton(); }
QPushButton* MainWindow::stopButton() const { return m_synthesis->stopButton(); }
QPlainTextEdit* MainWindow::textEdit() const { return m_synthesis->textEdit(); }

void MainWindow::showAbout() {
    AboutDialog dialog(this);
    dialog.exec();
}

}  // namespace reef::ui
