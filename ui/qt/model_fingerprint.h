// A model folder's content fingerprint, stored with each take so a project can say which takes a
// different model made. SHA-256 over every file's relative name and size, config.json whole, and
// 16 evenly spread 64 KiB samples of each other file (all of a file under 1 MiB): a few MB read for
// S2-Pro's ~9 GB, not all of it, and any re-training, quantizing or swapped file changes it.
#pragma once
#include <QString>

namespace reef::ui {

// "sha256:<32 hex digits>"; empty when the folder cannot be read. Cached per folder, size and
// modification times, so asking again for a loaded model costs a directory listing.
QString modelFingerprint(const QString& modelDir);

}  // namespace reef::ui
