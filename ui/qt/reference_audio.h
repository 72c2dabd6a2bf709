// Loads a reference clip for the codec: any libsndfile format -> mono float at 44.1 kHz
// (reef_audio's load_reference_audio), with the failure as a message instead of an exception.
#pragma once
#include <QString>
#include <vector>

namespace reef::ui {

// Empty result with *error set when the file is missing, unreadable, silent or too long.
std::vector<float> loadMono44k(const QString& path, QString* error, double maxSeconds = 30.0);

}  // namespace reef::ui
