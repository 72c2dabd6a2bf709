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
#include "widgets/quantize_dialog.h"
#include "widgets/queue_view.h"
#include "widgets/player_bar.h"
#include "widgets/server_settings.h"
#include "widgets/settings_panel.h"
#include "widgets/synthesis_panel.h"
#include "widgets/takes_view.h"
#include "widgets/voice_library_dialog.h"

namespace reef::ui {

MainWindow::MainWindow(EngineController& engine, Settings& settings, PlaybackController& playback,
                       VoiceListModel& voices, QWidget* parent)
    : QMainWindow(parent), m_engine(engine), m_settings(settings), m_playback(playback), m_voices(voices) {
    setWindowTitle(QStringLiteral("Reef"));
    m_studio = new StudioController(engine, settings, playback, voices, this);
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
    m_chart = new PerfChartWidget(m_studio->perf());
    m_takesView = new TakesView(m_studio->takes());
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
    m_projectView = new ProjectView(m_studio->project(), m_voices);
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
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    m_queueView = new QueueView(m_studio->queue());
    auto* queueDock = new QDockWidget(tr("Queue"), this);
    queueDock->setObjectName(QStringLiteral("queueDock"));
    queueDock->setWidget(m_queueView);
    queueDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                           QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, queueDock);
    // Settings gets most of the column: at the default 1280×860 the queue's few rows need less
    // height than the settings' groups (issue #47: only three groups showed).
    resizeDocks({dock, queueDock}, {3, 1}, Qt::Vertical);

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
    connect(m_settingsPanel, &SettingsPanel::quantizeRequested, this, &MainWindow::quantizeModel);
    connect(m_settingsPanel->serverSettings(), &ServerSettings::profileSelected, m_studio,
            [this] { m_studio->restoreServerKey([] {}); });
    connect(m_player, &PlayerBar::exportRequested, this, [this] { exportInteractive(&m_playback.samples(), -1); });
    connect(m_takesView, &TakesView::replayRequested, m_studio, &StudioController::replayTake);
    connect(m_takesView, &TakesView::exportRequested, this, [this](int row) {
        if (row >= 0)
            exportInteractive(&m_studio->takes().take(row).audio, row);
    });
    connect(m_takesView, &TakesView::reuseRequested, this, &MainWindow::reuseTakeSettings);
    connect(m_takesView, &TakesView::exportAllRequested, this, &MainWindow::exportAllTakesInteractive);
    connect(m_projectView, &ProjectView::generateRequested, m_studio, &StudioController::generateSegments);
    connect(m_projectView, &ProjectView::playSegmentRequested, m_studio, &StudioController::playSegment);
    connect(m_projectView, &ProjectView::playProjectRequested, this,
            [this] { m_studio->playProject(m_projectView->crossfadeMs()); });
    connect(m_projectView, &ProjectView::exportProjectRequested, this, &MainWindow::exportProjectInteractive);
    connect(m_projectView, &ProjectView::exportSegmentsRequested, this, &MainWindow::exportSegmentsInteractive);
    connect(m_projectView, &ProjectView::productionRequested, this, &MainWindow::showProduction);
    connect(m_projectView, &ProjectView::redecodeRequested, this, [this](const QList<int>& rows) {
        if (m_studio->redecodeSegments(rows) == 0)
            statusBar()->showMessage(tr("Nothing to re-decode: load a model on this computer, and pick a take that kept its codes"), 8000);
    });
    connect(m_projectView, &ProjectView::pinSettingsRequested, this,
            [this](int row) { m_studio->project().setSegmentSampling(row, m_settings.sampling()); });
    connect(m_studio, &StudioController::documentChanged, this, &MainWindow::updateTitle);
    connect(m_studio, &StudioController::statusMessage, this, &MainWindow::showStatus);
    connect(m_studio, &StudioController::jobFinished, this, [this](const QString& summary) { m_synthesis->finishProgress(summary); });
    connect(m_studio, &StudioController::historyUnreadable, this, [this](const QString& error) {
        m_banner->showMessage(tr("<b>The take history could not be read.</b> %1<br>New takes are saved; the old "
                                 "index is kept aside, not deleted.").arg(error.toHtmlEscaped()),
                              Banner::Kind::Error);
    });
    connect(&m_playback, &PlaybackController::playbackError, this,
            [this](const QString& reason) { showStatus(tr("Playback: %1").arg(reason), 8000); });
}

