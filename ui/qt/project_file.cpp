#include "qt/project_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUuid>
#include <cmath>
#include <limits>

#include "audio/wav_file.h"
#include "qt/sampling_json.h"
#include "qt/voice_list_model.h"

namespace reef::ui {
namespace {

// A translation context for lupdate ("ProjectFile") without a QObject.
struct ProjectFile {
    Q_DECLARE_TR_FUNCTIONS(ProjectFile)
};

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

const QRegularExpression& idPattern() {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    return re;
}
const QRegularExpression& codesNamePattern() {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_-]{1,64}\\.codes$"));
    return re;
}
const QRegularExpression& castKeyPattern() {
    static const QRegularExpression re(QStringLiteral("^[\\p{L}\\p{N} _.'’-]{1,64}$"));
    return re;
}
const QRegularExpression& audioNamePattern() {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_-]{1,64}\\.wav$"));
    return re;
}

// All the audio one project may hold in memory once loaded (every take): 6 hours.
constexpr double kMaxProjectAudioSeconds = 6 * 3600.0;

// Field reads with one error format: "<file>: <where>: <problem>".
class Reader {
public:
    Reader(QString path, QString* error) : m_path(std::move(path)), m_error(error) {}
    // Format 2 wrote the sampling settings with camelCase keys ("topP"); format 3 with the engine's.
    void setSamplingKeys(SamplingKeys keys) { m_samplingKeys = keys; }

    bool problem(const QString& where, const QString& what) const {
        return fail(m_error, where.isEmpty() ? QStringLiteral("%1: %2").arg(m_path, what)
                                             : QStringLiteral("%1: %2: %3").arg(m_path, where, what));
    }
    bool missing(const QString& where, const char* key) const {
        return problem(where, ProjectFile::tr("\"%1\" is missing").arg(QLatin1String(key)));
    }
    bool wrongType(const QString& where, const char* key, const QString& type) const {
        return problem(where, ProjectFile::tr("\"%1\" is not %2").arg(QLatin1String(key), type));
    }

    bool string(const QJsonObject& o, const char* key, const QString& where, QString* out, bool required,
                int maxChars = ProjectModel::kMaxTextChars) const {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return required ? missing(where, key) : true;
        if (!v.isString())
            return wrongType(where, key, ProjectFile::tr("a string"));
        *out = v.toString();
        if (out->size() > maxChars)
            return problem(where, ProjectFile::tr("\"%1\" is %2 characters long; at most %3 are allowed")
                                      .arg(QLatin1String(key)).arg(out->size()).arg(maxChars));
        return true;
    }
    bool number(const QJsonObject& o, const char* key, const QString& where, double lo, double hi, double* out,
                bool required = false) const {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return required ? missing(where, key) : true;
        if (!v.isDouble())
            return wrongType(where, key, ProjectFile::tr("a number"));
        const double d = v.toDouble();
        if (!std::isfinite(d) || d < lo || d > hi)
            return problem(where, ProjectFile::tr("\"%1\" = %2 is out of range (%3 to %4)")
                                      .arg(QLatin1String(key)).arg(d).arg(lo).arg(hi));
        *out = d;
        return true;
    }
    bool integer(const QJsonObject& o, const char* key, const QString& where, qint64 lo, qint64 hi, qint64* out,
                 bool required = false) const {
        double d = 0;
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isDouble() && v.toDouble() != std::floor(v.toDouble()))
            return wrongType(where, key, ProjectFile::tr("a whole number"));
        if (!number(o, key, where, double(lo), double(hi), &d, required))
            return false;
        if (!v.isUndefined())
            *out = qint64(d);
        return true;
    }
    bool boolean(const QJsonObject& o, const char* key, const QString& where, bool* out) const {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isBool())
            return wrongType(where, key, ProjectFile::tr("true or false"));
        *out = v.toBool();
        return true;
    }
    bool object(const QJsonObject& o, const char* key, const QString& where, QJsonObject* out, bool* present) const {
        const QJsonValue v = o.value(QLatin1String(key));
        *present = !v.isUndefined();
        if (*present && !v.isObject())
            return wrongType(where, key, ProjectFile::tr("an object"));
        *out = v.toObject();
        return true;
    }
    bool array(const QJsonObject& o, const char* key, const QString& where, QJsonArray* out) const {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return missing(where, key);
        if (!v.isArray())
            return wrongType(where, key, ProjectFile::tr("a list"));
        *out = v.toArray();
        return true;
    }

    bool sampling(const QJsonObject& o, const QString& where, SamplingParams* p) const;
    bool assembly(const QJsonObject& o, AssemblySettings* a) const;
    bool metrics(const QJsonObject& o, const QString& where, RunMetrics* m) const;
    bool take(const QJsonObject& o, const QString& where, SegmentTake* t, QString* audioName, QString* codesName,
              qint64* samples) const;
    bool segment(const QJsonObject& o, const QString& where, Segment* s, QStringList* audioNames,
                 QStringList* codesNames, QList<qint64>* samples) const;
    bool cast(const QJsonObject& o, const QString& where, QMap<QString, QString>* out) const;

