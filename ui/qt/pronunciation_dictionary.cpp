#include "qt/pronunciation_dictionary.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <algorithm>
#include <numeric>

namespace reef::ui {
namespace {

constexpr auto kFormat = "reef-pronunciation-dictionary";
constexpr qint64 kMaxFileBytes = 16 << 20;   // a dictionary is text a person wrote; refuse anything huge

bool isWordChar(char32_t c) { return QChar::isLetterOrNumber(c) || QChar::isMark(c) || c == U'_'; }

bool isCjk(char32_t c) {
    switch (QChar::script(c)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
    case QChar::Script_Hangul: return true;
    default: return false;
    }
}

// The code point starting at i (0 past the end), and the one ending just before i (0 at the start),
// so that characters outside the BMP (Han extension B, ...) are tested as themselves.
char32_t codePointAt(QStringView s, qsizetype i) {
    if (i >= s.size())
        return 0;
    if (s[i].isHighSurrogate() && i + 1 < s.size() && s[i + 1].isLowSurrogate())
        return QChar::surrogateToUcs4(s[i], s[i + 1]);
    return s[i].unicode();
}

char32_t codePointBefore(QStringView s, qsizetype i) {
    if (i <= 0)
        return 0;
    if (s[i - 1].isLowSurrogate() && i >= 2 && s[i - 2].isHighSurrogate())
        return QChar::surrogateToUcs4(s[i - 2], s[i - 1]);
    return s[i - 1].unicode();
}

char32_t lastCodePoint(QStringView s) { return codePointBefore(s, s.size()); }

QString fileError(const QString& path, const QString& why) {
    return PronunciationDictionary::tr("cannot read the pronunciation dictionary %1: %2").arg(path, why);
}

}  // namespace

PronunciationDictionary::PronunciationDictionary(QObject* parent) : QAbstractTableModel(parent) {}

int PronunciationDictionary::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_entries.size());
}
int PronunciationDictionary::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PronunciationDictionary::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const Entry& e = m_entries[size_t(index.row())];
    return index.column() == Word ? e.word : e.replacement;
}

QVariant PronunciationDictionary::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    if (section == Word)
        return tr("Word");
    if (section == Replacement)
        return tr("Replacement");
    return {};
}

Qt::ItemFlags PronunciationDictionary::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool PronunciationDictionary::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    Entry& e = m_entries[size_t(index.row())];
    if (index.column() == Word) {
        const QString word = value.toString().trimmed();
        if (word.isEmpty() || findWord(word, index.row()) >= 0)
            return false;
        if (word == e.word)
            return true;
        e.word = word;
    } else {
        const QString replacement = value.toString();
        if (replacement == e.replacement)
            return true;
        e.replacement = replacement;
    }
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    Q_EMIT changed();
    return true;
}

int PronunciationDictionary::findWord(const QString& word, int except) const {
    const Qt::CaseSensitivity cs = m_caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (int(i) != except && m_entries[i].word.compare(word, cs) == 0)
            return int(i);
    return -1;
}