void MainWindow::connectEngine() {
    EngineController& e = m_engine;
    connect(&e, &EngineController::stateChanged, this, &MainWindow::updateState);
    connect(&e, &EngineController::capsChanged, m_settingsPanel, &SettingsPanel::setDeviceCaps);
    connect(m_settingsPanel, &SettingsPanel::compileSetupFinished, &e, [&e](bool) { e.refreshCaps(); });
    connect(&e, &EngineController::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(&e, &EngineController::loadFailed, this, [this](const QString& reason) {
        // A failed load keeps the previous model (the engine builds the new one first): say so.
        const QString still = m_engine.isModelLoaded()
                                  ? tr("<br>Still using the previous model, %1; Generate keeps working.")
                                        .arg(QString::fromStdString(m_engine.modelInfo().name).toHtmlEscaped())
                                  : QString();
        const QString what = m_settings.useServer()
                                 ? tr("<b>Could not connect to the server.</b> %1%2<br>Check its address, protocol and key in "
                                      "Settings → Speech from a server, or untick it to use this computer.")
                                 : tr("<b>Could not load the model.</b> %1%2<br>Pick a fish-speech S2-Pro or S1-mini folder "
                                      "in Settings → Model, or with File → Open model folder…");
        m_banner->showMessage(what.arg(reason.toHtmlEscaped(), still), Banner::Kind::Error, Banner::Topic::Model);
        if (!m_engine.isModelLoaded())
            m_settingsPanel->setLoadedConfig(std::nullopt);
    });
    connect(&e, &EngineController::synthesisStarted, this, [this] {
        m_banner->dismissTopic(Banner::Topic::Synthesis);  // the last failure is no longer news
        m_synthesis->startProgress(m_studio->runningRequest().sampling.max_new_frames);
    });
    // A batch: the bar runs without an end (the queue's rows show each item's progress).
    connect(&e, &EngineController::batchStarted, this, [this](const QList<quint64>& ids) {
        m_banner->dismissTopic(Banner::Topic::Synthesis);
        m_synthesis->startProgress(0);
        // The call holds up to a few batches' worth; only the batch size decode at once (issue #47).
        const int size = m_settings.batchSize();
        if (size > 0 && size < ids.size())
            m_synthesis->showMessage(tr("%1 items in this batch: %2 decode together, the others wait for a free slot "
                                        "(batch size: Settings → Engine)")
                                         .arg(ids.size())
                                         .arg(size));
        else if (size > 0)
            m_synthesis->showMessage(tr("%1 items decoding together (batch size: Settings → Engine)").arg(ids.size()));
        else
            m_synthesis->showMessage(tr("%1 items in this batch: as many decode together as memory allows (batch size: "
                                        "Settings → Engine)").arg(ids.size()));
    });
    connect(&e, &EngineController::progress, this, [this](quint64 id, int frames, double ms) {
        if (id == m_engine.currentSynthesisId())
            m_synthesis->setProgress(frames, ms);
    });
    connect(&e, &EngineController::status, this,
            [this](quint64, const QString& message) { m_synthesis->showMessage(message); });
    connect(&e, &EngineController::synthesisFailed, this, [this](quint64, const QString& reason) {
        m_synthesis->finishProgress(tr("Failed: %1").arg(reason), /*completed=*/false);
        m_banner->showMessage(tr("<b>Synthesis failed.</b> %1").arg(reason.toHtmlEscaped()), Banner::Kind::Error,
                              Banner::Topic::Synthesis);
    });
    connect(&e, &EngineController::synthesisCancelled, this,
            [this] { m_synthesis->finishProgress(tr("Stopped."), /*completed=*/false); });
}

void MainWindow::startUp(const QString& dataDir) {
    if (m_settings.useServer()) {   // the server's key comes from the secret store first
        m_studio->openDataDir(dataDir);
        m_studio->restoreServerKey([this] { loadModel(); });
        return;
    }
    QString error;
    if (!m_studio->prepareModel(dataDir, &error)) {
        m_banner->showMessage(tr("<b>No model is configured</b> and Reef could not create its demo model: %1<br>"
                                 "Open a fish-speech model folder (File → Open model folder…).")
                                  .arg(error.toHtmlEscaped()),
                              Banner::Kind::Error);
        return;
    }
    loadModel();
}

void MainWindow::loadModel() {
    QString error;
    if (!m_studio->loadModel(&error))
        m_banner->showMessage(error, Banner::Kind::Error);
}

void MainWindow::openModelFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a fish-speech model folder"), m_settings.modelDir());
    if (dir.isEmpty())
        return;
    m_settings.setModelDir(dir);
    loadModel();
}

QuantizeDialog* MainWindow::quantizeDialog() const { return m_quantize; }

void MainWindow::quantizeModel() {
    if (m_settings.modelDir().isEmpty()) {
        m_banner->showMessage(tr("<b>No model folder to quantize.</b> Pick one in Settings → Model first."),
                              Banner::Kind::Error, Banner::Topic::Model);
        return;
    }
    // One at a time: a dialog at work comes to the front (replacing it would cancel its work); an
    // idle one gives way to one for the folder Settings names now.
    if (m_quantize && m_quantize->isRunning()) {
        m_quantize->raise();
        m_quantize->activateWindow();
        return;
    }
    if (m_quantize)
        m_quantize->close();
    m_quantize = new QuantizeDialog(m_engine, m_settings.modelDir(), this);
    m_quantize->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_quantize, &QuantizeDialog::useRequested, this, [this](const QString& dir) {
        m_settings.setModelDir(dir);
        showStatus(tr("Loading the quantized copy %1").arg(dir), 8000);
        loadModel();
    });
    m_quantize->show();
}

