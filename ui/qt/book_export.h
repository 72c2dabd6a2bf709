// A project exported as a finished book: the assembly (qt/project_assembly.h) written as one file
// (FLAC with chapter marks), optionally one file per chapter, and SRT/WebVTT subtitles. Shared by
// the studio's Production dialog and `reef-cli project render`. Every file is written atomically;
// a failure stops there and names the file.
#pragma once
#include <QString>
#include <QStringList>

#include "audio/wav_file.h"
#include "qt/project_assembly.h"

namespace reef::ui {

struct BookExportOptions {
    audio::ExportFormat format = audio::ExportFormat::Flac;
    bool perChapter = false;   // also "001 Title.<ext>", … (the whole book when it has no headings)
    bool srt = false;
    bool vtt = false;
    QString software;          // e.g. "Reef 0.1.0"
    QString comment;           // stored in the files' tags
};

struct BookExportResult {
    QStringList files;               // written, in order
    AssembledProject assembled;
};

// dir must exist; files are named <stem>.<ext>, <stem>.srt, <stem>.vtt, and per chapter
// "001 Title".<ext>/.srt/.vtt (cues timed from the chapter's start). false with *error (and
// result->files listing what was written before the failure).
bool exportBook(const ProjectData& doc, const QString& dir, const QString& stem, const BookExportOptions& options,
                BookExportResult* result, QString* error);

}  // namespace reef::ui
