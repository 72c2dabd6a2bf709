#include "qt/voice_list_model.h"

#include <QDataStream>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QUuid>
#include <algorithm>

#include "qt/reference_audio.h"

namespace reef::ui {
namespace {

constexpr char kMagic[8] = {'R', 'E', 'E', 'F', 'C', 'O', 'D', 'E'};
constexpr int kMaxCodebooks = 64;
constexpr int kMaxFrames = 1 << 20;

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

}  // namespace

bool writeCodesFile(const QString& path, const Codes& codes, QString* error) {
    if (codes.data.size() != size_t(codes.n_codebooks) * size_t(codes.n_frames))
        return fail(error, QStringLiteral("codes for %1 have %2 values, expected %3 x %4")
                               .arg(path).arg(codes.data.size()).arg(codes.n_codebooks).arg(codes.n_frames));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    QDataStream out(&f);
    out.setByteOrder(QDataStream::LittleEndian);
    out.writeRawData(kMagic, sizeof(kMagic));
    out << qint32(codes.n_codebooks) << qint32(codes.n_frames);
    for (int32_t v : codes.data)
        out << qint32(v);
    if (!f.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool readCodesFile(const QString& path, Codes* codes, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    QDataStream in(&f);
    in.setByteOrder(QDataStream::LittleEndian);
    char magic[8] = {};
    qint32 rows = 0, frames = 0;
    if (in.readRawData(magic, 8) != 8 || !std::equal(magic, magic + 8, kMagic))
        return fail(error, QStringLiteral("%1 is not a Reef codes file").arg(path));
    in >> rows >> frames;
    if (rows <= 0 || rows > kMaxCodebooks || frames < 0 || frames > kMaxFrames)
        return fail(error, QStringLiteral("%1 has an implausible shape (%2, %3)").arg(path).arg(rows).arg(frames));
    Codes c;
    c.n_codebooks = rows;
    c.n_frames = frames;
    c.data.resize(size_t(rows) * size_t(frames));
    for (int32_t& v : c.data) {
        qint32 x = 0;
        in >> x;
        v = x;
    }
    if (in.status() != QDataStream::Ok)
        return fail(error, QStringLiteral("%1 is truncated").arg(path));
    *codes = std::move(c);
    return true;
}

VoiceListModel::VoiceListModel(const QString& rootDir, QObject* parent) : QAbstractListModel(parent), m_root(rootDir) {
    reload();
}

QString VoiceListModel::voiceDir(const QString& id) const { return QDir(m_root).filePath(id); }

void VoiceListModel::reload() {
    beginResetModel();
    m_voices.clear();
    QDir root(m_root);
    const QStringList dirs = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& id : dirs) {
        QFile meta(QDir(root.filePath(id)).filePath(QStringLiteral("voice.json")));
        if (!meta.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(meta.readAll()).object();
        Voice v;
        v.id = id;
        v.name = o.value(QStringLiteral("name")).toString(id);
        v.transcript = o.value(QStringLiteral("transcript")).toString();
        v.clipPath = QDir(root.filePath(id)).filePath(o.value(QStringLiteral("clip")).toString());
        const QString codesPath = QDir(root.filePath(id)).filePath(QStringLiteral("codes.bin"));
        if (QFileInfo::exists(codesPath))
            readCodesFile(codesPath, &v.codes, nullptr);   // a broken cache is re-encoded later
        m_voices.push_back(std::move(v));
    }
    std::sort(m_voices.begin(), m_voices.end(),
              [](const Voice& a, const Voice& b) { return a.name.localeAwareCompare(b.name) < 0; });
    endResetModel();
}

int VoiceListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_voices.size()); }

QVariant VoiceListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Voice& v = m_voices[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return v.name;
    case Qt::ToolTipRole:
        return v.transcript + (v.hasCodes() ? tr("\n(codes cached: %1 frames)").arg(v.codes.n_frames)
                                            : tr("\n(not encoded yet)"));
    case IdRole: return v.id;
    case TranscriptRole: return v.transcript;
    case ClipPathRole: return v.clipPath;
    case HasCodesRole: return v.hasCodes();
    default: return {};
    }
}

bool VoiceListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    return renameVoice(index.row(), value.toString());
}

Qt::ItemFlags VoiceListModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> VoiceListModel::roleNames() const {
    QHash<int, QByteArray> r = QAbstractListModel::roleNames();
    r[IdRole] = "voiceId";
    r[TranscriptRole] = "transcript";
    r[ClipPathRole] = "clipPath";
    r[HasCodesRole] = "hasCodes";
    return r;
}

int VoiceListModel::rowOfId(const QString& id) const {
    for (size_t i = 0; i < m_voices.size(); ++i)
        if (m_voices[i].id == id)
            return int(i);
    return -1;
}

ReferenceVoice VoiceListModel::reference(int row) const {
    const Voice& v = m_voices[size_t(row)];
    ReferenceVoice r;
    r.text = v.transcript.toStdString();
    r.audio_path = v.clipPath.toStdString();
    if (v.hasCodes())
        r.codes = v.codes;
    return r;
}

