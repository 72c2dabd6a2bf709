// Files the app writes: WAV takes (atomic, through reef_audio), bench reports (the engine's writers,
// the same ones reef-cli bench uses) and the first-start demo model.
#pragma once
#include <QString>
#include <QStringList>
#include <vector>

#include "reef/bench.h"

namespace reef::ui {

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
