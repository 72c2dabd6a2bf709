#include "qt/project.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUuid>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "qt/pause_markup.h"
#include "qt/project_file.h"

namespace reef::ui {
namespace {

QString newId() { return QUuid::createUuid().toString(QUuid::WithoutBraces); }

Segment makeSegment(const QString& text) {
    Segment s;
    s.id = newId();
    s.text = text;
    return s;
}

// The first and last code points of a string, for choosing the joint of a merge.
char32_t firstCodePoint(const QString& s) { return s.isEmpty() ? 0 : s.toUcs4().constFirst(); }
char32_t lastCodePoint(const QString& s) { return s.isEmpty() ? 0 : s.toUcs4().constLast(); }

}  // namespace

SegmentTake takeFromResult(const SynthesisRequest& request, const SynthesisResult& result, const QString& voice) {
    SegmentTake t;
    t.created = QDateTime::currentDateTimeUtc();
    t.text = QString::fromStdString(request.text);
    t.voice = voice;
    t.sampling = request.sampling;
    t.metrics = result.metrics;
    t.audio = result.audio;
    t.codes = result.codes;
    return t;
}

SegmentTake redecodedTake(const SegmentTake& old, std::vector<float> audio, const QString& madeWith,
                          const QString& modelHash) {
    SegmentTake t = old;
    t.id.clear();
    t.created = QDateTime::currentDateTimeUtc();
    t.audio = std::move(audio);
    t.madeWith = madeWith;
    t.modelHash = modelHash;
    t.metrics = {};
    t.metrics.frames = old.codes.n_frames;
    t.metrics.audio_seconds = double(t.audio.size()) / kSampleRate;
    return t;
}

ProjectModel::ProjectModel(QObject* parent) : QAbstractListModel(parent) {
    // Connected first, so the speakers are dropped before any view asks again.
    const auto drop = [this] { m_speakers.reset(); };
    connect(this, &QAbstractItemModel::dataChanged, this, drop);
    connect(this, &QAbstractItemModel::rowsInserted, this, drop);
    connect(this, &QAbstractItemModel::rowsRemoved, this, drop);
    connect(this, &QAbstractItemModel::modelReset, this, drop);
}

int ProjectModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : segmentCount(); }

QVariant ProjectModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Segment& s = segment(index.row());
    const SegmentState state = !s.hasAudio()          ? SegmentState::NoAudio
                               : isStale(index.row()) ? SegmentState::Stale
                                                      : SegmentState::HasAudio;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return s.text;
    case Qt::ToolTipRole:
        return state == SegmentState::NoAudio ? tr("not generated yet")
               : state == SegmentState::Stale
                   ? (s.isStale() ? tr("the text changed since take %1 was made").arg(s.currentTake + 1)
                                  : tr("the speaker's voice changed since take %1 was made").arg(s.currentTake + 1))
                                              : tr("take %1 of %2").arg(s.currentTake + 1).arg(s.takes.size());
    case IdRole: return s.id;
    case StateRole: return int(state);
    case TakeCountRole: return int(s.takes.size());
    case CurrentTakeRole: return s.currentTake;
    case DurationRole:
        return s.hasAudio() ? double(s.takes[size_t(s.currentTake)].audio.size()) / kSampleRate : 0.0;
    case VoiceRole: return s.voice;
    case SpeakerRole: return speakerOf(index.row());
    case ChapterRole: return s.chapter;
    case OtherModelRole: {
        if (!s.hasAudio() || m_currentModelHash.isEmpty())
            return false;
        const QString& made = s.takes[size_t(s.currentTake)].modelHash;
        return !made.isEmpty() && made != m_currentModelHash;
    }
    default: return {};
    }
}

bool ProjectModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    return setSegmentText(index.row(), value.toString());
}

Qt::ItemFlags ProjectModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> ProjectModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "segmentId");
    names.insert(StateRole, "state");
    names.insert(TakeCountRole, "takeCount");
    names.insert(CurrentTakeRole, "currentTake");
    names.insert(DurationRole, "duration");
    names.insert(VoiceRole, "voice");
    names.insert(SpeakerRole, "speaker");
    names.insert(ChapterRole, "chapter");
    names.insert(OtherModelRole, "otherModel");
    return names;
}

void ProjectModel::setModified(bool modified) {
    if (m_modified == modified)
        return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

void ProjectModel::rowChanged(int row) {
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i);
    setModified(true);
}

void ProjectModel::newProject(const QString& title, const QString& text, SplitMode mode, int maxChars) {
    newProjectFromChapters(title, {{QString(), text}}, mode, maxChars);
}