bool VoiceListModel::writeMeta(const Voice& v, QString* error) const {
    QJsonObject o;
    o[QStringLiteral("name")] = v.name;
    o[QStringLiteral("transcript")] = v.transcript;
    o[QStringLiteral("clip")] = QFileInfo(v.clipPath).fileName();
    QSaveFile f(QDir(voiceDir(v.id)).filePath(QStringLiteral("voice.json")));
    if (!f.open(QIODevice::WriteOnly))
        return fail(error, tr("cannot write the voice's metadata in %1: %2").arg(voiceDir(v.id), f.errorString()));
    f.write(QJsonDocument(o).toJson());
    if (!f.commit())
        return fail(error, tr("cannot write the voice's metadata in %1: %2").arg(voiceDir(v.id), f.errorString()));
    return true;
}

QString VoiceListModel::addVoice(const QString& name, const QString& clipPath, const QString& transcript,
                                 QString* error) {
    const QFileInfo clip(clipPath);
    if (!clip.isFile()) {
        fail(error, tr("reference clip not found: %1").arg(clipPath));
        return {};
    }
    if (name.trimmed().isEmpty()) {
        fail(error, tr("a voice needs a name"));
        return {};
    }
    // Decode the clip now, so a corrupt or silent file is refused with its name and the library
    // stays unchanged (rather than failing later, at encode time, with a half-added voice).
    QString why;
    if (loadMono44k(clipPath, &why).empty()) {
        fail(error, tr("cannot use %1 as a reference clip: %2").arg(clip.fileName(), why));
        return {};
    }
    Voice v;
    v.id = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss-")) +
           QUuid::createUuid().toString(QUuid::Id128).left(8);
    v.name = name.trimmed();
    v.transcript = transcript.trimmed();
    const QString dir = voiceDir(v.id);
    if (!QDir().mkpath(dir)) {
        fail(error, tr("cannot create the voice folder %1").arg(dir));
        return {};
    }
    v.clipPath = QDir(dir).filePath(QStringLiteral("reference.") + clip.suffix().toLower());
    if (!QFile::copy(clipPath, v.clipPath) || !writeMeta(v, error)) {
        if (error && error->isEmpty())
            *error = tr("cannot copy %1 into the voice library").arg(clipPath);
        QDir(dir).removeRecursively();
        return {};
    }
    const auto pos = std::lower_bound(m_voices.begin(), m_voices.end(), v, [](const Voice& a, const Voice& b) {
        return a.name.localeAwareCompare(b.name) < 0;
    });
    const int row = int(pos - m_voices.begin());
    beginInsertRows({}, row, row);
    m_voices.insert(pos, v);
    endInsertRows();
    return v.id;
}

bool VoiceListModel::renameVoice(int row, const QString& name, QString* error) {
    if (row < 0 || row >= rowCount())
        return fail(error, tr("no voice at row %1").arg(row));
    if (name.trimmed().isEmpty())
        return fail(error, tr("a voice needs a name"));
    Voice updated = m_voices[size_t(row)];
    updated.name = name.trimmed();
    if (!writeMeta(updated, error))
        return false;
    m_voices[size_t(row)].name = updated.name;
    Q_EMIT dataChanged(index(row), index(row), {Qt::DisplayRole, Qt::EditRole});
    return true;
}

bool VoiceListModel::setTranscript(int row, const QString& transcript, QString* error) {
    if (row < 0 || row >= rowCount())
        return fail(error, tr("no voice at row %1").arg(row));
    Voice updated = m_voices[size_t(row)];
    updated.transcript = transcript.trimmed();
    if (!writeMeta(updated, error))
        return false;
    m_voices[size_t(row)].transcript = updated.transcript;
    Q_EMIT dataChanged(index(row), index(row), {TranscriptRole, Qt::ToolTipRole});
    return true;
}

bool VoiceListModel::removeVoice(int row, QString* error) {
    if (row < 0 || row >= rowCount())
        return fail(error, tr("no voice at row %1").arg(row));
    const QString dir = voiceDir(m_voices[size_t(row)].id);
    if (!QDir(dir).removeRecursively())
        return fail(error, tr("cannot delete %1").arg(dir));
    beginRemoveRows({}, row, row);
    m_voices.erase(m_voices.begin() + row);
    endRemoveRows();
    return true;
}

bool VoiceListModel::setCodes(const QString& id, const Codes& codes, QString* error) {
    const int row = rowOfId(id);
    if (row < 0)
        return fail(error, tr("voice %1 no longer exists").arg(id));
    if (!writeCodesFile(QDir(voiceDir(id)).filePath(QStringLiteral("codes.bin")), codes, error))
        return false;
    m_voices[size_t(row)].codes = codes;
    Q_EMIT dataChanged(index(row), index(row), {HasCodesRole, Qt::ToolTipRole});
    return true;
}

}  // namespace reef::ui
