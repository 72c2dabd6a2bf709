#include "qt/take_history.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <utility>

#include "audio/wav_file.h"
#include "qt/sampling_json.h"
#include "qt/takes_model.h"

namespace reef::ui {
namespace {

constexpr auto kFormat = "reef-take-history";
constexpr auto kIndexName = "history.json";
constexpr double kMaxTakeSeconds = 24 * 3600.0;   // read_audio's own cap is for reference clips

QString str(const std::string& s) { return QString::fromStdString(s); }
std::string std_(const QJsonValue& v) { return v.toString().toStdString(); }

template <class E>
E parseEnum(const QJsonValue& v, E fallback, std::optional<E> (*parse)(const std::string&)) {
    return parse(std_(v)).value_or(fallback);
}

// The engine prints these enums but parses only the ones settings need.
template <class E>
E enumByName(const QJsonValue& v, E fallback, int count) {
    for (int i = 0; i < count; ++i)
        if (v.toString() == QLatin1String(to_string(E(i))))
            return E(i);
    return fallback;
}

QJsonObject configJson(const EngineConfig& c) {
    return {{QStringLiteral("model_dir"), str(c.model_dir)},
            {QStringLiteral("device"), QString::fromStdString(to_string(DeviceSpec{c.device, c.device_index}))},
            {QStringLiteral("precision"), QLatin1String(to_string(c.precision))},
            {QStringLiteral("cpu_threads"), c.cpu_threads},
            {QStringLiteral("compile_mode"), QLatin1String(to_string(c.compile_mode))},
            {QStringLiteral("sdpa_policy"), QLatin1String(to_string(c.sdpa_policy))},
            {QStringLiteral("kv_mode"), QLatin1String(to_string(c.kv_mode))},
            {QStringLiteral("kv_margin"), c.kv_margin},
            {QStringLiteral("load_codec"), c.load_codec}};
}

EngineConfig configFrom(const QJsonObject& o) {
    const EngineConfig d;
    EngineConfig c;
    c.model_dir = std_(o.value(QLatin1String("model_dir")));
    const DeviceSpec device =
        parseEnum(o.value(QLatin1String("device")), DeviceSpec{d.device, d.device_index}, &parse_device_spec);
    c.device = device.kind;
    c.device_index = device.index;
    c.precision = parseEnum(o.value(QLatin1String("precision")), d.precision, &parse_precision);
    c.cpu_threads = o.value(QLatin1String("cpu_threads")).toInt(d.cpu_threads);
    c.compile_mode = parseEnum(o.value(QLatin1String("compile_mode")), d.compile_mode, &parse_compile_mode);
    c.sdpa_policy = parseEnum(o.value(QLatin1String("sdpa_policy")), d.sdpa_policy, &parse_sdpa_policy);
    c.kv_mode = parseEnum(o.value(QLatin1String("kv_mode")), d.kv_mode, &parse_kv_mode);
    c.kv_margin = o.value(QLatin1String("kv_margin")).toInt(d.kv_margin);
    c.load_codec = o.value(QLatin1String("load_codec")).toBool(d.load_codec);
    return c;
}

// The summary the takes table and tooltips show; the per-step series is not kept.
QJsonObject metricsJson(const RunMetrics& m) {
    QJsonArray backends;
    for (const BackendUse& b : m.backends)
        backends.append(QJsonObject{{QStringLiteral("site"), QLatin1String(to_string(b.site))},
                                    {QStringLiteral("backend"), QLatin1String(to_string(b.backend))},
                                    {QStringLiteral("calls"), qint64(b.calls)},
                                    {QStringLiteral("shape"), str(b.shape)},
                                    {QStringLiteral("kv_len_min"), qint64(b.kv_len_min)},
                                    {QStringLiteral("kv_len_max"), qint64(b.kv_len_max)},
                                    {QStringLiteral("compiled"), b.compiled}});
    return {{QStringLiteral("load_ms"), m.load_ms},
            {QStringLiteral("prefill_ms"), m.prefill_ms},
            {QStringLiteral("cold_first_frame_ms"), m.cold_first_frame_ms},
            {QStringLiteral("time_to_first_audio_ms"), m.time_to_first_audio_ms},
            {QStringLiteral("decode_ms"), m.decode_ms},
            {QStringLiteral("codec_ms"), m.codec_ms},
            {QStringLiteral("total_ms"), m.total_ms},
            {QStringLiteral("prompt_tokens"), m.prompt_tokens},
            {QStringLiteral("frames"), m.frames},
            {QStringLiteral("warm_frames_per_s"), m.warm_frames_per_s},
            {QStringLiteral("audio_seconds"), m.audio_seconds},
            {QStringLiteral("real_time_factor"), m.real_time_factor},
            {QStringLiteral("cpu_peak_rss_bytes"), qint64(m.memory.cpu_peak_rss_bytes)},
            {QStringLiteral("cuda_peak_allocated_bytes"), qint64(m.memory.cuda_peak_allocated_bytes)},
            {QStringLiteral("stop_reason"), str(m.stop_reason)},
            {QStringLiteral("compile_s"), m.compile_s},
            {QStringLiteral("compile_cached"), m.compile_cached},
            {QStringLiteral("backends"), backends}};
}

RunMetrics metricsFrom(const QJsonObject& o) {
    RunMetrics m;
    auto num = [&](const char* k) { return o.value(QLatin1String(k)).toDouble(0); };
    m.load_ms = num("load_ms");
    m.prefill_ms = num("prefill_ms");
    m.cold_first_frame_ms = num("cold_first_frame_ms");
    m.time_to_first_audio_ms = num("time_to_first_audio_ms");
    m.decode_ms = num("decode_ms");
    m.codec_ms = num("codec_ms");
    m.total_ms = num("total_ms");
    m.prompt_tokens = o.value(QLatin1String("prompt_tokens")).toInt();
    m.frames = o.value(QLatin1String("frames")).toInt();
    m.warm_frames_per_s = num("warm_frames_per_s");
    m.audio_seconds = num("audio_seconds");
    m.real_time_factor = num("real_time_factor");
    m.memory.cpu_peak_rss_bytes = o.value(QLatin1String("cpu_peak_rss_bytes")).toInteger(0);
    m.memory.cuda_peak_allocated_bytes = o.value(QLatin1String("cuda_peak_allocated_bytes")).toInteger(-1);
    m.stop_reason = std_(o.value(QLatin1String("stop_reason")));
    m.compile_s = num("compile_s");
    m.compile_cached = o.value(QLatin1String("compile_cached")).toBool();
    for (const QJsonValue& v : o.value(QLatin1String("backends")).toArray()) {
        const QJsonObject b = v.toObject();
        BackendUse u;
        u.site = enumByName(b.value(QLatin1String("site")), CallSite::SlowDecode, kNumCallSites);
        u.backend = enumByName(b.value(QLatin1String("backend")), SdpaBackend::Unknown, int(kLastSdpaBackend) + 1);
        u.calls = b.value(QLatin1String("calls")).toInteger();
        u.shape = std_(b.value(QLatin1String("shape")));
        u.kv_len_min = b.value(QLatin1String("kv_len_min")).toInteger();
        u.kv_len_max = b.value(QLatin1String("kv_len_max")).toInteger();
        u.compiled = b.value(QLatin1String("compiled")).toBool();
        m.backends.push_back(u);
    }
    return m;
}

QJsonObject takeJson(const Take& t, const QString& file) {
    return {{QStringLiteral("number"), t.number},
            {QStringLiteral("created"), t.created.toUTC().toString(Qt::ISODateWithMs)},
            {QStringLiteral("text"), t.text},
            {QStringLiteral("voice"), t.voice},
            {QStringLiteral("model"), t.modelName},
            {QStringLiteral("audio"), file},
            {QStringLiteral("samples"), qint64(t.audio.size())},
            {QStringLiteral("config"), configJson(t.config)},
            {QStringLiteral("server"), t.server},
            {QStringLiteral("served_with"), t.servedWith},
            {QStringLiteral("sampling"), samplingToJson(t.sampling)},
            {QStringLiteral("metrics"), metricsJson(t.metrics)}};
}

// A file name the index may point at: a plain name inside the folder, never a path out of it.
bool isOwnFileName(const QString& name) {
    return !name.isEmpty() && !name.contains(QLatin1Char('/')) && !name.contains(QLatin1Char('\\')) &&
           name != QLatin1String(".") && name != QLatin1String("..");
}

}  // namespace

TakeHistory::TakeHistory(const QString& dir, TakesModel& model, qint64 limitBytes, QObject* parent)
    : QObject(parent), m_dir(dir), m_model(model), m_limit(std::max<qint64>(0, limitBytes)) {
    m_model.setMaxTakes(0);
    connect(&m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex&, int first, int last) { onRowsInserted(first, last); });
    connect(&m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this](const QModelIndex&, int first, int last) { onRowsAboutToBeRemoved(first, last); });
    connect(&m_model, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (std::exchange(m_writeAfterRemoval, false))
            writeIndex();
    });
}