void ProjectModel::newProjectFromChapters(const QString& title, const QList<EpubChapter>& chapters, SplitMode mode,
                                          int maxChars) {
    ProjectData doc;
    doc.title = title;
    doc.defaultVoice = m_doc.defaultVoice;
    for (const EpubChapter& chapter : chapters) {
        bool first = true;
        for (const TextPiece& piece : splitIntoPieces(chapter.text, mode, std::min(maxChars, kMaxTextChars))) {
            if (int(doc.segments.size()) == kMaxSegments)
                break;   // beyond what a project file may hold; the pieces are ~400 characters, so ~40 MB of text
            doc.segments.push_back(makeSegment(piece.text));
            doc.segments.back().paragraphEnd = piece.endsParagraph;
            if (std::exchange(first, false))
                doc.segments.back().chapter = chapter.title.left(1000);
        }
    }
    beginResetModel();
    m_doc = std::move(doc);
    m_path.clear();
    m_savedAudioDir.clear();
    m_takesOnDisk.clear();
    m_loadedVersion = 0;
    endResetModel();
    Q_EMIT titleChanged(m_doc.title);
    // An unsaved document with content is modified (closing it asks); an empty one is not.
    setModified(!m_doc.segments.empty());
}

void ProjectModel::setTitle(const QString& title) {
    if (title == m_doc.title)
        return;
    m_doc.title = title.left(1000);
    Q_EMIT titleChanged(m_doc.title);
    setModified(true);
}

void ProjectModel::setDefaultVoice(const QString& voice) {
    if (voice == m_doc.defaultVoice)
        return;
    m_doc.defaultVoice = voice.left(1000);
    setModified(true);
}

QString ProjectModel::effectiveVoice(int row) const {
    if (!validRow(row))
        return {};
    if (!segment(row).voice.isEmpty())
        return segment(row).voice;
    const QString cast = m_doc.cast.value(speakerOf(row));
    return cast.isEmpty() ? m_doc.defaultVoice : cast;
}

namespace {

// "<|speaker:N|>" at the start (after pause marks), and in name-line mode "Name: " there.
const QRegularExpression& speakerTag() {
    static const QRegularExpression re(QStringLiteral(R"(^\s*(?:\[[^\]]*\]\s*)*<\|speaker:([^|<>]{1,64})\|>)"));
    return re;
}
const QRegularExpression& nameLine() {
    static const QRegularExpression re(QStringLiteral(R"(^\s*(?:\[[^\]]*\]\s*)*(\p{Lu}[\p{L}\p{N} .'’-]{0,31}):\s+)"));
    return re;
}

}  // namespace

QStringList ProjectModel::speakerColumn(bool nameLines) const {
    // A tag names the speaker of its segment and the ones after it; a chapter starts without one.
    QStringList column;
    column.reserve(segmentCount());
    QString current;
    for (int r = 0; r < segmentCount(); ++r) {
        const QString& text = segment(r).text;
        if (const QRegularExpressionMatch m = speakerTag().match(text); m.hasMatch())
            current = m.captured(1).trimmed();
        else if (const QRegularExpressionMatch n = nameLines ? nameLine().match(text) : QRegularExpressionMatch();
                 n.hasMatch())
            current = n.captured(1).trimmed();
        else if (!segment(r).chapter.isEmpty())
            current.clear();
        column << current;
    }
    return column;
}

const QStringList& ProjectModel::cachedSpeakers() const {
    if (!m_speakers)
        m_speakers = speakerColumn(m_doc.nameLines);
    return *m_speakers;
}

QString ProjectModel::speakerOf(int row) const { return validRow(row) ? cachedSpeakers()[row] : QString(); }

QString ProjectModel::spokenTextOf(int row) const {
    if (!validRow(row))
        return {};
    QString text = segment(row).text;
    if (m_doc.nameLines && !speakerTag().match(text).hasMatch())
        if (const QRegularExpressionMatch m = nameLine().match(text); m.hasMatch())
            text.remove(m.capturedStart(1), m.capturedEnd(0) - m.capturedStart(1));
    return spokenText(text);
}

void ProjectModel::setNameLines(bool on) {
    if (m_doc.nameLines == on)
        return;
    m_doc.nameLines = on;
    allRowsChanged();
    setModified(true);
}

QStringList ProjectModel::speakers(bool nameLines) const {
    const QStringList column = nameLines == m_doc.nameLines ? cachedSpeakers() : speakerColumn(nameLines);
    QStringList out;
    for (const QString& s : column)
        if (!s.isEmpty() && !out.contains(s))
            out << s;
    return out;
}

