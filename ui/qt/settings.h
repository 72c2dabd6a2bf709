// The app's persisted settings: one GUI-thread object over QSettings, typed getters, setters that
// emit only on a real change, and every stored value validated on read (invalid -> default).
// Workers never read it: values are copied into EngineConfig / SynthesisRequest (docs/architecture.md, rule 6).
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "reef/engine_types.h"
#include "reef/remote.h"

class QSettings;

namespace reef::ui {

bool sameConfig(const EngineConfig& a, const EngineConfig& b);
// The SDPA policy `next` runs with after a change from `current`: next's own where it chose one
// (differs from current's) or where current's was chosen; the default of next's device and compile
// mode (reef::default_sdpa_policy) where current's was its default and next kept it.
SdpaPolicy sdpa_policy_after(const EngineConfig& current, const EngineConfig& next);
// What a load of `wanted` would change in the model loaded with `loaded`, one phrase per setting
// ("SDPA policy math (loaded: auto)"); empty when a reload would change nothing.
QStringList configChanges(const EngineConfig& loaded, const EngineConfig& wanted);
bool sameSampling(const SamplingParams& a, const SamplingParams& b);

class Settings : public QObject {
    Q_OBJECT
public:
    // iniPath empty: the platform's default QSettings for the application name.
    explicit Settings(const QString& iniPath = {}, QObject* parent = nullptr);
    ~Settings() override;

    EngineConfig engineConfig() const;   // model_dir included
    SamplingParams sampling() const;
    QString modelDir() const { return QString::fromStdString(m_config.model_dir); }
    QString audioDevice() const { return m_audioDevice; }
    bool autoplay() const { return m_autoplay; }
    int streamChunkFrames() const { return m_streamChunkFrames; }
    // Interface language: "" = follow the system locale, "en", or a shipped one ("zh_CN", "ja").
    // Takes effect at the next start (widgets translate their strings when they are built).
    QString language() const { return m_language; }
    // The take history's size on disk, in MiB (TakeHistory's limit).
    static constexpr int kMinHistoryLimitMb = 10, kMaxHistoryLimitMb = 100000, kDefaultHistoryLimitMb = 500;
    int historyLimitMb() const { return m_historyLimitMb; }
    // Queue items (project segments) decoding together on this computer's engine (issue #27):
    // 1 = one at a time (each streams to the player), 2..kMaxBatchSize, 0 = auto (by free memory).
    static constexpr int kMaxBatchSize = 8, kDefaultBatchSize = 1;
    int batchSize() const { return m_batchSize; }
    // Settings → Engine: where speech is made. With useServer, the next load connects to the
    // server (reef/remote.h) instead of loading the model folder. The API key is never written to
    // the settings file: setServerKey keeps it for this session (the secret store keeps it across).
    bool useServer() const { return m_useServer; }
    static constexpr int kMaxServerConcurrency = 16;   // requests the queue runs on a server at once
    ServerProfile serverProfile() const;   // the key included
    QString serverKey() const { return m_serverKey; }

    // An SDPA policy left at the old config's default follows a new device or compile mode to that
    // one's default (sdpa_policy_after); a chosen policy is kept as given.
    void setEngineConfig(const EngineConfig& config);
    void setModelDir(const QString& dir);
    void setSampling(const SamplingParams& sampling);
    void setAudioDevice(const QString& device);
    void setAutoplay(bool on);
    void setStreamChunkFrames(int frames);
    void setLanguage(const QString& code);   // an unknown code is ignored
    void setHistoryLimitMb(int mb);   // outside kMin..kMaxHistoryLimitMb: ignored
    void setBatchSize(int batchSize);   // outside 0..kMaxBatchSize: ignored
    void setUseServer(bool on);
    // URL, flavour, model, voice and concurrency (the profile's key is ignored here: setServerKey).
    void setServerProfile(const ServerProfile& profile);
    void setServerKey(const QString& key);
    // Named server profiles ("GPU box", "Fish Audio"): saved copies of the profile above (without
    // keys), one of which can be made the current one again. Names: 1-64 printable characters.
    QStringList serverProfileNames() const;
    bool saveServerProfileAs(const QString& name);   // the current profile under that name
    bool selectServerProfile(const QString& name);   // copies it into the current one (key cleared)
    void removeServerProfile(const QString& name);
    QString serverProfileName() const { return m_serverName; }   // of the current one, "" = unsaved
    void reload();   // re-reads (and re-validates) the store; emits for what changed
    void sync();

Q_SIGNALS:
    void engineConfigChanged();
    void modelDirChanged(const QString& dir);
    void samplingChanged();
    void audioDeviceChanged(const QString& device);
    void playbackOptionsChanged();
    void languageChanged(const QString& code);
    void historyLimitMbChanged(int mb);
    void batchSizeChanged(int batchSize);
    void serverChanged();   // useServer or the profile (key included)
    void serverProfilesChanged();   // the list of saved profiles

private:
    void assertThread() const;
    void writeConfig();
    void writeSampling();

    std::unique_ptr<QSettings> m_store;
    EngineConfig m_config;
    SamplingParams m_sampling;
    QString m_audioDevice;
    bool m_autoplay = true;
    int m_streamChunkFrames = 16;
    QString m_language;
    int m_historyLimitMb = kDefaultHistoryLimitMb;
    int m_batchSize = kDefaultBatchSize;
    bool m_useServer = false;
    ServerProfile m_server;   // without the key
    QString m_serverKey;      // this session only
    QString m_serverName;
};

}  // namespace reef::ui
