// The pronunciation dictionary: whole-word replacements applied to the text before it is tokenized
// ("Reef" -> "Rief", "SQL" -> "sequel"), shown and edited as a two-column table, kept as a JSON file.
#pragma once
#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace reef::ui {

class PronunciationDictionary : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Word, Replacement, ColumnCount };
    static constexpr int kFileVersion = 1;

    explicit PronunciationDictionary(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Word: trimmed, not empty and not another row's word (false otherwise). Replacement: anything,
    // empty included (the word is then dropped from the text).
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Appends (word, replacement) and returns its row; a word already present (as matching sees it)
    // gets the new replacement and its row is returned; an empty word returns -1.
    int addEntry(const QString& word, const QString& replacement);
    void removeEntry(int row);
    QString word(int row) const { return m_entries[size_t(row)].word; }
    QString replacement(int row) const { return m_entries[size_t(row)].replacement; }

    // Off by default: "reef", "Reef" and "REEF" all match the word "Reef".
    bool caseSensitive() const { return m_caseSensitive; }
    void setCaseSensitive(bool on);

    // One left-to-right pass: at each position the longest matching word wins, its replacement is
    // copied out and matching resumes after the word, so a replacement is never replaced again.
    // Whole words: the characters just outside a match must not be letters, digits, marks or '_'
    // ("Reef" is not found in "Reefs" or "reef_2", but is in "coral-reef" and "(reef)"); only the
    // neighbours are tested, so words like "C++" or ".NET" work. A word that starts (ends) with a
    // CJK character (Han, Hiragana, Katakana, Hangul) needs no boundary on that side: CJK text has
    // no spaces, so "東京" is found in "東京都に".
    QString apply(const QString& text) const;

    // {"format": "reef-pronunciation-dictionary", "version": 1, "caseSensitive": false,
    //  "entries": [{"word": "...", "replacement": "..."}, ...]}
    // load: false with *error naming the file and the problem (unreadable, not JSON, another kind
    // of file, a newer version, a bad entry); the dictionary is then unchanged. save: atomic.
    bool load(const QString& path, QString* error);
    bool save(const QString& path, QString* error) const;

Q_SIGNALS:
    void changed();   // any edit, load or option change

private:
    struct Entry {
        QString word;
        QString replacement;
    };
    int findWord(const QString& word, int except = -1) const;

    std::vector<Entry> m_entries;
    bool m_caseSensitive = false;
};

}  // namespace reef::ui