void MainWindow::onModelLoaded(const ModelInfo& info) {
    // The Settings panel compares what it shows against what runs ("Reload needed").
    m_settingsPanel->setLoadedConfig(m_studio->isRemote() ? std::nullopt
                                                          : std::optional<EngineConfig>(m_engine.loadedConfig()));
    m_settingsPanel->setServedBy(m_studio->isRemote() ? std::optional<QString>(QString::fromStdString(info.name))
                                                      : std::nullopt,
                                 QString::fromStdString(info.served_with));
    if (info.is_demo)
        m_banner->showMessage(tr("<b>Demo model loaded.</b> \"%1\" has <b>random weights</b>: it runs the whole "
                                 "pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or "
                                 "S1-mini model and open its folder (File → Open model folder…).")
                                  .arg(QString::fromStdString(info.name).toHtmlEscaped()),
                              Banner::Kind::Info);
    else
        m_banner->dismiss();
    // The status bar says where speech is made: this computer, or the server.
    if (m_studio->isRemote()) {
        m_deviceLabel->setText(tr("Speech from %1").arg(QString::fromStdString(info.model_dir)));
        showStatus(tr("Connected to %1").arg(QString::fromStdString(info.name)), 8000);
        return;
    }
    m_deviceLabel->setText(appVersions().deviceSummary);
    showStatus(tr("Loaded %1 (%2 M parameters) from %3")
                       .arg(QString::fromStdString(info.name))
                       .arg(double(info.n_parameters) / 1e6, 0, 'f', 1)
                       .arg(QString::fromStdString(info.model_dir)) +
                   QStringLiteral(" · ") + weightsText(info) +
                   (info.codec_dir.empty() ? QString()
                                           : QStringLiteral(" · ") + tr("codec from %1").arg(QString::fromStdString(info.codec_dir))),
               8000);
}

// "int8 weights, 1.07 GB in memory" (issue #44): the format the model runs from and what it occupies.
QString MainWindow::weightsText(const ModelInfo& info) {
    const QString format = info.weights.empty() ? QString::fromUtf8(to_string(info.precision)) : QString::fromStdString(info.weights);
    return tr("%1 weights, %2 GB in memory").arg(format).arg(double(info.weight_bytes) / 1e9, 0, 'f', 2);
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
    else if (s == EngineState::Quantizing)
        why = tr("A model is being quantized");
    m_synthesis->setBusy(running, s == EngineState::Ready, why);
    m_stopAction->setEnabled(running || s == EngineState::Benchmarking || s == EngineState::Quantizing);
    QString text = stateName(s);
    if (m_engine.isModelLoaded()) {
        const ModelInfo& info = m_engine.modelInfo();
        text = m_studio->isRemote() ? QStringLiteral("%1 · %2").arg(QString::fromStdString(info.name), text)
                                    : QStringLiteral("%1 · %2 · %3").arg(QString::fromStdString(info.name), weightsText(info), text);
    }
    m_stateLabel->setText(text);
}

void MainWindow::generate() {
    // On the Project tab, Generate (Ctrl+Enter) re-generates the selected segment.
    if (m_tabs->currentWidget() == m_projectView && m_projectView->currentRow() >= 0) {
        m_studio->generateSegments({m_projectView->currentRow()});
        return;
    }
    const QString text = m_synthesis->text();
    if (text.isEmpty()) {   // the button is disabled then; this guards the shortcut and direct calls
        m_synthesis->showMessage(SynthesisPanel::emptyTextReason());
        showStatus(SynthesisPanel::emptyTextReason(), 5000);
        return;
    }
    const int row = m_synthesis->voiceRow();
    m_studio->generateText(text, row >= 0 ? m_voices.voice(row).id : QString());
}

void MainWindow::showStatus(const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); }

void MainWindow::manageVoices() {
    VoiceLibraryDialog dialog(m_voices, this);
    connect(&dialog, &VoiceLibraryDialog::voiceAdded, m_studio, &StudioController::encodeVoice);
    dialog.exec();
}

QString MainWindow::statusDeviceText() const { return m_deviceLabel->text(); }
QString MainWindow::statusStateText() const { return m_stateLabel->text(); }
QPushButton* MainWindow::generateButton() const { return m_synthesis->generateButton(); }
QPushButton* MainWindow::stopButton() const { return m_synthesis->stopButton(); }
QPlainTextEdit* MainWindow::textEdit() const { return m_synthesis->textEdit(); }

void MainWindow::showAbout() {
    AboutDialog dialog(this);
    dialog.exec();
}

}  // namespace reef::ui
