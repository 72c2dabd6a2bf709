// StudioController: the project file (new, open, save, its name) and every export (the project,
// its segments, the takes, one take or the player's clip). Errors are values and status lines;
// the dialogs that ask for paths are the window's.
#include <QDir>
#include <QFileInfo>

#include "qt/batch_export.h"
#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/studio_controller.h"
#include "qt/takes_model.h"

namespace reef::ui {

void StudioController::fail(const QString& why, QString* error) {
    Q_EMIT statusMessage(why, 10000);
    if (error)
        *error = why;
}

// --- the project file ---------------------------------------------------------------------------

void StudioController::newProject() {
    m_project->newProject(QString(), QString(), SplitMode::Sentences);
    Q_EMIT documentChanged();
}

bool StudioController::openProject(const QString& path, QString* error) {
    QString why;
    if (!m_project->load(path, &why)) {
        fail(why, error);
        return false;
    }
    Q_EMIT statusMessage(tr("Opened the project %1").arg(QDir::toNativeSeparators(path)), 5000);
    Q_EMIT documentChanged();
    return true;
}

bool StudioController::saveProject(const QString& path, QString* error) {
    QString why;
    if (!m_project->save(path, &why)) {
        fail(tr("The project was not saved: %1").arg(why), error);
        return false;
    }
    Q_EMIT statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    Q_EMIT documentChanged();
    return true;
}

QString StudioController::documentName() const {
    if (!m_project->filePath().isEmpty())
        return QFileInfo(m_project->filePath()).completeBaseName();
    if (m_project->segmentCount() == 0)
        return {};
    return m_project->title().isEmpty() ? tr("Untitled project") : m_project->title();
}

bool StudioController::isModified() const { return m_project->isModified(); }

QString StudioController::suggestedProjectFileName() const {
    return (m_project->title().isEmpty() ? tr("Untitled project") : m_project->title()) + QStringLiteral(".reefproj");
}

// --- exporting ----------------------------------------------------------------------------------

bool StudioController::exportProjectTo(const QString& path, audio::ExportFormat format, int crossfadeMs,
                                       QString* error) {
    QString why;
    if (!exportProjectAudio(*m_project, path, format, crossfadeMs, QString::fromStdString(m_engine.modelInfo().name),
                            &why)) {
        fail(why, error);
        return false;
    }
    Q_EMIT statusMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

QStringList StudioController::exportSegmentsTo(const QString& dir, audio::ExportFormat format, QString* error) {
    QString why;
    QList<int> skipped;
    const QStringList files = exportProjectSegments(*m_project, dir, format,
                                                    QString::fromStdString(m_engine.modelInfo().name), &why, &skipped);
    if (files.isEmpty()) {
        fail(why, error);
        return {};
    }
    Q_EMIT statusMessage(
        tr("Wrote %n file(s) to %1", nullptr, int(files.size())).arg(QDir::toNativeSeparators(dir)) +
            (skipped.isEmpty() ? QString() : tr("; %n segment(s) without audio skipped", nullptr, int(skipped.size()))),
        8000);
    return files;
}

QStringList StudioController::exportAllTakesTo(const QString& dir, audio::ExportFormat format, QString* error) {
    QString why;
    const QStringList files = exportAllTakes(*m_takes, dir, format, &why);
    if (files.isEmpty()) {
        fail(why, error);
        return {};
    }
    Q_EMIT statusMessage(tr("Wrote %n file(s) to %1", nullptr, int(files.size())).arg(QDir::toNativeSeparators(dir)), 8000);
    return files;
}

namespace {

// The format a path (and the save dialog's filter) names, or nullopt with the reason in *error.
std::optional<audio::ExportFormat> exportFormatOrError(const QString& path, const QString& filter, QString* error) {
    const std::optional<audio::ExportFormat> format = exportFormatForPath(path, filter);
    if (!format && error)
        *error = StudioController::tr("unknown audio format (use .wav, .flac, .ogg or .mp3)");
    return format;
}

}  // namespace

bool StudioController::exportClip(const QString& path, const QString& text, QString* error,
                                  const QString& selectedFilter) {
    const std::optional<audio::ExportFormat> format = exportFormatOrError(path, selectedFilter, error);
    if (!format)
        return false;
    AudioExportMeta meta;
    meta.text = text;
    meta.model = QString::fromStdString(m_engine.modelInfo().name);
    return exportAudioFile(path, m_playback.samples(), *format, meta, error);
}

bool StudioController::exportTake(int row, const QString& path, QString* error, const QString& selectedFilter) {
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

bool StudioController::exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter,
                                const QString& clipText) {
    QString why;
    const bool ok = takeRow >= 0 ? exportTake(takeRow, path, &why, selectedFilter)
                                 : exportClip(path, clipText, &why, selectedFilter);
    if (ok) {
        Q_EMIT statusMessage(tr("Wrote %1").arg(path), 5000);
        return true;
    }
    // Exports write a temp file and rename it, so a failure leaves no partial file behind.
    fail(tr("Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it "
            "to another folder.").arg(QDir::toNativeSeparators(path), why),
         error);
    return false;
}

}  // namespace reef::ui