QString TakeHistory::indexPath() const { return QDir(m_dir).filePath(QLatin1String(kIndexName)); }

void TakeHistory::warn(const QString& message) {
    m_warnings << message;
    Q_EMIT warning(message);
}

qint64 TakeHistory::usedBytes() const {
    qint64 total = m_indexBytes;
    for (const auto& [number, s] : m_stored)
        total += s.bytes;
    return total;
}

bool TakeHistory::load(QString* error) {
    auto fail = [&](const QString& why) {
        warn(why);
        if (error)
            *error = why;
        return false;
    };
    if (m_loaded || m_model.rowCount() > 0 || !m_stored.empty())
        return fail(tr("the take history in %1 is loaded once, before any take is made").arg(m_dir));
    m_loaded = true;
    QFile f(indexPath());
    if (!f.exists())
        return true;
    m_setAsideIndex = true;   // until it proves readable
    if (!f.open(QIODevice::ReadOnly))
        return fail(tr("cannot read the take history %1: %2").arg(f.fileName(), f.errorString()));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    m_indexBytes = f.size();
    const QJsonObject root = doc.object();
    if (parseError.error != QJsonParseError::NoError)
        return fail(tr("cannot read the take history %1: not valid JSON (%2 at byte %3); it is kept as it is")
                        .arg(f.fileName(), parseError.errorString())
                        .arg(parseError.offset));
    if (!doc.isObject() || root.value(QLatin1String("format")).toString() != QLatin1String(kFormat) ||
        !root.value(QLatin1String("takes")).isArray())
        return fail(tr("cannot read the take history %1: not a Reef take history; it is kept as it is").arg(f.fileName()));
    const int version = root.value(QLatin1String("version")).toInt(0);
    if (version < 1 || version > kIndexVersion)
        return fail(tr("cannot read the take history %1: format version %2, this Reef reads up to %3; it is kept as it is")
                        .arg(f.fileName())
                        .arg(version)
                        .arg(kIndexVersion));
    m_setAsideIndex = false;

    std::vector<Take> takes;
    int highest = 0;
    for (const QJsonValue& v : root.value(QLatin1String("takes")).toArray()) {
        const QJsonObject o = v.toObject();
        const int number = o.value(QLatin1String("number")).toInt(0);
        highest = std::max(highest, number);
        const QString file = o.value(QLatin1String("audio")).toString();
        auto skip = [&](const QString& why) {
            warn(tr("take %1 of the history in %2 is skipped: %3").arg(number).arg(m_dir, why));
            m_skipped.append(v);
        };
        if (!v.isObject() || number <= 0) {
            skip(tr("its entry has no take number"));
            continue;
        }
        if (m_stored.count(number)) {
            skip(tr("its number is used twice"));
            continue;
        }
        if (!file.isEmpty() && !isOwnFileName(file)) {
            skip(tr("its audio \"%1\" is not a file in the history folder").arg(file));
            continue;
        }
        Take t;
        t.number = number;
        t.created = QDateTime::fromString(o.value(QLatin1String("created")).toString(), Qt::ISODateWithMs).toLocalTime();
        t.text = o.value(QLatin1String("text")).toString();
        t.voice = o.value(QLatin1String("voice")).toString();
        t.modelName = o.value(QLatin1String("model")).toString();
        t.config = configFrom(o.value(QLatin1String("config")).toObject());
        t.server = o.value(QLatin1String("server")).toString();   // absent before issue #47: this computer
        t.servedWith = o.value(QLatin1String("served_with")).toString();
        // version 1 wrote the same keys, unchecked: a value the engine would refuse is refused here
        QString samplingProblem;
        if (!samplingFromJson(o.value(QLatin1String("sampling")).toObject(), &t.sampling, &samplingProblem)) {
            skip(tr("its sampling settings: %1").arg(samplingProblem));
            continue;
        }
        t.metrics = metricsFrom(o.value(QLatin1String("metrics")).toObject());
        Stored s{file, 0, o};
        if (!file.isEmpty()) {
            const QString path = QDir(m_dir).filePath(file);
            try {
                audio::AudioData a = audio::read_audio(path.toStdString(), kMaxTakeSeconds);
                if (a.channels != 1 || a.sample_rate != kSampleRate) {
                    skip(tr("%1 is not mono %2 Hz audio").arg(path).arg(kSampleRate));
                    continue;
                }
                if (qint64(a.samples.size()) != o.value(QLatin1String("samples")).toInteger(-1)) {
                    skip(tr("%1 does not hold the samples the index lists").arg(path));
                    continue;
                }
                t.audio = std::move(a.samples);
            } catch (const std::exception& e) {
                skip(QString::fromStdString(e.what()));
                continue;
            }
            s.bytes = QFileInfo(path).size();
        }
        m_stored[number] = std::move(s);
        takes.push_back(std::move(t));
    }
    m_restoring = true;
    m_model.addRestoredTakes(std::move(takes), highest);
    m_restoring = false;
    prune();
    return true;
}

