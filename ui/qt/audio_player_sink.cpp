// PlaybackSink over reef::audio::AudioPlayer (PortAudio). Built only when reef_audio has the player.
#include <exception>

#include "audio/audio_player.h"
#include "qt/playback_sink.h"

namespace reef::ui {
namespace {

class AudioPlayerSink : public PlaybackSink {
public:
    AudioPlayerSink() : m_player(std::make_unique<audio::AudioPlayer>()) {}
    void setClip(std::vector<float> mono) override { m_player->set_clip(std::move(mono)); }
    void beginStream() override { m_player->begin_stream(); }
    void append(const std::vector<float>& mono) override { m_player->append(mono); }
    void endStream() override { m_player->end_stream(); }
    void play() override { m_player->play(); }
    void pause() override { m_player->pause(); }
    void stop() override { m_player->stop(); }
    void seek(int64_t frame) override { m_player->seek(frame); }
    State state() const override {
        switch (m_player->state()) {
        case audio::AudioPlayer::State::Playing: return State::Playing;
        case audio::AudioPlayer::State::Paused: return State::Paused;
        case audio::AudioPlayer::State::Finished: return State::Finished;
        default: return State::Stopped;
        }
    }
    int64_t position() const override { return m_player->position(); }
    int64_t length() const override { return m_player->length(); }
    QStringList devices() override {
        QStringList names;
        for (const audio::OutputDevice& d : m_player->list_devices())
            names << QString::fromStdString(d.name);
        return names;
    }
    void openDevice(const QString& name) override { m_player->open(name.toStdString()); }

private:
    std::unique_ptr<audio::AudioPlayer> m_player;
};

}  // namespace

std::unique_ptr<PlaybackSink> makeDeviceSink(QString* whyNot) {
    try {
        return std::make_unique<AudioPlayerSink>();
    } catch (const std::exception& e) {
        if (whyNot)
            *whyNot = QString::fromStdString(e.what());
        return nullptr;
    }
}

}  // namespace reef::ui
