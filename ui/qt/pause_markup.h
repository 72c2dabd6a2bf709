// Pause markup in a project's text: "[pause 1.5s]", "[pause 500ms]" or "[pause 2]" (seconds), any
// case, 0 to 60 s. The model never reads it (spokenText); the project's assembly puts exactly that
// much silence there. A pause always ends a segment: the segmenter cuts after each one, and an edit
// that puts one inside a segment splits the segment there (ProjectModel::setSegmentText). A pause at
// a segment's start adds to the silence before it.
#pragma once
#include <QList>
#include <QString>
#include <optional>

namespace reef::ui {

inline constexpr double kMaxPauseSeconds = 60.0;

struct PauseMark {
    int start = 0, end = 0;   // [start, end) in the text, UTF-16
    double seconds = 0.0;
};

// Every well-formed mark in order. "[pause 99s]" (over the limit) and "[pause x]" are not marks:
// they stay text, so a typo is heard rather than silently dropped.
QList<PauseMark> findPauses(const QString& text);
// The text without its marks, the spaces around each collapsed to one, trimmed.
QString spokenText(const QString& text);
// The pause that ends / starts the text (only whitespace after / before it), summed when several.
std::optional<double> trailingPause(const QString& text);
std::optional<double> leadingPause(const QString& text);
// UTF-16 positions just after the marks that have spoken text after them: where a segment splits.
QList<int> innerPauseCuts(const QString& text);

}  // namespace reef::ui
