#include "qt/reference_audio.h"

#include <exception>

#include "audio/resample.h"

namespace reef::ui {

std::vector<float> loadMono44k(const QString& path, QString* error, double maxSeconds) {
    try {
        return audio::load_reference_audio(path.toStdString(), maxSeconds);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return {};
    }
}

}  // namespace reef::ui