void ProjectModel::allRowsChanged(const QList<int>& roles) {
    if (segmentCount() > 0)
        Q_EMIT dataChanged(index(0), index(segmentCount() - 1), roles);
}

void ProjectModel::setCastVoice(const QString& speaker, const QString& voice) {
    if (speaker.isEmpty() || speaker.size() > 64 || voice.size() > 1000 || m_doc.cast.value(speaker) == voice)
        return;
    if (voice.isEmpty())
        m_doc.cast.remove(speaker);
    else
        m_doc.cast.insert(speaker, voice);
    allRowsChanged();   // every row may change state (their speaker's voice, hence stale or not)
    setModified(true);
}

QStringList taggedSpeakers(const QString& text) {
    static const QRegularExpression tag(QStringLiteral(R"(<\|speaker:(\d{1,9})\|>)"));
    QStringList out;
    for (QRegularExpressionMatchIterator it = tag.globalMatch(text); it.hasNext();)
        if (const QString n = it.next().captured(1); !out.contains(n))
            out << n;
    return out;
}

ReferenceVoice speakerReference(ReferenceVoice reference, const QString& speaker) {
    reference.text = "<|speaker:" + speaker.toStdString() + "|>" + reference.text;
    return reference;
}

bool speaksSeveralVoices(const ModelInfo& model) { return model.model_type == "fish_qwen3_omni"; }

QMap<QString, QString> ProjectModel::jointVoices(int row) const {
    if (!m_doc.jointSpeakers || !m_severalVoices || !validRow(row) || !segment(row).voice.isEmpty())
        return {};
    QMap<QString, QString> voices;
    for (const QString& speaker : taggedSpeakers(segment(row).text))
        if (const QString voice = m_doc.cast.value(speaker); !voice.isEmpty())
            voices.insert(speaker, voice);
    return voices.size() >= 2 ? voices : QMap<QString, QString>();
}

void ProjectModel::setJointSpeakers(bool on) {
    if (m_doc.jointSpeakers == on)
        return;
    m_doc.jointSpeakers = on;
    allRowsChanged();   // segments with several speakers may become stale
    setModified(true);
}

void ProjectModel::setModelSpeaksSeveralVoices(bool on) {
    if (m_severalVoices == on)
        return;
    m_severalVoices = on;
    if (m_doc.jointSpeakers)
        allRowsChanged();
}

bool ProjectModel::isStale(int row) const {
    if (!validRow(row))
        return false;
    const Segment& s = segment(row);
    if (s.isStale())
        return true;
    // Several speakers in one request: stale when the voices would now differ, be one, or be several.
    if (s.hasAudio())
        if (const QMap<QString, QString> joint = jointVoices(row);
            !joint.isEmpty() || !s.takes[size_t(s.currentTake)].castVoices.isEmpty())
            return s.takes[size_t(s.currentTake)].castVoices != joint;
    // A cast voice that changed: only for segments that take their voice from the cast.
    if (!s.hasAudio() || !s.voice.isEmpty() || m_doc.cast.isEmpty())
        return false;
    const QString cast = m_doc.cast.value(speakerOf(row));
    return !cast.isEmpty() && s.takes[size_t(s.currentTake)].voice != cast;
}

void ProjectModel::setCurrentModelHash(const QString& hash) {
    if (m_currentModelHash == hash)
        return;
    m_currentModelHash = hash;
    allRowsChanged({OtherModelRole});
}

int ProjectModel::rowForId(const QString& id) const {
    for (int r = 0; r < segmentCount(); ++r)
        if (m_doc.segments[size_t(r)].id == id)
            return r;
    return -1;
}

bool ProjectModel::setSegmentText(int row, const QString& text) {
    if (!validRow(row) || text.size() > kMaxTextChars)
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    if (s.text == text)
        return true;
    s.text = text;
    rowChanged(row);
    // A pause mark inside the text ends the segment there (qt/pause_markup.h); from the last cut
    // back, so the earlier positions stay valid.
    const QList<int> cuts = innerPauseCuts(text);
    for (qsizetype k = cuts.size() - 1; k >= 0; --k)
        splitSegment(row, cuts[k]);
    return true;
}

