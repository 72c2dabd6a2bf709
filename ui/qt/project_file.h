// The project file on disk: <name>.reefproj (JSON) with the takes' audio in a folder beside it.
//
// Version 2 (written now):
//   { "format": "reef-project", "version": 2, "title": "…", "defaultVoice": "…",
//     "audioDir": "<name>.reefproj.d",            // a folder name beside the JSON, no path parts
//     "segments": [ { "id": "…", "text": "…", "voice": "…", "sampling": {…}, "currentTake": 0,
//                     "takes": [ { "id": "…", "created": "<ISO 8601 UTC>", "text": "…", "voice": "…",
//                                  "sampling": {…},
//                                  "metrics": { "frames": 64, "audioSeconds": 2.97,
//                                               "warmFramesPerS": 18.3, "realTimeFactor": 0.85 },
//                                  "audio": "<take id>.wav", "samples": 130944 } ] } ] }
//   Version 4 adds (each optional on reading, defaults as in project.h):
//     root "assembly": { "sentencePauseMs", "clausePauseMs", "paragraphPauseMs", "chapterPauseMs"
//                        (0…60000), "speed" (0.5…2), "trimSilence", "normalize", "targetLufs"
//                        (−40…−5), "ceilingDbtp" (−9…0) }
//     segment "paragraphEnd": true, "chapter": "<title>", "speed": 0.5…2 (absent = the project's)
//     root "cast": { "<speaker>": "<voice id>" }   (speakers: [A-Za-z0-9 _.'’-]{1,64}, letters of any script)
//     root "nameLines": true: "Name: text" lines name speakers too
//     take "codes": "<take id>.codes" (qt/voice_list_model.h's codes file), "modelHash": "sha256:…"
//   "sampling": { "temperature", "topP", "topK", "repetitionPenalty", "maxNewFrames", "chunkLength",
//                 "seed": "<decimal string>" }  (a string: JSON numbers lose 64-bit integers).
//   A segment's "sampling" is absent when it uses the app's settings. Ids are [A-Za-z0-9_-]{1,64}.
//   Audio: 32-bit float WAV, mono 44.1 kHz (lossless), exactly "samples" frames.
// Version 1 (the first layout, still read and migrated; never written):
//   { "format": "reef-project", "version": 1, "title": "…", "segments": [ "text", "text", … ] }
//   Each string becomes a segment without takes and with a new id.
#pragma once
#include <QSet>
#include <QString>
#include <vector>

#include "qt/project.h"

namespace reef::ui {

// 1: texts only; 2: segments with takes, sampling keys in camelCase; 3: the sampling keys and
// ranges of the engine's description (qt/sampling_json.h); 4: the assembly settings and each
// segment's paragraph end, chapter and speed. Older versions are read and migrated.
inline constexpr int kProjectFormatVersion = 4;

struct ProjectFileInfo {
    int version = 0;    // the format version read (1 = migrated)
    QString audioDir;   // absolute path of the folder the takes were read from; empty for version 1
};

// Reads the JSON and every take's audio. false with *error naming the file and the problem:
// unreadable, too large, not JSON (truncated), not a Reef project, a newer version, a missing
// field or a wrong type, a bound exceeded, an audio file missing, broken or of another length.
// *out and *info are written only on success.
bool readProjectFile(const QString& path, ProjectData* out, ProjectFileInfo* info, QString* error);

// Writes each take's audio into audioDirFor(path) (skipping the take ids in alreadyThere, whose
// files exist there unchanged), then the JSON atomically, then removes the take files in that
// folder the new JSON does not name. false with *error on the first failure, before the JSON is
// replaced: the previous project file then still opens with all its audio.
bool writeProjectFile(const QString& path, const ProjectData& data, const QSet<QString>& alreadyThere, QString* error);

// The take ids a project's JSON references, for the model to know what is on disk after a save.
QSet<QString> takeIds(const ProjectData& data);

}  // namespace reef::ui