bool TakeHistory::saveTake(const Take& take) {
    if (!QDir().mkpath(m_dir)) {
        warn(tr("take %1 is not kept in the history: cannot create the folder %2").arg(take.number).arg(m_dir));
        return false;
    }
    QString file;
    if (!take.audio.empty()) {
        const QString stem = QStringLiteral("take-%1-%2")
                                 .arg(take.created.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmsszzz")))
                                 .arg(take.number);
        file = stem + QStringLiteral(".wav");
        for (int n = 2; QFileInfo::exists(QDir(m_dir).filePath(file)); ++n)
            file = QStringLiteral("%1-%2.wav").arg(stem).arg(n);   // never overwrite a file already there
        const QString path = QDir(m_dir).filePath(file);
        try {
            audio::AudioMetadata meta;
            meta.title = take.text.simplified().left(80).toStdString();
            meta.software = "Reef " REEF_VERSION;
            audio::write_audio(path.toStdString(), take.audio, kSampleRate, 1, audio::ExportFormat::WavFloat, meta);
        } catch (const std::exception& e) {
            warn(tr("take %1 is not kept in the history: %2").arg(take.number).arg(QString::fromStdString(e.what())));
            return false;
        }
        m_stored[take.number] = {file, QFileInfo(path).size(), takeJson(take, file)};
    } else {
        m_stored[take.number] = {file, 0, takeJson(take, file)};
    }
    return true;
}

void TakeHistory::writeIndex() {
    if (!QDir().mkpath(m_dir)) {
        warn(tr("cannot write the take history: cannot create the folder %1").arg(m_dir));
        return;
    }
    const QString path = indexPath();
    if (m_setAsideIndex && QFileInfo::exists(path)) {
        const QString aside = QDir(m_dir).filePath(
            QStringLiteral("history.unreadable-%1.json").arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
        if (!QFile::rename(path, aside)) {
            warn(tr("the take history %1 is unreadable and could not be set aside; new takes are not kept").arg(path));
            return;
        }
        warn(tr("the unreadable take history was kept as %1; a new one was started").arg(aside));
    }
    m_setAsideIndex = false;
    QJsonArray list;
    for (int row = 0; row < m_model.rowCount(); ++row)
        if (auto it = m_stored.find(m_model.take(row).number); it != m_stored.end())
            list.append(it->second.entry);
    for (const QJsonValue& v : m_skipped)
        list.append(v);
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(kFormat)},
                           {QStringLiteral("version"), kIndexVersion},
                           {QStringLiteral("takes"), list}};
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Indented);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        warn(tr("cannot write the take history %1: %2").arg(path, f.errorString()));
        return;
    }
    m_indexBytes = bytes.size();
}

