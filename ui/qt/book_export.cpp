#include "qt/book_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

#include "qt/batch_export.h"
#include "qt/subtitles.h"

namespace reef::ui {
namespace {

struct BookExport {
    Q_DECLARE_TR_FUNCTIONS(BookExport)
};

std::string str(const QString& s) { return s.toStdString(); }

bool writeText(const QString& path, const QString& text, QString* error) {
    QSaveFile f(path);
    const QByteArray bytes = text.toUtf8();
    if (f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit())
        return true;
    if (error)
        *error = BookExport::tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
}

}  // namespace

bool exportBook(const ProjectData& doc, const QString& dirPath, const QString& stem, const BookExportOptions& o,
                BookExportResult* result, QString* error) {
    BookExportResult out;
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        if (result)
            *result = std::move(out);
        return false;
    };
    const QDir dir(dirPath);
    if (!dir.exists())
        return fail(BookExport::tr("cannot export into %1: the folder does not exist").arg(dirPath));
    try {
        out.assembled = assembleProject(doc);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    const AssembledProject& book = out.assembled;
    if (book.audio.empty())
        return fail(BookExport::tr("Nothing to export: no segment of the project has audio yet."));

    const QString suffix = QString::fromLatin1(audio::export_format_suffix(o.format));
    audio::AudioMetadata meta{str(doc.title), str(o.software), str(o.comment)};
    meta.album = str(doc.title);
    for (const AssembledChapter& c : book.chapters)
        meta.chapters.push_back({double(c.start) / kSampleRate, str(c.title)});
    try {
        const QString whole = dir.filePath(stem + QLatin1Char('.') + suffix);
        audio::write_audio(str(whole), book.audio, kSampleRate, 1, o.format, meta);
        out.files << whole;
        if (o.perChapter) {
            const QList<AssembledChapter> chapters =
                book.chapters.isEmpty() ? QList<AssembledChapter>{{doc.title, 0, 0, qint64(book.audio.size())}}
                                        : book.chapters;
            for (qsizetype k = 0; k < chapters.size(); ++k) {
                const AssembledChapter& c = chapters[k];
                const std::vector<float> part(book.audio.begin() + c.start, book.audio.begin() + c.end);
                audio::AudioMetadata m{str(c.title), meta.software, meta.comment};
                m.album = meta.album;
                const QString file = dir.filePath(numberedFileStem(int(k) + 1, c.title) + QLatin1Char('.') + suffix);
                audio::write_audio(str(file), part, kSampleRate, 1, o.format, m);
                out.files << file;
            }
        }
    } catch (const audio::AudioError& e) {
        return fail(QString::fromStdString(e.what()));
    }
    if (o.srt || o.vtt) {
        // The book's cues, and with per-chapter files each chapter's own, timed from its start.
        const QList<SubtitleCue> cues = subtitleCues(doc, book);
        QList<std::pair<QString, QList<SubtitleCue>>> sets{{stem, cues}};
        if (o.perChapter)
            for (qsizetype k = 0; k < book.chapters.size(); ++k) {
                const AssembledChapter& c = book.chapters[k];
                QList<SubtitleCue> own;
                for (const SubtitleCue& cue : cues)
                    if (cue.start >= c.start && cue.start < c.end)
                        own.append({cue.start - c.start, std::min(cue.end, c.end) - c.start, cue.text});
                sets.append({numberedFileStem(int(k) + 1, c.title), own});
            }
        const std::pair<bool, QString> kinds[] = {{o.srt, QStringLiteral(".srt")}, {o.vtt, QStringLiteral(".vtt")}};
        for (const auto& [name, set] : sets)
            for (const auto& [want, ext] : kinds) {
                if (!want)
                    continue;
                const QString file = dir.filePath(name + ext);
                if (!writeText(file, ext == QStringLiteral(".srt") ? toSrt(set) : toWebVtt(set), error))
                    return fail(*error);
                out.files << file;
            }
    }
    if (result)
        *result = std::move(out);
    return true;
}

}  // namespace reef::ui