bool ProjectModel::splitSegment(int row, int position) {
    if (!validRow(row) || segmentCount() >= kMaxSegments)
        return false;
    const QString text = segment(row).text;
    if (position <= 0 || position >= text.size())
        return false;
    if (text[position].isLowSurrogate() && text[position - 1].isHighSurrogate())
        --position;
    const QString left = text.left(position).trimmed();
    const QString right = text.mid(position).trimmed();
    if (left.isEmpty() || right.isEmpty())
        return false;
    m_doc.segments[size_t(row)].text = left;
    // The paragraph's end moves with the right part.
    Segment rightSegment = makeSegment(right);
    rightSegment.paragraphEnd = std::exchange(m_doc.segments[size_t(row)].paragraphEnd, false);
    Q_EMIT dataChanged(index(row), index(row));
    beginInsertRows({}, row + 1, row + 1);
    m_doc.segments.insert(m_doc.segments.begin() + row + 1, std::move(rightSegment));
    endInsertRows();
    setModified(true);
    return true;
}

bool ProjectModel::mergeWithNext(int row) {
    if (!validRow(row) || !validRow(row + 1))
        return false;
    const QString a = segment(row).text.trimmed();
    const QString b = segment(row + 1).text.trimmed();
    // CJK text has no spaces between sentences; everything else gets one.
    const bool cjkJoint = isCjkCodePoint(lastCodePoint(a)) || isCjkCodePoint(firstCodePoint(b));
    const QString joined = a.isEmpty() || b.isEmpty() || cjkJoint ? a + b : a + u' ' + b;
    if (joined.size() > kMaxTextChars)
        return false;
    const bool paragraphEnd = segment(row + 1).paragraphEnd;
    beginRemoveRows({}, row + 1, row + 1);
    m_doc.segments.erase(m_doc.segments.begin() + row + 1);
    endRemoveRows();
    m_doc.segments[size_t(row)].text = joined;
    m_doc.segments[size_t(row)].paragraphEnd = paragraphEnd;
    rowChanged(row);
    return true;
}

bool ProjectModel::insertSegment(int row, const QString& text) {
    if (row < 0 || row > segmentCount() || segmentCount() >= kMaxSegments || text.size() > kMaxTextChars)
        return false;
    beginInsertRows({}, row, row);
    m_doc.segments.insert(m_doc.segments.begin() + row, makeSegment(text));
    endInsertRows();
    setModified(true);
    return true;
}

bool ProjectModel::removeSegment(int row) {
    if (!validRow(row))
        return false;
    beginRemoveRows({}, row, row);
    m_doc.segments.erase(m_doc.segments.begin() + row);
    endRemoveRows();
    setModified(true);
    return true;
}

bool ProjectModel::setSegmentVoice(int row, const QString& voice) {
    if (!validRow(row) || voice.size() > 1000)
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    if (s.voice != voice) {
        s.voice = voice;
        rowChanged(row);
    }
    return true;
}

void ProjectModel::setAssembly(const AssemblySettings& settings) {
    if (m_doc.assembly == settings)
        return;
    m_doc.assembly = settings;
    setModified(true);
}

bool ProjectModel::setSegmentChapter(int row, const QString& title) {
    if (!validRow(row) || title.size() > 1000)
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    if (s.chapter != title.trimmed()) {
        s.chapter = title.trimmed();
        rowChanged(row);
    }
    return true;
}

bool ProjectModel::setSegmentSpeed(int row, double speed) {
    if (!validRow(row) || !(speed == 0.0 || (speed >= 0.5 && speed <= 2.0)))
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    if (s.speed != speed) {
        s.speed = speed;
        rowChanged(row);
    }
    return true;
}

bool ProjectModel::setSegmentSampling(int row, const std::optional<SamplingParams>& sampling) {
    if (!validRow(row))
        return false;
    m_doc.segments[size_t(row)].sampling = sampling;
    rowChanged(row);
    return true;
}

bool ProjectModel::addTake(const QString& segmentId, SegmentTake take) {
    const int row = rowForId(segmentId);
    if (row < 0 || take.audio.empty() || double(take.audio.size()) > kMaxTakeSeconds * kSampleRate ||
        take.text.size() > kMaxTextChars)
        return false;
    if (take.id.isEmpty())
        take.id = newId();
    if (!take.created.isValid())
        take.created = QDateTime::currentDateTimeUtc();
    Segment& s = m_doc.segments[size_t(row)];
    if (int(s.takes.size()) >= kMaxTakesPerSegment) {
        const int drop = s.currentTake == 0 ? 1 : 0;   // the oldest that is not current
        s.takes.erase(s.takes.begin() + drop);
    }
    s.takes.push_back(std::move(take));
    s.currentTake = int(s.takes.size()) - 1;
    rowChanged(row);
    return true;
}

bool ProjectModel::setCurrentTake(int row, int take) {
    if (!validRow(row) || take < 0 || take >= int(segment(row).takes.size()))
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    if (s.currentTake != take) {
        s.currentTake = take;
        rowChanged(row);
    }
    return true;
}