int PronunciationDictionary::addEntry(const QString& word, const QString& replacement) {
    const QString w = word.trimmed();
    if (w.isEmpty())
        return -1;
    if (const int row = findWord(w); row >= 0) {
        setData(index(row, Replacement), replacement);
        return row;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_entries.push_back({w, replacement});
    endInsertRows();
    Q_EMIT changed();
    return row;
}

void PronunciationDictionary::removeEntry(int row) {
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_entries.erase(m_entries.begin() + row);
    endRemoveRows();
    Q_EMIT changed();
}

void PronunciationDictionary::setCaseSensitive(bool on) {
    if (on == m_caseSensitive)
        return;
    m_caseSensitive = on;
    Q_EMIT changed();
}

QString PronunciationDictionary::apply(const QString& text) const {
    if (m_entries.empty() || text.isEmpty())
        return text;
    const Qt::CaseSensitivity cs = m_caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    // Longest first; equal lengths keep table order (stable), so the first of two words that
    // differ only in case wins when matching ignores case.
    std::vector<size_t> order(m_entries.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return m_entries[a].word.size() > m_entries[b].word.size(); });

    const QStringView in(text);
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < in.size()) {
        const QChar first = m_caseSensitive ? in[i] : in[i].toCaseFolded();
        const Entry* hit = nullptr;
        for (size_t k : order) {
            const Entry& e = m_entries[k];
            const qsizetype len = e.word.size();
            if (len > in.size() - i || (m_caseSensitive ? e.word[0] : e.word[0].toCaseFolded()) != first)
                continue;
            if (in.mid(i, len).compare(e.word, cs) != 0)
                continue;
            if (!isCjk(codePointAt(e.word, 0)) && isWordChar(codePointBefore(in, i)))
                continue;
            if (!isCjk(lastCodePoint(e.word)) && isWordChar(codePointAt(in, i + len)))
                continue;
            hit = &e;
            break;
        }
        if (hit) {
            out += hit->replacement;
            i += hit->word.size();
        } else {
            out += in[i];
            ++i;
        }
    }
    return out;
}

bool PronunciationDictionary::load(const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = fileError(path, why);
        return false;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(f.errorString());
    if (f.size() > kMaxFileBytes)
        return fail(tr("the file is %1 MiB; a dictionary is at most %2 MiB").arg(f.size() >> 20).arg(kMaxFileBytes >> 20));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(tr("not valid JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QLatin1String("format")).toString() != QLatin1String(kFormat))
        return fail(tr("not a Reef pronunciation dictionary (no \"format\": \"%1\")").arg(QLatin1String(kFormat)));
    const QJsonValue version = root.value(QLatin1String("version"));
    if (!version.isDouble() || version.toInt() < 1)
        return fail(tr("missing or invalid \"version\""));
    if (version.toInt() > kFileVersion)
        return fail(tr("written by a newer Reef (format version %1; this one reads up to %2)")
                        .arg(version.toInt())
                        .arg(kFileVersion));
    const QJsonValue cs = root.value(QLatin1String("caseSensitive"));
    if (!cs.isUndefined() && !cs.isBool())
        return fail(tr("\"caseSensitive\" must be true or false"));
    if (!root.value(QLatin1String("entries")).isArray())
        return fail(tr("\"entries\" must be a list"));
    const QJsonArray list = root.value(QLatin1String("entries")).toArray();
    const Qt::CaseSensitivity sensitivity = cs.toBool(false) ? Qt::CaseSensitive : Qt::CaseInsensitive;
    std::vector<Entry> entries;
    for (qsizetype n = 0; n < list.size(); ++n) {
        const QJsonObject o = list[n].toObject();
        const QJsonValue w = o.value(QLatin1String("word")), r = o.value(QLatin1String("replacement"));
        if (!list[n].isObject() || !w.isString() || !r.isString() || w.toString().trimmed().isEmpty())
            return fail(tr("entry %1 needs a non-empty \"word\" and a \"replacement\" text").arg(n + 1));
        const QString word = w.toString().trimmed();
        for (const Entry& e : entries)
            if (e.word.compare(word, sensitivity) == 0)
                return fail(tr("entry %1: the word \"%2\" is already listed").arg(n + 1).arg(word));
        entries.push_back({word, r.toString()});
    }
    beginResetModel();
    m_entries = std::move(entries);
    m_caseSensitive = cs.toBool(false);
    endResetModel();
    Q_EMIT changed();
    return true;
}

bool PronunciationDictionary::save(const QString& path, QString* error) const {
    QJsonArray list;
    for (const Entry& e : m_entries)
        list.append(QJsonObject{{QStringLiteral("word"), e.word}, {QStringLiteral("replacement"), e.replacement}});
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(kFormat)},
                           {QStringLiteral("version"), kFileVersion},
                           {QStringLiteral("caseSensitive"), m_caseSensitive},
                           {QStringLiteral("entries"), list}};
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(root).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        if (error)
            *error = tr("cannot save the pronunciation dictionary to %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

}  // namespace reef::ui
