// The main window's studio side: the project (segments, their takes, its file), the generation
// queue both the Synthesis tab and the project go through, the takes' history on disk and the
// pronunciation dictionary applied to every text before it reaches the engine.
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>

#include "qt/batch_export.h"
#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/pronunciation_dictionary.h"
#include "qt/settings.h"
#include "qt/synthesis_queue.h"
#include "qt/take_history.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "widgets/banner.h"
#include "widgets/dictionary_dialog.h"
#include "widgets/main_window.h"
#include "widgets/project_view.h"
#include "widgets/synthesis_panel.h"

namespace reef::ui {
namespace {

// What a queue item is for, carried in its tag (the queue hands it back with the result).
const QString kKind = QStringLiteral("kind");
const QString kSegment = QStringLiteral("segment");
const QString kTake = QStringLiteral("take");

QString firstWords(const QString& text) {
    const QString t = text.simplified();
    return t.size() > 60 ? t.left(59) + QStringLiteral("…") : t;
}

}  // namespace

// --- generating ---------------------------------------------------------------------------------

quint64 MainWindow::enqueue(const QString& text, const QString& voiceId, const SamplingParams& sampling,
                            QVariantMap tag) {
    SynthesisRequest r;
    // The dictionary's replacements are what the model reads; the take keeps the text as written.
    r.text = m_dictionary->apply(text).toStdString();
    r.sampling = sampling;
    r.stream_chunk_frames = m_settings.streamChunkFrames();
    QString voiceName;
    if (const int row = voiceId.isEmpty() ? -1 : m_voices.rowOfId(voiceId); row >= 0) {
        r.references.push_back(m_voices.reference(row));
        voiceName = m_voices.voice(row).name;
    }
    tag.insert(QStringLiteral("text"), text);
    tag.insert(QStringLiteral("voiceId"), voiceId);
    tag.insert(QStringLiteral("voiceName"), voiceName);
    return m_queue->enqueue(firstWords(text), std::move(r), tag);
}

void MainWindow::generateSegments(const QList<int>& rows) {
    for (int row : rows) {
        if (row < 0 || row >= m_project->segmentCount())
            continue;
        const Segment& s = m_project->segment(row);
        QVariantMap tag{{kKind, kSegment}, {QStringLiteral("segmentId"), s.id}};
        enqueue(s.text, m_project->effectiveVoice(row), s.sampling.value_or(m_settings.sampling()), tag);
    }
}

void MainWindow::onQueueItemStarted(quint64 id, const QVariant& tag) {
    const QueueItem* item = m_queue->item(id);
    if (!item)
        return;
    m_lastRequest = item->request;
    const QString original = tag.toMap().value(QStringLiteral("text")).toString();
    if (QString::fromStdString(item->request.text) != original)
        statusBar()->showMessage(tr("Pronunciation dictionary: spoken as “%1”")
                                     .arg(firstWords(QString::fromStdString(item->request.text))),
                                 8000);
}

void MainWindow::onQueueItemFinished(quint64 id, const QVariant& tag, const SynthesisResult& result) {
    const QueueItem* item = m_queue->item(id);
    if (!item)
        return;
    const QVariantMap t = tag.toMap();
    const QString text = t.value(QStringLiteral("text")).toString();
    if (t.value(kKind) == kSegment) {
        SegmentTake take = takeFromResult(item->request, result, t.value(QStringLiteral("voiceId")).toString());
        take.text = text;   // as written: the request's is the dictionary's spoken form
        const QString segmentId = t.value(QStringLiteral("segmentId")).toString();
        if (!m_project->addTake(segmentId, std::move(take)))
            statusBar()->showMessage(tr("A segment was deleted while it was being generated; its audio was dropped."), 8000);
        const int row = m_project->rowForId(segmentId);
        m_synthesis->finishProgress(tr("Segment %1 done: %2 frames, %3 s of audio")
                                        .arg(row + 1)
                                        .arg(result.metrics.frames)
                                        .arg(result.metrics.audio_seconds, 0, 'f', 1));
        return;
    }
    Take take;
    take.created = QDateTime::currentDateTime();
    take.text = text;
    take.voice = t.value(QStringLiteral("voiceName")).toString();
    take.modelName = QString::fromStdString(m_engine.modelInfo().name);
    take.config = m_settings.engineConfig();
    take.sampling = item->request.sampling;
    take.metrics = result.metrics;
    take.audio = result.audio;
    const QString summary = take.statsSummary();
    const QString attention = take.backendSummary();
    m_takes->addTake(std::move(take));
    // Second line: which SDPA backend ran at each attention call site (also in the take's tooltip).
    m_lastAttention = attention;
    m_synthesis->finishProgress(tr("Done (%1): %2").arg(QString::fromStdString(result.metrics.stop_reason), summary) +
                                (attention.isEmpty() ? QString() : QStringLiteral("\n") + attention));
}

void MainWindow::reuseTakeSettings(int row) {
    if (row < 0 || row >= m_takes->rowCount())
        return;
    const Take& take = m_takes->take(row);
    applyTakeSettings(take, m_settings);
    // The voice too, when the library still has one of that name.
    for (int r = 0; r < m_voices.rowCount(); ++r)
        if (m_voices.voice(r).name == take.voice)
            m_synthesis->voiceCombo()->setCurrentIndex(m_synthesis->voiceCombo()->findData(m_voices.voice(r).id));
    if (take.voice.isEmpty())
        m_synthesis->voiceCombo()->setCurrentIndex(0);
    statusBar()->showMessage(tr("Settings of take %1 are now the current ones (seed %2).").arg(take.number).arg(take.sampling.seed), 6000);
}

// --- the project file ---------------------------------------------------------------------------

bool MainWindow::maybeSaveProject() {
    if (!m_project->isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved project"), tr("The project “%1” has changes that are not saved. Save them first?")
                                         .arg(m_project->title().isEmpty() ? tr("Untitled project") : m_project->title()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || saveProjectInteractive(false);
}

void MainWindow::newProject() {
    if (!maybeSaveProject())
        return;
    m_project->newProject(QString(), QString(), SplitMode::Sentences);
    m_tabs->setCurrentWidget(m_projectView);
    updateTitle();
}

bool MainWindow::openProject(const QString& path, QString* error) {
    QString why;
    if (!m_project->load(path, &why)) {
        statusBar()->showMessage(why, 10000);
        if (error)
            *error = why;
        return false;
    }
    m_tabs->setCurrentWidget(m_projectView);
    statusBar()->showMessage(tr("Opened the project %1").arg(QDir::toNativeSeparators(path)), 5000);
    updateTitle();
    return true;
}

bool MainWindow::saveProject(const QString& path, QString* error) {
    QString why;
    if (!m_project->save(path, &why)) {
        why = tr("The project was not saved: %1").arg(why);
        statusBar()->showMessage(why, 10000);
        if (error)
            *error = why;
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    updateTitle();
    return true;
}

void MainWindow::openProjectInteractive() {
    if (!maybeSaveProject())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a project"), m_dataDir,
                                                      tr("Reef projects (*.reefproj);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openProject(path, &error))
        QMessageBox::warning(this, tr("Cannot open the project"), error);
}

bool MainWindow::saveProjectInteractive(bool saveAs) {
    QString path = m_project->filePath();
    if (saveAs || path.isEmpty()) {
        const QString suggested = (m_project->title().isEmpty() ? tr("Untitled project") : m_project->title()) +
                                  QStringLiteral(".reefproj");
        path = QFileDialog::getSaveFileName(this, tr("Save the project"), QDir(m_dataDir).filePath(suggested),
                                            tr("Reef projects (*.reefproj)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(QLatin1String(".reefproj")))
            path += QStringLiteral(".reefproj");
    }
    QString error;
    if (saveProject(path, &error))
        return true;
    QMessageBox::warning(this, tr("Cannot save the project"), error);
    return false;
}

void MainWindow::updateTitle() {
    const bool hasProject = m_project->segmentCount() > 0 || !m_project->filePath().isEmpty();
    if (!hasProject) {
        setWindowTitle(QStringLiteral("Reef"));
        setWindowModified(false);
        return;
    }
    const QString name = !m_project->filePath().isEmpty() ? QFileInfo(m_project->filePath()).completeBaseName()
                         : m_project->title().isEmpty()  ? tr("Untitled project")
                                                         : m_project->title();
    setWindowTitle(QStringLiteral("%1[*] — Reef").arg(name));
    setWindowModified(m_project->isModified());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (maybeSaveProject())
        event->accept();
    else
        event->ignore();
}

// --- playing and exporting ----------------------------------------------------------------------

void MainWindow::playClip(const std::vector<float>& samples) {
    if (samples.empty()) {
        statusBar()->showMessage(tr("Nothing to play yet: generate it first."), 5000);
        return;
    }
    m_playback.setClip(samples);
    m_playback.play();
}

std::optional<audio::ExportFormat> MainWindow::askFormat(const QString& title) {
    const QList<audio::ExportFormat> formats = availableExportFormats();
    QStringList names;
    for (audio::ExportFormat f : formats)
        names << exportFormatName(f);
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, title, tr("Format:"), names, 0, false, &ok);
    const qsizetype i = names.indexOf(choice);
    if (!ok || i < 0)
        return std::nullopt;
    return formats[i];
}

bool MainWindow::exportProjectTo(const QString& path, audio::ExportFormat format, QString* error) {
    QString why;
    if (exportProjectAudio(*m_project, path, format, m_projectView->crossfadeMs(),
                           QString::fromStdString(m_engine.modelInfo().name), &why)) {
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
        return true;
    }
    statusBar()->showMessage(why, 10000);
    if (error)
        *error = why;
    return false;
}

QStringList MainWindow::exportSegmentsTo(const QString& dir, audio::ExportFormat format, QString* error) {
    QString why;
    QList<int> skipped;
    const QStringList files = exportProjectSegments(*m_project, dir, format,
                                                    QString::fromStdString(m_engine.modelInfo().name), &why, &skipped);
    if (files.isEmpty()) {
        statusBar()->showMessage(why, 10000);
        if (error)
            *error = why;
        return {};
    }
    statusBar()->showMessage(tr("Wrote %n file(s) to %1", nullptr, int(files.size())).arg(QDir::toNativeSeparators(dir)) +
                                 (skipped.isEmpty() ? QString() : tr("; %n segment(s) without audio skipped", nullptr, int(skipped.size()))),
                             8000);
    return files;
}

void MainWindow::exportProjectInteractive() {
    const QString base = m_project->title().isEmpty() ? tr("Untitled project") : m_project->title();
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the project"), QDir(m_dataDir).filePath(base),
                                                exportFileFilter(), &filter);
    if (path.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = exportFormatForPath(path, filter);
    if (!format) {
        QMessageBox::warning(this, tr("Export failed"), tr("Unknown audio format for %1.").arg(path));
        return;
    }
    path = withExportSuffix(path, *format);
    QString error;
    if (!exportProjectTo(path, *format, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportSegmentsInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export each segment into a folder"), m_dataDir);
    if (dir.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = askFormat(tr("Export segments"));
    QString error;
    if (format && exportSegmentsTo(dir, *format, &error).isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportAllTakesInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export every take into a folder"), m_dataDir);
    if (dir.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = askFormat(tr("Export all takes"));
    if (!format)
        return;
    QString error;
    const QStringList files = exportAllTakes(*m_takes, dir, *format, &error);
    if (files.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %n file(s) to %1", nullptr, int(files.size())).arg(QDir::toNativeSeparators(dir)), 8000);
}

// --- history and dictionary on disk -------------------------------------------------------------

void MainWindow::openDataDir(const QString& dataDir) {
    m_dataDir = dataDir;
    m_history = std::make_unique<TakeHistory>(QDir(dataDir).filePath(QStringLiteral("history")), *m_takes,
                                              qint64(m_settings.historyLimitMb()) << 20);
    connect(m_history.get(), &TakeHistory::warning, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(&m_settings, &Settings::historyLimitMbChanged, m_history.get(),
            [this](int mb) { m_history->setLimitBytes(qint64(mb) << 20); });
    QString error;
    if (!m_history->load(&error))
        m_banner->showMessage(tr("<b>The take history could not be read.</b> %1<br>New takes are saved; the old "
                                 "index is kept aside, not deleted.").arg(error.toHtmlEscaped()),
                              Banner::Kind::Error);

    const QString dictionary = QDir(dataDir).filePath(QStringLiteral("dictionary.json"));
    if (QFileInfo::exists(dictionary) && !m_dictionary->load(dictionary, &error))
        statusBar()->showMessage(tr("Pronunciation dictionary not loaded: %1").arg(error), 10000);
    connect(m_dictionary, &PronunciationDictionary::changed, this, [this, dictionary] {
        QString why;
        if (!m_dictionary->save(dictionary, &why))
            statusBar()->showMessage(tr("Pronunciation dictionary not saved: %1").arg(why), 10000);
    });
}

void MainWindow::showDictionary() {
    DictionaryDialog dialog(*m_dictionary, this);
    dialog.exec();
}

}  // namespace reef::ui