private:
    QString m_path;
    QString* m_error;
    SamplingKeys m_samplingKeys = SamplingKeys::Engine;
};

bool Reader::sampling(const QJsonObject& o, const QString& where, SamplingParams* p) const {
    QString why;
    if (!samplingFromJson(o, p, &why, m_samplingKeys))
        return problem(where, ProjectFile::tr("sampling: %1").arg(why));
    return true;
}

bool Reader::assembly(const QJsonObject& o, AssemblySettings* a) const {
    const QString where = QStringLiteral("assembly");
    constexpr qint64 kMaxPauseMs = 60000;
    const std::pair<const char*, int*> pauses[] = {{"sentencePauseMs", &a->sentencePauseMs},
                                                   {"clausePauseMs", &a->clausePauseMs},
                                                   {"paragraphPauseMs", &a->paragraphPauseMs},
                                                   {"chapterPauseMs", &a->chapterPauseMs}};
    for (const auto& [key, field] : pauses) {
        qint64 ms = *field;
        if (!integer(o, key, where, 0, kMaxPauseMs, &ms))
            return false;
        *field = int(ms);
    }
    return number(o, "speed", where, 0.5, 2.0, &a->speed) && boolean(o, "trimSilence", where, &a->trimSilence) &&
           boolean(o, "normalize", where, &a->normalize) &&
           number(o, "targetLufs", where, -40.0, -5.0, &a->targetLufs) &&
           number(o, "ceilingDbtp", where, -9.0, 0.0, &a->ceilingDbtp);
}

bool Reader::metrics(const QJsonObject& o, const QString& where, RunMetrics* m) const {
    qint64 frames = 0;
    constexpr double big = 1e12;
    if (!integer(o, "frames", where, 0, 100000000, &frames) ||
        !number(o, "audioSeconds", where, 0, big, &m->audio_seconds) ||
        !number(o, "warmFramesPerS", where, 0, big, &m->warm_frames_per_s) ||
        !number(o, "realTimeFactor", where, 0, big, &m->real_time_factor))
        return false;
    m->frames = int(frames);
    return true;
}

bool Reader::cast(const QJsonObject& o, const QString& where, QMap<QString, QString>* out) const {
    if (o.size() > 1000)
        return problem(where, ProjectFile::tr("%1 speakers; at most 1000 are allowed").arg(o.size()));
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!castKeyPattern().match(it.key()).hasMatch())
            return problem(where, ProjectFile::tr("the speaker \"%1\" is not a speaker name").arg(it.key().left(80)));
        if (!it.value().isString() || it.value().toString().size() > 1000)
            return problem(where, ProjectFile::tr("the voice of speaker \"%1\" is not a voice id").arg(it.key()));
        out->insert(it.key(), it.value().toString());
    }
    return true;
}

