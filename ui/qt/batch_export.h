// Writing many clips at once: a whole project as one file, one file per project segment, or every
// take. Each file is written atomically (exportAudioFile); a failure stops the batch and names the
// file, and the files already written stay (they are complete).
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

#include "audio/wav_file.h"

namespace reef::ui {

class ProjectModel;
class TakesModel;

// "003 The first few words" from a running number and a text: no path separators or characters
// that Windows or macOS refuse, at most ~40 characters of text, never empty.
QString numberedFileStem(int number, const QString& text);
// The same words without the number; empty when nothing of the text is left.
QString safeFileStem(const QString& text);

// The current takes in order with crossfadeMs crossfades (ProjectModel::renderProject) into path;
// false with *error when no segment has audio or the file cannot be written.
bool exportProjectAudio(const ProjectModel& project, const QString& path, audio::ExportFormat format, int crossfadeMs,
                        const QString& model, QString* error);

// One file per segment with audio into dir, named numberedFileStem(row + 1, text).<suffix>; the
// rows without audio go to *skipped. Returns the files written; empty with *error on failure.
QStringList exportProjectSegments(const ProjectModel& project, const QString& dir, audio::ExportFormat format,
                                  const QString& model, QString* error, QList<int>* skipped = nullptr);

// Every take in the model into dir, named numberedFileStem(take number, text).<suffix>.
QStringList exportAllTakes(const TakesModel& takes, const QString& dir, audio::ExportFormat format, QString* error);

}  // namespace reef::ui