bool ProjectModel::removeTake(int row, int take) {
    if (!validRow(row) || take < 0 || take >= int(segment(row).takes.size()))
        return false;
    Segment& s = m_doc.segments[size_t(row)];
    s.takes.erase(s.takes.begin() + take);
    if (s.currentTake > take)
        --s.currentTake;   // the same take stays current
    else if (s.currentTake == take)   // the one made before it, else the next; -1 when none is left
        s.currentTake = take > 0 ? take - 1 : (s.takes.empty() ? -1 : 0);
    rowChanged(row);
    return true;
}

std::vector<float> ProjectModel::segmentAudio(int row) const {
    if (!validRow(row) || !segment(row).hasAudio())
        return {};
    const Segment& s = segment(row);
    return s.takes[size_t(s.currentTake)].audio;
}

std::vector<float> ProjectModel::renderProject(int crossfadeMs, int gapMs, QList<RenderedSpan>* spans) const {
    struct Clip {
        int row;
        const std::vector<float>* audio;
        qint64 start = 0, fadeIn = 0, fadeOut = 0;
    };
    std::vector<Clip> clips;
    for (int r = 0; r < segmentCount(); ++r)
        if (segment(r).hasAudio())
            clips.push_back({r, &segment(r).takes[size_t(segment(r).currentTake)].audio});
    const qint64 fade = std::llround(std::clamp(crossfadeMs, 0, 5000) * double(kSampleRate) / 1000.0);
    const qint64 gap = std::llround(std::clamp(gapMs, 0, 60000) * double(kSampleRate) / 1000.0);

    // Place the clips: each joint fades over n samples, at most half of either clip, so a clip's
    // fade-in and fade-out never overlap each other.
    qint64 end = 0;
    for (size_t k = 0; k < clips.size(); ++k) {
        Clip& c = clips[k];
        const qint64 len = qint64(c.audio->size());
        if (k > 0) {
            Clip& prev = clips[k - 1];
            const qint64 n = std::min({fade, qint64(prev.audio->size()) / 2, len / 2});
            prev.fadeOut = n;
            c.fadeIn = n;
            c.start = gap > 0 ? end + gap : end - n;
        }
        end = c.start + len;
    }

    std::vector<float> out(size_t(std::max<qint64>(end, 0)), 0.0f);
    constexpr double quarter = std::numbers::pi / 2;
    for (const Clip& c : clips) {
        const std::vector<float>& x = *c.audio;
        const qint64 len = qint64(x.size());
        for (qint64 i = 0; i < len; ++i) {
            double g = 1.0;
            if (i < c.fadeIn)
                g = std::sin((double(i) + 0.5) / double(c.fadeIn) * quarter);
            else if (i >= len - c.fadeOut)
                g = std::cos((double(i - (len - c.fadeOut)) + 0.5) / double(c.fadeOut) * quarter);
            out[size_t(c.start + i)] += g == 1.0 ? x[size_t(i)] : float(g * double(x[size_t(i)]));
        }
        if (spans)
            spans->append({c.row, c.start, len});
    }
    return out;
}

QList<int> ProjectModel::segmentsNeedingAudio() const {
    QList<int> rows;
    for (int r = 0; r < segmentCount(); ++r)
        if ((!segment(r).hasAudio() || isStale(r)) && !spokenTextOf(r).isEmpty())
            rows << r;   // a segment of pause marks only has nothing to say: its pause is all it is
    return rows;
}

bool ProjectModel::save(const QString& path, QString* error) {
    const QString dir = QDir::cleanPath(audioDirFor(QFileInfo(path).absoluteFilePath()));
    const QSet<QString> there = dir == m_savedAudioDir ? m_takesOnDisk : QSet<QString>();
    if (!writeProjectFile(path, m_doc, there, error))
        return false;
    m_path = path;
    m_savedAudioDir = dir;
    m_takesOnDisk = takeIds(m_doc);
    setModified(false);
    return true;
}

bool ProjectModel::load(const QString& path, QString* error) {
    ProjectData doc;
    ProjectFileInfo info;
    if (!readProjectFile(path, &doc, &info, error))
        return false;
    beginResetModel();
    m_doc = std::move(doc);
    m_path = path;
    m_loadedVersion = info.version;
    // Where the takes were read from (a renamed project keeps its old folder name in the JSON);
    // a save to another folder writes them all there.
    m_savedAudioDir = info.audioDir;
    m_takesOnDisk = info.audioDir.isEmpty() ? QSet<QString>() : takeIds(m_doc);
    endResetModel();
    Q_EMIT titleChanged(m_doc.title);
    setModified(false);
    return true;
}

}  // namespace reef::ui