bool Reader::take(const QJsonObject& o, const QString& where, SegmentTake* t, QString* audioName, QString* codesName,
                  qint64* samples) const {
    QString created;
    QJsonObject sub;
    bool present = false;
    if (!string(o, "id", where, &t->id, true, 64) || !string(o, "text", where, &t->text, true) ||
        !string(o, "voice", where, &t->voice, false, 1000) || !string(o, "created", where, &created, false, 64) ||
        !string(o, "madeWith", where, &t->madeWith, false, 1000) || !string(o, "audio", where, audioName, true, 200) ||
        !string(o, "codes", where, codesName, false, 200) || !string(o, "modelHash", where, &t->modelHash, false, 128))
        return false;
    if (!codesName->isEmpty() && !codesNamePattern().match(*codesName).hasMatch())
        return problem(where, ProjectFile::tr("\"codes\" must name a .codes file in the project's audio folder, not \"%1\"")
                                  .arg(*codesName));
    if (!idPattern().match(t->id).hasMatch())
        return problem(where, ProjectFile::tr("the take id \"%1\" has characters other than A-Z a-z 0-9 _ -").arg(t->id));
    if (!audioNamePattern().match(*audioName).hasMatch())
        return problem(where, ProjectFile::tr("\"audio\" must name a .wav file in the project's audio folder, not \"%1\"")
                                  .arg(*audioName));
    const qint64 maxSamples = qint64(ProjectModel::kMaxTakeSeconds * kSampleRate);
    if (!integer(o, "samples", where, 1, maxSamples, samples, true))
        return false;
    if (!created.isEmpty()) {
        t->created = QDateTime::fromString(created, Qt::ISODateWithMs);
        if (!t->created.isValid())
            return problem(where, ProjectFile::tr("\"created\" is not an ISO 8601 date: \"%1\"").arg(created));
    }
    if (!object(o, "sampling", where, &sub, &present) || (present && !sampling(sub, where, &t->sampling)))
        return false;
    if (!object(o, "metrics", where, &sub, &present) || (present && !metrics(sub, where, &t->metrics)))
        return false;
    if (!object(o, "castVoices", where, &sub, &present) || (present && !cast(sub, where, &t->castVoices)))
        return false;
    return true;
}

bool Reader::segment(const QJsonObject& o, const QString& where, Segment* s, QStringList* audioNames,
                     QStringList* codesNames, QList<qint64>* samples) const {
    QJsonObject sub;
    bool present = false;
    QJsonArray takes;
    qint64 current = -1;
    if (!string(o, "id", where, &s->id, true, 64) || !string(o, "text", where, &s->text, true) ||
        !string(o, "voice", where, &s->voice, false, 1000) || !array(o, "takes", where, &takes) ||
        !boolean(o, "paragraphEnd", where, &s->paragraphEnd) || !string(o, "chapter", where, &s->chapter, false, 1000))
        return false;
    double speed = 0.0;
    if (!number(o, "speed", where, 0.0, 2.0, &speed))
        return false;
    if (speed != 0.0 && speed < 0.5)
        return problem(where, ProjectFile::tr("\"speed\" = %1 is out of range (0.5 to 2, or 0 for the project's)").arg(speed));
    s->speed = speed;
    if (!idPattern().match(s->id).hasMatch())
        return problem(where, ProjectFile::tr("the segment id \"%1\" has characters other than A-Z a-z 0-9 _ -").arg(s->id));
    if (!object(o, "sampling", where, &sub, &present))
        return false;
    if (present) {
        SamplingParams p;
        if (!sampling(sub, where, &p))
            return false;
        s->sampling = p;
    }
    if (takes.size() > ProjectModel::kMaxTakesPerSegment)
        return problem(where, ProjectFile::tr("%1 takes; at most %2 are allowed")
                                  .arg(takes.size())
                                  .arg(ProjectModel::kMaxTakesPerSegment));
    if (!integer(o, "currentTake", where, -1, qint64(takes.size()) - 1, &current, true))
        return false;
    s->currentTake = int(current);
    for (qsizetype k = 0; k < takes.size(); ++k) {
        const QString takeWhere = ProjectFile::tr("%1, take %2").arg(where).arg(k + 1);
        if (!takes[k].isObject())
            return problem(takeWhere, ProjectFile::tr("is not an object"));
        SegmentTake t;
        QString name, codes;
        qint64 n = 0;
        if (!take(takes[k].toObject(), takeWhere, &t, &name, &codes, &n))
            return false;
        s->takes.push_back(std::move(t));
        *audioNames << name;
        *codesNames << codes;
        *samples << n;
    }
    return true;
}

