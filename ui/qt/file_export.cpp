#include "qt/file_export.h"

#include <QCoreApplication>
#include <QDate>
#include <QDir>
#include <QFileInfo>

#include "audio/wav_file.h"
#include "qt/engine_types_qt.h"
#include "reef/bench_report.h"
#include "reef/engine.h"

namespace reef::ui {

using audio::ExportFormat;

namespace {

constexpr ExportFormat kAllFormats[] = {ExportFormat::WavPcm16, ExportFormat::WavFloat, ExportFormat::Flac,
                                        ExportFormat::OggVorbis, ExportFormat::Mp3};

QString filterEntry(ExportFormat f) {
    QString globs = QStringLiteral("*.") + exportFormatSuffix(f);
    if (f == ExportFormat::OggVorbis)
        globs += QStringLiteral(" *.oga");
    return QStringLiteral("%1 (%2)").arg(exportFormatName(f), globs);
}

std::optional<ExportFormat> formatForSuffix(const QString& suffix) {
    if (suffix == QLatin1String("wav"))
        return ExportFormat::WavPcm16;
    if (suffix == QLatin1String("flac"))
        return ExportFormat::Flac;
    if (suffix == QLatin1String("ogg") || suffix == QLatin1String("oga"))
        return ExportFormat::OggVorbis;
    if (suffix == QLatin1String("mp3"))
        return ExportFormat::Mp3;
    return std::nullopt;
}

std::string commentFor(const AudioExportMeta& meta) {
    QStringList lines;
    if (!meta.model.isEmpty())
        lines << QStringLiteral("model: ") + meta.model;
    if (!meta.settings.isEmpty())
        lines << QStringLiteral("settings: ") + meta.settings;
    if (!meta.model.isEmpty() || !meta.settings.isEmpty())
        lines << QStringLiteral("seed: ") + QString::number(meta.seed);
    QString comment = meta.text;
    if (!lines.isEmpty())
        comment += (comment.isEmpty() ? QString() : QStringLiteral("\n\n")) + lines.join(QLatin1Char('\n'));
    return comment.toStdString();
}

}  // namespace

QList<ExportFormat> availableExportFormats() {
    QList<ExportFormat> out;
    for (ExportFormat f : audio::available_export_formats())
        out << f;
    return out;
}

QString exportFormatName(ExportFormat format) {
    switch (format) {
    case ExportFormat::WavPcm16: return QCoreApplication::translate("reef::ui::FileExport", "WAV, 16-bit PCM");
    case ExportFormat::WavFloat: return QCoreApplication::translate("reef::ui::FileExport", "WAV, 32-bit float");
    case ExportFormat::Flac: return QCoreApplication::translate("reef::ui::FileExport", "FLAC");
    case ExportFormat::OggVorbis: return QCoreApplication::translate("reef::ui::FileExport", "Ogg Vorbis");
    case ExportFormat::Mp3: return QCoreApplication::translate("reef::ui::FileExport", "MP3");
    }
    return {};
}

QString exportFormatSuffix(ExportFormat format) { return QLatin1String(audio::export_format_suffix(format)); }

QString exportFileFilter() {
    QStringList entries;
    for (ExportFormat f : availableExportFormats())
        entries << filterEntry(f);
    return entries.join(QStringLiteral(";;"));
}

std::optional<ExportFormat> exportFormatForPath(const QString& path, const QString& selectedFilter) {
    std::optional<ExportFormat> byFilter;
    for (ExportFormat f : kAllFormats)
        if (!selectedFilter.isEmpty() && selectedFilter == filterEntry(f))
            byFilter = f;
    const std::optional<ExportFormat> bySuffix = formatForSuffix(QFileInfo(path).suffix().toLower());
    if (!bySuffix)
        return byFilter;
    if (byFilter && exportFormatSuffix(*byFilter) == exportFormatSuffix(*bySuffix))
        return byFilter;   // the two WAVs
    return bySuffix;
}

QString withExportSuffix(const QString& path, audio::ExportFormat format) {
    return QFileInfo(path).suffix().isEmpty() ? path + QLatin1Char('.') + exportFormatSuffix(format) : path;
}

bool exportAudioFile(const QString& path, const std::vector<float>& samples, ExportFormat format,
                     const AudioExportMeta& meta, QString* error) {
    if (samples.empty()) {
        if (error)
            *error = QCoreApplication::translate("reef::ui::FileExport", "nothing to export to %1: the take has no audio")
                         .arg(path);
        return false;
    }
    try {
        audio::AudioMetadata m;
        m.title = (meta.title.isEmpty() ? meta.text.simplified().left(80) : meta.title.left(200)).toStdString();
        m.software = "Reef " REEF_VERSION;
        m.comment = commentFor(meta);
        m.artist = meta.model.toStdString();
        m.date = QDate::currentDate().toString(Qt::ISODate).toStdString();
        audio::write_audio(path.toStdString(), samples, kSampleRate, 1, format, m);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool exportWav(const QString& path, const std::vector<float>& samples, const QString& title, const QString& comment,
               QString* error) {
    if (samples.empty()) {
        if (error)
            *error = QCoreApplication::translate("reef::ui::FileExport", "nothing to export: the take has no audio");
        return false;
    }
    try {
        audio::WavMetadata meta;
        meta.title = title.left(200).toStdString();
        meta.software = "Reef " REEF_VERSION;
        meta.comment = comment.toStdString();
        audio::write_wav(path.toStdString(), samples, kSampleRate, 1, audio::WavFormat::Pcm16, meta);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool exportBenchReport(const BenchReport& report, const QString& path, ReportFormat format, QString* error) {
    const std::string p = path.toStdString();
    Status s = format == ReportFormat::Json       ? write_bench_json(report, p)
               : format == ReportFormat::Markdown ? write_bench_markdown(report, p)
                                                  : write_bench_csv(report, p);
    if (!s.ok() && error)
        *error = errorText(s.error());
    return s.ok();
}

bool exportBenchReportBySuffix(const BenchReport& report, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json"))
        return exportBenchReport(report, path, ReportFormat::Json, error);
    if (suffix == QLatin1String("md"))
        return exportBenchReport(report, path, ReportFormat::Markdown, error);
    if (suffix == QLatin1String("csv"))
        return exportBenchReport(report, path, ReportFormat::Csv, error);
    if (error)
        *error = QStringLiteral("unknown report format '.%1' (use .json, .md or .csv)").arg(suffix);
    return false;
}

bool exportPrReport(const BenchReport& report, const QString& path, QString* error) {
    const QFileInfo info(path);
    const QString wavDirName = info.completeBaseName() + QStringLiteral("-wavs");
    const QString wavDir = info.dir().filePath(wavDirName);
    bool anyAudio = false;
    for (const ArmResult& a : report.arms)
        anyAudio = anyAudio || (a.ran && !a.audio.empty());
    if (anyAudio && !QDir().mkpath(wavDir)) {
        if (error)
            *error = QCoreApplication::translate("reef::ui::FileExport", "cannot create %1").arg(wavDir);
        return false;
    }
    for (const ArmResult& a : report.arms) {
        if (!a.ran || a.audio.empty())
            continue;
        QString name = QString::fromStdString(a.arm.name());
        name.replace(QLatin1Char(':'), QLatin1Char('_'));   // the same file names reef-cli bench --wav-dir writes
        if (!exportWav(QDir(wavDir).filePath(name + QStringLiteral(".wav")), a.audio,
                       QStringLiteral("Reef bench ") + QString::fromStdString(a.arm.name()), QStringLiteral("Reef"), error))
            return false;
    }
    PrReportOptions options;
    options.wav_dir = anyAudio ? wavDirName.toStdString() : std::string();
    const Status s = write_bench_pr_report(report, options, path.toStdString());
    if (!s.ok() && error)
        *error = errorText(s.error());
    return s.ok();
}

QString ensureDemoModel(const QString& dataDir, QString* error) {
    const QString dir = QDir(dataDir).filePath(QStringLiteral("demo-tiny"));
    // write_demo_model renames a finished temp folder into place, so an existing folder is complete.
    if (QFileInfo(dir).isDir() && !QDir(dir).isEmpty())
        return dir;
    QDir().mkpath(dataDir);
    const Status s = write_demo_model(dir.toStdString(), "tiny", "s2");
    if (!s.ok()) {
        if (error)
            *error = errorText(s.error());
        return {};
    }
    return dir;
}

}  // namespace reef::ui