void TakeHistory::onRowsInserted(int first, int last) {
    if (m_restoring)
        return;
    if (!m_loaded) {
        // A take before load(): never overwrite a history that was not read; set it aside instead.
        m_loaded = true;
        m_setAsideIndex = QFileInfo::exists(indexPath());
    }
    bool any = false;
    for (int row = first; row <= last; ++row)
        any = saveTake(m_model.take(row)) || any;
    if (any) {
        m_batch = true;
        prune();
        m_batch = false;
        writeIndex();
    }
}

void TakeHistory::onRowsAboutToBeRemoved(int first, int last) {
    bool any = false;
    for (int row = first; row <= last; ++row) {
        auto it = m_stored.find(m_model.take(row).number);
        if (it == m_stored.end())
            continue;
        if (!it->second.file.isEmpty()) {
            const QString path = QDir(m_dir).filePath(it->second.file);
            if (QFileInfo::exists(path) && !QFile::remove(path))
                warn(tr("cannot delete %1 from the take history").arg(path));
        }
        m_stored.erase(it);
        any = true;
    }
    // The rows are still in the model here; the index is written once they are gone.
    m_writeAfterRemoval = any && !m_batch;
}

void TakeHistory::setLimitBytes(qint64 bytes) {
    m_limit = std::max<qint64>(0, bytes);
    prune();
}

void TakeHistory::prune() {
    if (usedBytes() <= m_limit || m_model.rowCount() <= 1)
        return;
    const bool outer = !m_batch;
    m_batch = true;
    while (usedBytes() > m_limit && m_model.rowCount() > 1)
        m_model.removeTake(m_model.rowCount() - 1);
    m_batch = false;
    if (outer)
        writeIndex();
}

}  // namespace reef::ui