QString takeFileName(const SegmentTake& t) { return t.id + QStringLiteral(".wav"); }

QJsonObject castToJson(const QMap<QString, QString>& cast) {
    QJsonObject o;
    for (auto it = cast.begin(); it != cast.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
QString codesFileName(const SegmentTake& t) { return t.id + QStringLiteral(".codes"); }

QJsonObject takeToJson(const SegmentTake& t) {
    const QJsonObject metrics{{QStringLiteral("frames"), t.metrics.frames},
                              {QStringLiteral("audioSeconds"), t.metrics.audio_seconds},
                              {QStringLiteral("warmFramesPerS"), t.metrics.warm_frames_per_s},
                              {QStringLiteral("realTimeFactor"), t.metrics.real_time_factor}};
    QJsonObject o{{QStringLiteral("id"), t.id},
                  {QStringLiteral("text"), t.text},
                  {QStringLiteral("voice"), t.voice},
                  {QStringLiteral("sampling"), samplingToJson(t.sampling)},
                  {QStringLiteral("metrics"), metrics},
                  {QStringLiteral("audio"), takeFileName(t)},
                  {QStringLiteral("samples"), qint64(t.audio.size())}};
    if (t.created.isValid())
        o.insert(QStringLiteral("created"), t.created.toUTC().toString(Qt::ISODateWithMs));
    if (!t.madeWith.isEmpty())
        o.insert(QStringLiteral("madeWith"), t.madeWith);
    if (t.codes.n_frames > 0)
        o.insert(QStringLiteral("codes"), codesFileName(t));
    if (!t.modelHash.isEmpty())
        o.insert(QStringLiteral("modelHash"), t.modelHash);
    if (!t.castVoices.isEmpty())
        o.insert(QStringLiteral("castVoices"), castToJson(t.castVoices));
    return o;
}

QByteArray toJson(const ProjectData& data, const QString& audioDirName) {
    QJsonArray segments;
    for (const Segment& s : data.segments) {
        QJsonArray takes;
        for (const SegmentTake& t : s.takes)
            takes.append(takeToJson(t));
        QJsonObject o{{QStringLiteral("id"), s.id},
                      {QStringLiteral("text"), s.text},
                      {QStringLiteral("voice"), s.voice},
                      {QStringLiteral("currentTake"), s.currentTake},
                      {QStringLiteral("takes"), takes}};
        if (s.sampling)
            o.insert(QStringLiteral("sampling"), samplingToJson(*s.sampling));
        if (s.paragraphEnd)
            o.insert(QStringLiteral("paragraphEnd"), true);
        if (!s.chapter.isEmpty())
            o.insert(QStringLiteral("chapter"), s.chapter);
        if (s.speed != 0.0)
            o.insert(QStringLiteral("speed"), s.speed);
        segments.append(o);
    }
    const QJsonObject castJson = castToJson(data.cast);
    const AssemblySettings& a = data.assembly;
    const QJsonObject assembly{{QStringLiteral("sentencePauseMs"), a.sentencePauseMs},
                               {QStringLiteral("clausePauseMs"), a.clausePauseMs},
                               {QStringLiteral("paragraphPauseMs"), a.paragraphPauseMs},
                               {QStringLiteral("chapterPauseMs"), a.chapterPauseMs},
                               {QStringLiteral("speed"), a.speed},
                               {QStringLiteral("trimSilence"), a.trimSilence},
                               {QStringLiteral("normalize"), a.normalize},
                               {QStringLiteral("targetLufs"), a.targetLufs},
                               {QStringLiteral("ceilingDbtp"), a.ceilingDbtp}};
    const QJsonObject root{{QStringLiteral("format"), QStringLiteral("reef-project")},
                           {QStringLiteral("version"), kProjectFormatVersion},
                           {QStringLiteral("title"), data.title},
                           {QStringLiteral("defaultVoice"), data.defaultVoice},
                           {QStringLiteral("audioDir"), audioDirName},
                           {QStringLiteral("assembly"), assembly},
                           {QStringLiteral("cast"), castJson},
                           {QStringLiteral("nameLines"), data.nameLines},
                           {QStringLiteral("jointSpeakers"), data.jointSpeakers},
                           {QStringLiteral("segments"), segments}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool readVersion1(const Reader& r, const QJsonObject& root, ProjectData* out) {
    QJsonArray texts;
    if (!r.string(root, "title", {}, &out->title, true, 1000) || !r.array(root, "segments", {}, &texts))
        return false;
    if (texts.size() > ProjectModel::kMaxSegments)
        return r.problem({}, ProjectFile::tr("%1 segments; at most %2 are allowed")
                                 .arg(texts.size())
                                 .arg(ProjectModel::kMaxSegments));
    for (qsizetype k = 0; k < texts.size(); ++k) {
        if (!texts[k].isString())
            return r.problem(ProjectFile::tr("segment %1").arg(k + 1), ProjectFile::tr("is not a string"));
        if (texts[k].toString().size() > ProjectModel::kMaxTextChars)
            return r.problem(ProjectFile::tr("segment %1").arg(k + 1),
                             ProjectFile::tr("is longer than %1 characters").arg(ProjectModel::kMaxTextChars));
        Segment s;
        s.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        s.text = texts[k].toString();
        out->segments.push_back(std::move(s));
    }
    return true;
}

bool readVersion2(const Reader& r, const QString& path, const QJsonObject& root, ProjectData* out,
                  QString* audioDirPath) {
    QString audioDirName;
    QJsonArray segments;
    if (!r.string(root, "title", {}, &out->title, true, 1000) ||
        !r.string(root, "defaultVoice", {}, &out->defaultVoice, false, 1000) ||
        !r.string(root, "audioDir", {}, &audioDirName, true, 255) || !r.array(root, "segments", {}, &segments))
        return false;
    if (audioDirName.isEmpty() || audioDirName == QStringLiteral(".") || audioDirName == QStringLiteral("..") ||
        audioDirName.contains(u'/') || audioDirName.contains(u'\\'))
        return r.problem({}, ProjectFile::tr("\"audioDir\" must be the name of a folder beside the project file, not \"%1\"")
                                 .arg(audioDirName));
    if (segments.size() > ProjectModel::kMaxSegments)
        return r.problem({}, ProjectFile::tr("%1 segments; at most %2 are allowed")
                                 .arg(segments.size())
                                 .arg(ProjectModel::kMaxSegments));
    QJsonObject assembly;
    bool hasAssembly = false;
    if (!r.object(root, "assembly", {}, &assembly, &hasAssembly) || (hasAssembly && !r.assembly(assembly, &out->assembly)))
        return false;
    QJsonObject cast;
    bool hasCast = false;
    if (!r.object(root, "cast", {}, &cast, &hasCast) || (hasCast && !r.cast(cast, QStringLiteral("cast"), &out->cast)) ||
        !r.boolean(root, "nameLines", {}, &out->nameLines) || !r.boolean(root, "jointSpeakers", {}, &out->jointSpeakers))
        return false;
    QStringList audioNames, codesNames;
    QList<qint64> samples;
    QSet<QString> segmentIds, takeIdsSeen;
    for (qsizetype k = 0; k < segments.size(); ++k) {
        const QString where = ProjectFile::tr("segment %1").arg(k + 1);
        if (!segments[k].isObject())
            return r.problem(where, ProjectFile::tr("is not an object"));
        Segment s;
        if (!r.segment(segments[k].toObject(), where, &s, &audioNames, &codesNames, &samples))
            return false;
        if (segmentIds.contains(s.id))
            return r.problem(where, ProjectFile::tr("the id \"%1\" is used twice").arg(s.id));
        segmentIds.insert(s.id);
        for (const SegmentTake& t : s.takes) {
            if (takeIdsSeen.contains(t.id))
                return r.problem(where, ProjectFile::tr("the take id \"%1\" is used twice").arg(t.id));
            takeIdsSeen.insert(t.id);
        }
        out->segments.push_back(std::move(s));
    }
    double total = 0;
    for (qint64 n : samples)
        total += double(n) / kSampleRate;
    if (total > kMaxProjectAudioSeconds)
        return r.problem({}, ProjectFile::tr("its takes hold %1 hours of audio; at most %2 can be opened")
                                 .arg(total / 3600, 0, 'f', 1).arg(kMaxProjectAudioSeconds / 3600, 0, 'f', 0));

    const QDir audioDir(QFileInfo(path).absoluteDir().filePath(audioDirName));
    *audioDirPath = QDir::cleanPath(audioDir.absolutePath());
    int index = 0;
    for (size_t k = 0; k < out->segments.size(); ++k) {
        for (size_t j = 0; j < out->segments[k].takes.size(); ++j, ++index) {
            const QString where = ProjectFile::tr("segment %1, take %2").arg(k + 1).arg(j + 1);
            const QString file = audioDir.filePath(audioNames[index]);
            audio::AudioData a;
            try {
                a = audio::read_audio(file.toStdString(), ProjectModel::kMaxTakeSeconds);
            } catch (const audio::AudioError& e) {
                return r.problem(where, QString::fromStdString(e.what()));
            }
            if (a.sample_rate != kSampleRate || a.channels != 1)
                return r.problem(where, ProjectFile::tr("%1 is %2 Hz with %3 channels; takes are mono %4 Hz")
                                            .arg(file).arg(a.sample_rate).arg(a.channels).arg(kSampleRate));
            if (qint64(a.samples.size()) != samples[index])
                return r.problem(where, ProjectFile::tr("%1 holds %2 samples; the project expects %3")
                                            .arg(file).arg(a.samples.size()).arg(samples[index]));
            out->segments[k].takes[j].audio = std::move(a.samples);
            if (!codesNames[index].isEmpty()) {
                QString why;
                if (!readCodesFile(audioDir.filePath(codesNames[index]), &out->segments[k].takes[j].codes, &why))
                    return r.problem(where, why);
            }
        }
    }
    return true;
}

}  // namespace

QSet<QString> takeIds(const ProjectData& data) {
    QSet<QString> ids;
    for (const Segment& s : data.segments)
        for (const SegmentTake& t : s.takes)
            ids.insert(t.id);
    return ids;
}

bool readProjectFile(const QString& path, ProjectData* out, ProjectFileInfo* info, QString* error) {
    Reader r(path, error);
    const QFileInfo file(path);
    if (!file.exists())
        return r.problem({}, ProjectFile::tr("the file does not exist"));
    if (!file.isFile())
        return r.problem({}, ProjectFile::tr("not a regular file"));
    if (file.size() > ProjectModel::kMaxFileBytes)
        return r.problem({}, ProjectFile::tr("the file is %1 MiB; a project file is at most %2 MiB")
                                 .arg(double(file.size()) / (1 << 20), 0, 'f', 1)
                                 .arg(ProjectModel::kMaxFileBytes >> 20));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return r.problem({}, ProjectFile::tr("cannot read it: %1").arg(f.errorString()));
    const QByteArray bytes = f.read(ProjectModel::kMaxFileBytes + 1);
    if (bytes.size() > ProjectModel::kMaxFileBytes)
        return r.problem({}, ProjectFile::tr("the file grew past %1 MiB while being read").arg(ProjectModel::kMaxFileBytes >> 20));
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError)
        return r.problem({}, ProjectFile::tr("not valid JSON (%1 at byte %2): the file is damaged or was cut off")
                                 .arg(parse.errorString()).arg(parse.offset));
    if (!doc.isObject())
        return r.problem({}, ProjectFile::tr("not a Reef project (the JSON is not an object)"));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != QStringLiteral("reef-project"))
        return r.problem({}, ProjectFile::tr("not a Reef project (\"format\" is not \"reef-project\")"));
    qint64 v = 0;
    if (!r.integer(root, "version", {}, 0, std::numeric_limits<int>::max(), &v, true))
        return false;
    if (v > kProjectFormatVersion)
        return r.problem({}, ProjectFile::tr("written by a newer Reef (project format version %1); this Reef reads versions 1 to %2")
                                 .arg(v).arg(kProjectFormatVersion));
    if (v < 1)
        return r.problem({}, ProjectFile::tr("unknown project format version %1").arg(v));
    ProjectData data;
    QString audioDir;
    r.setSamplingKeys(v == 2 ? SamplingKeys::LegacyCamelCase : SamplingKeys::Engine);
    if (!(v == 1 ? readVersion1(r, root, &data) : readVersion2(r, path, root, &data, &audioDir)))
        return false;
    *out = std::move(data);
    if (info)
        *info = {int(v), audioDir};
    return true;
}

bool writeProjectFile(const QString& path, const ProjectData& data, const QSet<QString>& alreadyThere, QString* error) {
    const QFileInfo info(path);
    if (!info.absoluteDir().exists())
        return fail(error, ProjectFile::tr("cannot save %1: the folder %2 does not exist").arg(path, info.absolutePath()));
    const QString dirPath = ProjectModel::audioDirFor(info.absoluteFilePath());
    const QFileInfo dirInfo(dirPath);
    if (dirInfo.exists() && !dirInfo.isDir())
        return fail(error, ProjectFile::tr("cannot save %1: %2 is in the way of its audio folder").arg(path, dirPath));
    if (!dirInfo.exists() && !QDir().mkdir(dirPath))
        return fail(error, ProjectFile::tr("cannot save %1: cannot create the audio folder %2").arg(path, dirPath));
    const QDir dir(dirPath);

    // 1. Audio first: the JSON never names a file that is not complete on disk.
    QSet<QString> referenced;
    for (const Segment& s : data.segments) {
        for (const SegmentTake& t : s.takes) {
            const QString name = takeFileName(t);
            referenced.insert(name);
            const bool hasCodes = t.codes.n_frames > 0;
            if (hasCodes)
                referenced.insert(codesFileName(t));
            if (alreadyThere.contains(t.id) && QFileInfo::exists(dir.filePath(name)) &&
                (!hasCodes || QFileInfo::exists(dir.filePath(codesFileName(t)))))
                continue;
            try {
                audio::write_wav(dir.filePath(name).toStdString(), t.audio, kSampleRate, 1, audio::WavFormat::Float32);
            } catch (const audio::AudioError& e) {
                return fail(error, ProjectFile::tr("cannot save %1: %2").arg(path, QString::fromStdString(e.what())));
            }
            QString why;
            if (hasCodes && !writeCodesFile(dir.filePath(codesFileName(t)), t.codes, &why))
                return fail(error, ProjectFile::tr("cannot save %1: %2").arg(path, why));
        }
    }

    // 2. The JSON, atomically.
    const QByteArray json = toJson(data, dirInfo.fileName());
    if (json.size() > ProjectModel::kMaxFileBytes)
        return fail(error, ProjectFile::tr("cannot save %1: the project file would be %2 MiB, more than the %3 MiB Reef opens")
                               .arg(path).arg(json.size() >> 20).arg(ProjectModel::kMaxFileBytes >> 20));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size() || !f.commit())
        return fail(error, ProjectFile::tr("cannot save %1: %2").arg(path, f.errorString()));

    // 3. Only now are files of dropped takes unreferenced by the file on disk.
    const QStringList present = dir.entryList({QStringLiteral("*.wav"), QStringLiteral("*.codes")}, QDir::Files);
    for (const QString& name : present)
        if ((audioNamePattern().match(name).hasMatch() || codesNamePattern().match(name).hasMatch()) &&
            !referenced.contains(name))
            QFile::remove(dir.filePath(name));
    return true;
}

}  // namespace reef::ui
