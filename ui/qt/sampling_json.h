// The sampling settings as JSON, for the project file and the take history: one mapping, its keys
// and ranges from the engine's description (reef/sampling_settings.h), so a file can hold only
// what the engine runs. The seed is a decimal string (JSON numbers are doubles: a 64-bit seed
// would lose its low bits).
#pragma once
#include <QJsonObject>
#include <QString>

#include "reef/engine_types.h"

namespace reef::ui {

QJsonObject samplingToJson(const SamplingParams& p);

// Which keys a file uses: the engine's ("top_p"), or the camelCase ones ("topP") of project files
// of format version 2, read for migration.
enum class SamplingKeys { Engine, LegacyCamelCase };

// Reads what samplingToJson wrote into *p; a key that is missing keeps *p's value. A value of the
// wrong type or outside its range is refused: false, and *problem names the key, the value and the
// allowed range ("\"temperature\" = 2.5 is outside the allowed range [0, 2]").
bool samplingFromJson(const QJsonObject& o, SamplingParams* p, QString* problem,
                      SamplingKeys keys = SamplingKeys::Engine);

}  // namespace reef::ui
