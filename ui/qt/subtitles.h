// Subtitles for an assembled project: SRT and WebVTT cues from the timeline, one per segment, a
// long segment split at its sentence ends (then clause marks) with the time shared by characters.
// Cue text is what is spoken: pause markup and fish-speech control tags are left out.
#pragma once
#include <QList>
#include <QString>

#include "qt/project_assembly.h"

namespace reef::ui {

struct SubtitleCue {
    qint64 start = 0, end = 0;   // samples in the assembled audio
    QString text;
};

// maxChars: a cue longer than this is split (at least kMinSegmentChars).
QList<SubtitleCue> subtitleCues(const ProjectData& doc, const AssembledProject& assembled, int maxChars = 84);

// "1\n00:00:01,250 --> 00:00:03,000\ntext\n\n" …, times rounded to the millisecond.
QString toSrt(const QList<SubtitleCue>& cues);
// "WEBVTT\n\n00:00:01.250 --> 00:00:03.000\ntext\n\n" …
QString toWebVtt(const QList<SubtitleCue>& cues);

// The cue text of a segment: spoken text without control tags, whitespace collapsed.
QString cueText(const QString& segmentText);

}  // namespace reef::ui
