// The UI tests' set-up over the real engine: the tiny demo model written into a folder, and loaded
// into an EngineController (whose worker runs the real reef::Engine).
#pragma once
#include <QSignalSpy>
#include <QString>
#include <QTest>

#include "qt/engine_controller.h"
#include "reef/engine.h"

namespace reef_test {

// Writes the tiny demo model (S2 layout) to dir; the reason when it could not, else empty.
inline QString writeTinyDemo(const QString& dir) {
    const reef::Status s = reef::write_demo_model(dir.toStdString(), "tiny", "s2");
    return s.ok() ? QString() : QString::fromStdString(s.error().to_string());
}

// Loads modelDir with that many CPU threads and waits for the answer; the load's error, else empty.
inline QString loadInto(reef::ui::EngineController& engine, const QString& modelDir, int threads) {
    QSignalSpy loaded(&engine, &reef::ui::EngineController::modelLoaded);
    QSignalSpy failed(&engine, &reef::ui::EngineController::loadFailed);
    reef::EngineConfig c;
    c.model_dir = modelDir.toStdString();
    c.cpu_threads = threads;
    engine.loadModel(c);
    if (!QTest::qWaitFor([&] { return loaded.count() + failed.count() == 1; }, 60000))
        return QStringLiteral("the model did not load within 60 s");
    return failed.isEmpty() ? QString() : failed.first().first().toString();
}

}  // namespace reef_test
