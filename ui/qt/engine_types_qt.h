// The engine's plain value types, registered so they can cross the worker thread by value in queued
// signals (hotspot's Data:: + Q_DECLARE_METATYPE pattern), plus small string conversions.
#pragma once
#include <QMetaType>
#include <QString>

#include "reef/bench.h"
#include "reef/engine_types.h"
#include "reef/result.h"

Q_DECLARE_METATYPE(reef::EngineConfig)
Q_DECLARE_METATYPE(reef::SynthesisRequest)
Q_DECLARE_METATYPE(reef::SynthesisResult)
Q_DECLARE_METATYPE(reef::AudioChunk)
Q_DECLARE_METATYPE(reef::PerfSample)
Q_DECLARE_METATYPE(reef::ModelInfo)
Q_DECLARE_METATYPE(reef::DeviceCaps)
Q_DECLARE_METATYPE(reef::Codes)
Q_DECLARE_METATYPE(reef::EngineError)
Q_DECLARE_METATYPE(reef::BenchRequest)
Q_DECLARE_METATYPE(reef::BenchReport)

namespace reef::ui {

// Registers every type above once; safe to call repeatedly.
void registerEngineMetaTypes();

inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QString qs(const char* s) { return QString::fromUtf8(s); }
// "message — hint" (the hint only when there is one), for banners and status lines.
QString errorText(const EngineError& error);
QString formatBytes(int64_t bytes);

}  // namespace reef::ui
