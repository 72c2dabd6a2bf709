#include "qt/batch_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>

#include "qt/file_export.h"
#include "qt/project.h"
#include "qt/takes_model.h"

namespace reef::ui {
namespace {

struct BatchExport {
    Q_DECLARE_TR_FUNCTIONS(BatchExport)
};

bool ensureDir(const QString& dir, QString* error) {
    if (QDir().mkpath(dir))
        return true;
    if (error)
        *error = BatchExport::tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(dir));
    return false;
}

}  // namespace

QString safeFileStem(const QString& text) {
    static const QRegularExpression unsafe(QStringLiteral("[\\\\/:*?\"<>|\\x00-\\x1f<>]|<\\|[^|]*\\|>"));
    QString words = text.simplified();
    words.replace(unsafe, QStringLiteral(" "));
    words = words.simplified();
    if (words.size() > 40) {
        words.truncate(40);
        if (words.at(words.size() - 1).isHighSurrogate())
            words.chop(1);
        const int space = words.lastIndexOf(QLatin1Char(' '));
        if (space > 20)
            words.truncate(space);
    }
    while (words.endsWith(QLatin1Char('.')) || words.endsWith(QLatin1Char(' ')))
        words.chop(1);   // Windows drops trailing dots and spaces
    return words;
}

QString numberedFileStem(int number, const QString& text) {
    const QString words = safeFileStem(text);
    const QString n = QStringLiteral("%1").arg(number, 3, 10, QLatin1Char('0'));
    return words.isEmpty() ? n : n + QLatin1Char(' ') + words;
}

bool exportProjectAudio(const ProjectModel& project, const QString& path, audio::ExportFormat format, int crossfadeMs,
                        const QString& model, QString* error) {
    const std::vector<float> samples = project.renderProject(crossfadeMs);
    if (samples.empty()) {
        if (error)
            *error = BatchExport::tr("Nothing to export: no segment of the project has audio yet.");
        return false;
    }
    AudioExportMeta meta;
    meta.title = project.title().isEmpty() ? BatchExport::tr("Reef project") : project.title();
    QStringList texts;
    for (int r = 0; r < project.segmentCount(); ++r)
        if (project.segment(r).hasAudio())
            texts << project.segment(r).text;
    meta.text = texts.join(QLatin1Char(' '));
    meta.model = model;
    return exportAudioFile(path, samples, format, meta, error);
}

QStringList exportProjectSegments(const ProjectModel& project, const QString& dir, audio::ExportFormat format,
                                  const QString& model, QString* error, QList<int>* skipped) {
    QStringList written;
    if (!ensureDir(dir, error))
        return {};
    for (int r = 0; r < project.segmentCount(); ++r) {
        const Segment& s = project.segment(r);
        if (!s.hasAudio()) {
            if (skipped)
                skipped->append(r);
            continue;
        }
        const SegmentTake& take = s.takes[size_t(s.currentTake)];
        const QString path = QDir(dir).filePath(numberedFileStem(r + 1, s.text) + QLatin1Char('.') + exportFormatSuffix(format));
        AudioExportMeta meta;
        meta.title = (project.title().isEmpty() ? QString() : project.title() + QStringLiteral(" — ")) +
                     BatchExport::tr("segment %1").arg(r + 1);
        meta.text = take.text;
        meta.model = model;
        meta.seed = take.sampling.seed;
        if (!exportAudioFile(path, take.audio, format, meta, error))
            return {};
        written << path;
    }
    if (written.isEmpty() && error)
        *error = BatchExport::tr("Nothing to export: no segment of the project has audio yet.");
    return written;
}

QStringList exportAllTakes(const TakesModel& takes, const QString& dir, audio::ExportFormat format, QString* error) {
    QStringList written;
    if (!ensureDir(dir, error))
        return {};
    for (int r = 0; r < takes.rowCount(); ++r) {
        const Take& t = takes.take(r);
        const QString path = QDir(dir).filePath(numberedFileStem(t.number, t.text) + QLatin1Char('.') + exportFormatSuffix(format));
        AudioExportMeta meta;
        meta.text = t.text;
        meta.model = t.modelName;
        meta.settings = t.settingsSummary();
        meta.seed = t.sampling.seed;
        if (!exportAudioFile(path, t.audio, format, meta, error))
            return {};
        written << path;
    }
    if (written.isEmpty() && error)
        *error = BatchExport::tr("Nothing to export: there are no takes.");
    return written;
}

}  // namespace reef::ui
