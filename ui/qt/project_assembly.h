// A project's current takes made into one piece of audio for export: each take trimmed of its own
// silence and tempo-changed, the silence between segments chosen by what ends them (pause markup,
// a chapter, a paragraph, a sentence, a clause), and the whole normalised to a loudness target.
// Re-assembling never calls the engine: it works on the takes' stored samples.
#pragma once
#include <QList>
#include <QString>
#include <vector>

#include "audio/loudness.h"
#include "qt/project.h"

namespace reef::ui {

// What ends a segment, for the pause after it.
enum class Joint { Word, Clause, Sentence, Paragraph, Chapter };
Joint jointAfter(const ProjectData& doc, int row);   // row's text and flags, the next row's chapter

// The silence between row and the next segment with audio, `next` (> row), in samples: pause
// markup at the end of row and at the start of next when present (summed), else the joint's pause.
qint64 pauseSamples(const ProjectData& doc, int row, int next);

struct AssembledChapter {
    QString title;
    int firstRow = 0;
    qint64 start = 0, end = 0;   // samples [start, end); neighbours meet halfway through the pause
};

struct AssembledProject {
    std::vector<float> audio;          // mono, kSampleRate
    QList<RenderedSpan> spans;         // each take as placed: after trimming and tempo, silence between
    QList<AssembledChapter> chapters;  // empty when the project has no chapter headings
    bool normalized = false;
    audio::NormalizeReport loudness;   // when normalized
};

// Segments without audio are left out. Throws audio::AudioError when the assembly settings are
// out of range (speed, loudness).
AssembledProject assembleProject(const ProjectData& doc);

// The assembled audio's loudness: the normaliser's last measurement, or measured now.
audio::Loudness assembledLoudness(const AssembledProject& book);

// A take's samples without their leading and trailing silence (below −50 dBFS), keeping 10 ms on
// each side; a take that is silence throughout comes back unchanged.
std::vector<float> trimmedTake(const std::vector<float>& audio);

}  // namespace reef::ui
