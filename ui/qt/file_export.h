// Files the app writes: takes as WAV/FLAC/Ogg/MP3 (atomic, through reef_audio), bench reports (the
// engine's writers, the same ones reef-cli bench uses) and the first-start demo model.
#pragma once
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "audio/wav_file.h"
#include "reef/bench.h"

namespace reef::ui {

// What an exported file says about itself. Where it goes (the same in every format, UTF-8
// throughout; MP3 in an ID3v2.4 tag, see audio::AudioMetadata):
//   title    -> TITLE    (empty: the first 80 characters of text, on one line)
//   text     -> COMMENT, followed by a blank line and "model: …", "settings: …", "seed: …" lines
//               (settings and seed only when model or settings is set: they describe a take)
//   model    -> ARTIST   (the voice heard is the model's)
//   software -> "Reef <version>", DATE -> today (ISO 8601)
struct AudioExportMeta {
    QString title;
    QString text;
    QString model;
    QString settings;   // e.g. Take::settingsSummary()
    quint64 seed = 0;
};

// The formats the installed libsndfile can write, in menu order (WAV 16-bit first).
QList<reef::audio::ExportFormat> availableExportFormats();
QString exportFormatName(reef::audio::ExportFormat format);     // translated, e.g. "FLAC"
QString exportFormatSuffix(reef::audio::ExportFormat format);   // "wav", "flac", "ogg", "mp3"
// "WAV, 16-bit PCM (*.wav);;WAV, 32-bit float (*.wav);;FLAC (*.flac);;…" for QFileDialog.
QString exportFileFilter();
// The format for a save-dialog answer. A known suffix decides (.wav, .flac, .ogg/.oga, .mp3);
// the selected filter (one entry of exportFileFilter()) chooses between formats sharing the suffix
// (the two WAVs) and decides alone when the path has no known suffix (the caller then appends
// exportFormatSuffix). A known suffix is returned even where the format cannot be written here, so
// that exportAudioFile can say why; nullopt for an unknown suffix without a matching filter.
std::optional<reef::audio::ExportFormat> exportFormatForPath(const QString& path, const QString& selectedFilter = {});
// path with the format's suffix appended when it has none (a save dialog's answer without one).
QString withExportSuffix(const QString& path, reef::audio::ExportFormat format);
// Mono kSampleRate samples into path, atomically; false with *error naming the path and the reason
// (no audio, unwritable folder, a format this libsndfile cannot write, disk full).
bool exportAudioFile(const QString& path, const std::vector<float>& samples, reef::audio::ExportFormat format,
                     const AudioExportMeta& meta, QString* error);

// 16-bit PCM mono 44.1 kHz; false with *error naming the path and reason.
bool exportWav(const QString& path, const std::vector<float>& samples, const QString& title, const QString& comment,
               QString* error);

enum class ReportFormat { Json, Markdown, Csv };
bool exportBenchReport(const BenchReport& report, const QString& path, ReportFormat format, QString* error);
// Picks the format from the suffix (.json, .md, .csv); false for any other suffix.
bool exportBenchReportBySuffix(const BenchReport& report, const QString& path, QString* error);

// The fish-speech PR #1337 report (reef/bench_report.h) at path, with each arm's WAV written into
// "<report name>-wavs/" beside it and linked from the report; false with *error on the first failure.
bool exportPrReport(const BenchReport& report, const QString& path, QString* error);

// The demo model folder under dataDir ("demo-tiny"); writes it (random weights) when missing.
// Returns the folder, or empty with *error set.
QString ensureDemoModel(const QString& dataDir, QString* error);

}  // namespace reef::ui
