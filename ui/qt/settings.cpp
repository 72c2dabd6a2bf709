#include "qt/settings.h"

#include <QUrl>
#include <algorithm>

#include <QSettings>
#include <QThread>
#include <optional>

#include "qt/translations.h"
#include "reef/sampling_settings.h"

namespace reef::ui {
namespace {

// Present in files written since 'reef' became the CPU's default SDPA policy (Settings::reload).
constexpr const char* kSdpaDefaultKey = "engine/sdpa_default_rule";

// Reads an enum stored by its to_string name; unknown or missing -> fallback.
template <class T>
T readEnum(const QSettings& s, const char* key, T fallback, std::optional<T> (*parse)(const std::string&)) {
    const QVariant v = s.value(QLatin1String(key));
    if (!v.isValid())
        return fallback;
    return parse(v.toString().toStdString()).value_or(fallback);
}

int readInt(const QSettings& s, const char* key, int fallback, int lo, int hi) {
    bool ok = false;
    const int v = s.value(QLatin1String(key), fallback).toString().toInt(&ok);
    return ok && v >= lo && v <= hi ? v : fallback;
}

double readSampling(const QSettings& s, const SamplingSetting& st, double fallback) {
    bool ok = false;
    const QString key = QStringLiteral("sampling/") + QLatin1String(st.name);
    const double v = s.value(key, fallback).toString().toDouble(&ok);
    return ok && sampling_value_in_range(st, v) ? v : fallback;
}

// A server profile's stored fields (no key) under prefix: "server/" for the current one,
// "server_profiles/<name>/" for a saved one. Read like every other value: invalid -> default.
ServerProfile readProfile(const QSettings& s, const QString& prefix) {
    const auto key = [&](const char* field) { return (prefix + QLatin1String(field)).toLatin1(); };
    ServerProfile p;
    p.url = s.value(QString::fromLatin1(key("url"))).toString().toStdString();
    p.flavour = readEnum(s, key("flavour").constData(), RemoteFlavour::Auto, &parse_remote_flavour);
    p.model = s.value(QString::fromLatin1(key("model"))).toString().toStdString();
    p.voice = s.value(QString::fromLatin1(key("voice"))).toString().toStdString();
    p.concurrency = readInt(s, key("concurrency").constData(), 1, 1, Settings::kMaxServerConcurrency);
    return p;
}

void writeProfile(QSettings& s, const QString& prefix, const ServerProfile& p) {
    s.setValue(prefix + QStringLiteral("url"), QString::fromStdString(p.url));
    s.setValue(prefix + QStringLiteral("flavour"), QString::fromLatin1(to_string(p.flavour)));
    s.setValue(prefix + QStringLiteral("model"), QString::fromStdString(p.model));
    s.setValue(prefix + QStringLiteral("voice"), QString::fromStdString(p.voice));
    s.setValue(prefix + QStringLiteral("concurrency"), p.concurrency);
}

bool sameStoredProfile(const ServerProfile& a, const ServerProfile& b) {
    return a.url == b.url && a.flavour == b.flavour && a.model == b.model && a.voice == b.voice &&
           a.concurrency == b.concurrency;
}

bool validLanguage(const QString& code) {
    return code.isEmpty() || code == QLatin1String("en") || shippedLanguages().contains(code);
}

}  // namespace

bool sameConfig(const EngineConfig& a, const EngineConfig& b) {
    return a.model_dir == b.model_dir && a.device == b.device && a.device_index == b.device_index &&
           a.precision == b.precision &&
           a.cpu_threads == b.cpu_threads && a.adaptive_threads == b.adaptive_threads &&
           a.compile_mode == b.compile_mode && a.sdpa_policy == b.sdpa_policy &&
           a.kv_mode == b.kv_mode && a.kv_margin == b.kv_margin && a.load_codec == b.load_codec;
}

QStringList configChanges(const EngineConfig& loaded, const EngineConfig& wanted) {
    QStringList out;
    auto add = [&out](const QString& what, const QString& now, const QString& was) {
        if (now != was)
            out << Settings::tr("%1 %2 (loaded: %3)").arg(what, now, was);
    };
    auto threads = [](int n) { return n > 0 ? QString::number(n) : Settings::tr("default"); };
    if (loaded.model_dir != wanted.model_dir)
        out << Settings::tr("model folder %1").arg(QString::fromStdString(wanted.model_dir));
    add(Settings::tr("device"), QString::fromStdString(to_string(DeviceSpec{wanted.device, wanted.device_index})),
        QString::fromStdString(to_string(DeviceSpec{loaded.device, loaded.device_index})));
    add(Settings::tr("precision"), QLatin1String(to_string(wanted.precision)), QLatin1String(to_string(loaded.precision)));
    add(Settings::tr("CPU threads"), threads(wanted.cpu_threads), threads(loaded.cpu_threads));
    auto onOff = [](bool on) { return on ? Settings::tr("on") : Settings::tr("off"); };
    add(Settings::tr("fewer threads while others are busy"), onOff(wanted.adaptive_threads), onOff(loaded.adaptive_threads));
    add(Settings::tr("compile mode"), QLatin1String(to_string(wanted.compile_mode)),
        QLatin1String(to_string(loaded.compile_mode)));
    add(Settings::tr("SDPA policy"), QLatin1String(to_string(wanted.sdpa_policy)), QLatin1String(to_string(loaded.sdpa_policy)));
    add(Settings::tr("KV cache"), QLatin1String(to_string(wanted.kv_mode)), QLatin1String(to_string(loaded.kv_mode)));
    add(Settings::tr("KV margin"), QString::number(wanted.kv_margin), QString::number(loaded.kv_margin));
    return out;
}

bool sameSampling(const SamplingParams& a, const SamplingParams& b) {
    return a.temperature == b.temperature && a.top_p == b.top_p && a.top_k == b.top_k &&
           a.repetition_penalty == b.repetition_penalty && a.max_new_frames == b.max_new_frames &&
           a.chunk_length == b.chunk_length && a.seed == b.seed;
}

Settings::Settings(const QString& iniPath, QObject* parent)
    : QObject(parent),
      m_store(iniPath.isEmpty() ? std::make_unique<QSettings>()
                                : std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {
    reload();
}

Settings::~Settings() = default;

void Settings::assertThread() const { Q_ASSERT(QThread::currentThread() == thread()); }

void Settings::reload() {
    assertThread();
    const QSettings& s = *m_store;
    const EngineConfig d;
    EngineConfig c;
    c.model_dir = s.value(QStringLiteral("engine/model_dir")).toString().toStdString();
    // "cpu", "cuda:1", "mps" (older files: "cuda" = cuda:0); anything else reads as the default
    const DeviceSpec engineDevice = readEnum(s, "engine/device", DeviceSpec{d.device, d.device_index}, &parse_device_spec);
    c.device = engineDevice.kind;
    c.device_index = engineDevice.index;
    c.precision = readEnum(s, "engine/precision", d.precision, &parse_precision);
    c.cpu_threads = readInt(s, "engine/cpu_threads", d.cpu_threads, 0, 1024);
    c.adaptive_threads = s.value(QStringLiteral("engine/adaptive_threads"), d.adaptive_threads).toBool();
    c.compile_mode = readEnum(s, "engine/compile_mode", d.compile_mode, &parse_compile_mode);
    // unset (or unreadable): the device's and compile mode's default (reef for eager CPU decoding).
    // Files written before that default wrote 'auto', the old default, whether chosen or not (every
    // engine setting is written at once): read as unset, so an upgrade gets the new default.
    const SdpaPolicy sdpaDefault = default_sdpa_policy(c.device, c.compile_mode);
    c.sdpa_policy = readEnum(s, "engine/sdpa_policy", sdpaDefault, &parse_sdpa_policy);
    if (!s.contains(QLatin1String(kSdpaDefaultKey)) && c.sdpa_policy == SdpaPolicy::Auto)
        c.sdpa_policy = sdpaDefault;
    c.kv_mode = readEnum(s, "engine/kv_mode", d.kv_mode, &parse_kv_mode);
    c.kv_margin = readInt(s, "engine/kv_margin", d.kv_margin, 0, 65536);

    const SamplingParams ds;
    SamplingParams p;
    // keys and ranges from the engine's description: a stored value it would refuse reads as the default
    for (const SamplingSetting& st : sampling_settings())
        set_sampling_value(p, st.key, readSampling(s, st, sampling_value(ds, st.key)));
    bool seedOk = false;
    const qulonglong seed = s.value(QStringLiteral("sampling/seed"), QString::number(ds.seed)).toString().toULongLong(&seedOk);
    p.seed = seedOk ? seed : ds.seed;

    const QString device = s.value(QStringLiteral("audio/output_device")).toString();
    const bool autoplay = s.value(QStringLiteral("audio/autoplay"), true).toBool();
    const int chunk = readInt(s, "audio/stream_chunk_frames", 16, 0, 1024);
    QString language = s.value(QStringLiteral("ui/language")).toString();
    if (!validLanguage(language))
        language.clear();
    const int historyMb = readInt(s, "history/limit_mb", kDefaultHistoryLimitMb, kMinHistoryLimitMb, kMaxHistoryLimitMb);
    const int batch = readInt(s, "generation/batch_size", kDefaultBatchSize, 0, kMaxBatchSize);
    const bool useServer = s.value(QStringLiteral("server/enabled"), false).toBool();
    const ServerProfile server = readProfile(s, QStringLiteral("server/"));
    const bool serverChanged_ = useServer != m_useServer || !sameStoredProfile(server, m_server);
    m_useServer = useServer;
    m_server = server;
    m_serverName = s.value(QStringLiteral("server/name")).toString();

    const bool dirChanged = c.model_dir != m_config.model_dir;
    const bool configChanged = !sameConfig(c, m_config);
    const bool samplingChanged_ = !sameSampling(p, m_sampling);
    const bool deviceChanged = device != m_audioDevice;
    const bool playbackChanged = autoplay != m_autoplay || chunk != m_streamChunkFrames;
    const bool historyChanged = historyMb != m_historyLimitMb;
    const bool batchChanged = batch != m_batchSize;
    m_batchSize = batch;
    m_config = c;
    m_sampling = p;
    m_audioDevice = device;
    m_autoplay = autoplay;
    m_streamChunkFrames = chunk;
    const bool languageChanged_ = language != m_language;
    m_language = language;
    m_historyLimitMb = historyMb;
    if (configChanged)
        Q_EMIT engineConfigChanged();
    if (dirChanged)
        Q_EMIT modelDirChanged(modelDir());
    if (samplingChanged_)
        Q_EMIT samplingChanged();
    if (deviceChanged)
        Q_EMIT audioDeviceChanged(device);
    if (playbackChanged)
        Q_EMIT playbackOptionsChanged();
    if (languageChanged_)
        Q_EMIT languageChanged(language);
    if (historyChanged)
        Q_EMIT historyLimitMbChanged(historyMb);
    if (serverChanged_)
        Q_EMIT serverChanged();
    if (batchChanged)
        Q_EMIT batchSizeChanged(batch);
}

ServerProfile Settings::serverProfile() const {
    ServerProfile p = m_server;
    p.api_key = m_serverKey.toStdString();
    p.key_setting = tr("Settings → Speech from a server → Key").toStdString();
    return p;
}

void Settings::setUseServer(bool on) {
    assertThread();
    if (on == m_useServer)
        return;
    m_useServer = on;
    m_store->setValue(QStringLiteral("server/enabled"), on);
    Q_EMIT serverChanged();
}

void Settings::setServerProfile(const ServerProfile& profile) {
    assertThread();
    ServerProfile p;   // the stored fields only: never the key
    p.url = profile.url;
    p.flavour = profile.flavour;
    p.model = profile.model;
    p.voice = profile.voice;
    p.concurrency = std::clamp(profile.concurrency, 1, kMaxServerConcurrency);
    if (sameStoredProfile(p, m_server))
        return;
    m_server = p;
    writeProfile(*m_store, QStringLiteral("server/"), p);
    Q_EMIT serverChanged();
}

namespace {

const QString kProfiles = QStringLiteral("server_profiles");

bool validProfileName(const QString& name) {
    return !name.trimmed().isEmpty() && name.size() <= 64 && !name.contains(QLatin1Char('/')) &&
           !name.contains(QLatin1Char('\\')) && std::all_of(name.begin(), name.end(), [](QChar c) { return c.isPrint(); });
}

// QSettings groups cannot hold every character: names are stored percent-encoded.
QString profileKey(const QString& name) { return QString::fromLatin1(QUrl::toPercentEncoding(name)); }

}  // namespace

QStringList Settings::serverProfileNames() const {
    m_store->beginGroup(kProfiles);
    const QStringList keys = m_store->childGroups();
    m_store->endGroup();
    QStringList names;
    for (const QString& k : keys)
        names << QUrl::fromPercentEncoding(k.toLatin1());
    names.sort(Qt::CaseInsensitive);
    return names;
}

bool Settings::saveServerProfileAs(const QString& name) {
    assertThread();
    if (!validProfileName(name))
        return false;
    writeProfile(*m_store, kProfiles + QLatin1Char('/') + profileKey(name) + QLatin1Char('/'), m_server);
    m_serverName = name;
    m_store->setValue(QStringLiteral("server/name"), name);
    Q_EMIT serverProfilesChanged();
    Q_EMIT serverChanged();
    return true;
}

bool Settings::selectServerProfile(const QString& name) {
    assertThread();
    if (!serverProfileNames().contains(name))
        return false;
    const ServerProfile p = readProfile(*m_store, kProfiles + QLatin1Char('/') + profileKey(name) + QLatin1Char('/'));
    m_serverKey.clear();   // each server's key comes from the secret store
    m_serverName = name;
    m_store->setValue(QStringLiteral("server/name"), name);
    m_server = ServerProfile{};   // so that setServerProfile writes and announces every field
    setServerProfile(p);
    return true;
}

void Settings::removeServerProfile(const QString& name) {
    assertThread();
    m_store->remove(kProfiles + QLatin1Char('/') + profileKey(name));
    if (m_serverName == name) {
        m_serverName.clear();
        m_store->setValue(QStringLiteral("server/name"), QString());
    }
    Q_EMIT serverProfilesChanged();
}

void Settings::setServerKey(const QString& key) {
    assertThread();
    if (key == m_serverKey)
        return;
    m_serverKey = key;   // never written to the store
    Q_EMIT serverChanged();
}

EngineConfig Settings::engineConfig() const {
    assertThread();
    return m_config;
}

SamplingParams Settings::sampling() const {
    assertThread();
    return m_sampling;
}

void Settings::writeConfig() {
    QSettings& s = *m_store;
    s.setValue(QStringLiteral("engine/model_dir"), modelDir());
    s.setValue(QStringLiteral("engine/device"),
               QString::fromStdString(to_string(DeviceSpec{m_config.device, m_config.device_index})));
    s.setValue(QStringLiteral("engine/precision"), QLatin1String(to_string(m_config.precision)));
    s.setValue(QStringLiteral("engine/cpu_threads"), m_config.cpu_threads);
    s.setValue(QStringLiteral("engine/adaptive_threads"), m_config.adaptive_threads);
    s.setValue(QStringLiteral("engine/compile_mode"), QLatin1String(to_string(m_config.compile_mode)));
    s.setValue(QStringLiteral("engine/sdpa_policy"), QLatin1String(to_string(m_config.sdpa_policy)));
    s.setValue(QLatin1String(kSdpaDefaultKey), 2);   // written under default_sdpa_policy: a stored 'auto' was chosen
    s.setValue(QStringLiteral("engine/kv_mode"), QLatin1String(to_string(m_config.kv_mode)));
    s.setValue(QStringLiteral("engine/kv_margin"), m_config.kv_margin);
}

void Settings::writeSampling() {
    QSettings& s = *m_store;
    for (const SamplingSetting& st : sampling_settings()) {
        const double v = sampling_value(m_sampling, st.key);
        s.setValue(QStringLiteral("sampling/") + QLatin1String(st.name),
                   st.decimals == 0 ? QVariant(qint64(v)) : QVariant(double(float(v))));
    }
    s.setValue(QStringLiteral("sampling/seed"), QString::number(m_sampling.seed));
}

SdpaPolicy sdpa_policy_after(const EngineConfig& current, const EngineConfig& next) {
    const bool followed = next.sdpa_policy == current.sdpa_policy &&
                          current.sdpa_policy == default_sdpa_policy(current.device, current.compile_mode);
    return followed ? default_sdpa_policy(next.device, next.compile_mode) : next.sdpa_policy;
}

void Settings::setEngineConfig(const EngineConfig& wanted) {
    assertThread();
    // The default SDPA policy follows the device and the compile mode (reef for eager CPU decoding,
    // auto elsewhere, reef/engine_types.h): a policy left at the old config's default moves to the
    // new one's, so switching to aot-inductor or a GPU never leaves an attention kernel that cannot
    // run there. A policy chosen over the default stays.
    EngineConfig config = wanted;
    config.sdpa_policy = sdpa_policy_after(m_config, wanted);
    if (sameConfig(config, m_config))
        return;
    const bool dirChanged = config.model_dir != m_config.model_dir;
    m_config = config;
    writeConfig();
    Q_EMIT engineConfigChanged();
    if (dirChanged)
        Q_EMIT modelDirChanged(modelDir());
}

void Settings::setModelDir(const QString& dir) {
    EngineConfig c = m_config;
    c.model_dir = dir.toStdString();
    setEngineConfig(c);
}

void Settings::setSampling(const SamplingParams& sampling) {
    assertThread();
    if (sameSampling(sampling, m_sampling))
        return;
    m_sampling = sampling;
    writeSampling();
    Q_EMIT samplingChanged();
}

void Settings::setAudioDevice(const QString& device) {
    assertThread();
    if (device == m_audioDevice)
        return;
    m_audioDevice = device;
    m_store->setValue(QStringLiteral("audio/output_device"), device);
    Q_EMIT audioDeviceChanged(device);
}

void Settings::setAutoplay(bool on) {
    assertThread();
    if (on == m_autoplay)
        return;
    m_autoplay = on;
    m_store->setValue(QStringLiteral("audio/autoplay"), on);
    Q_EMIT playbackOptionsChanged();
}

void Settings::setStreamChunkFrames(int frames) {
    assertThread();
    if (frames == m_streamChunkFrames || frames < 0)
        return;
    m_streamChunkFrames = frames;
    m_store->setValue(QStringLiteral("audio/stream_chunk_frames"), frames);
    Q_EMIT playbackOptionsChanged();
}

void Settings::setLanguage(const QString& code) {
    assertThread();
    if (code == m_language || !validLanguage(code))
        return;
    m_language = code;
    m_store->setValue(QStringLiteral("ui/language"), code);
    Q_EMIT languageChanged(code);
}

void Settings::setHistoryLimitMb(int mb) {
    assertThread();
    if (mb == m_historyLimitMb || mb < kMinHistoryLimitMb || mb > kMaxHistoryLimitMb)
        return;
    m_historyLimitMb = mb;
    m_store->setValue(QStringLiteral("history/limit_mb"), mb);
    Q_EMIT historyLimitMbChanged(mb);
}

void Settings::setBatchSize(int batchSize) {
    assertThread();
    if (batchSize == m_batchSize || batchSize < 0 || batchSize > kMaxBatchSize)
        return;
    m_batchSize = batchSize;
    m_store->setValue(QStringLiteral("generation/batch_size"), batchSize);
    Q_EMIT batchSizeChanged(batchSize);
}

void Settings::sync() { m_store->sync(); }

}  // namespace reef::ui
