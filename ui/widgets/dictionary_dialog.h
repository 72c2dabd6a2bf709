// Text → Pronunciation dictionary: edit the whole-word replacements in a table, try them on a line
// of text, and see at once what the model will be given. Edits go straight into the dictionary
// model; the main window saves it whenever it changes.
#pragma once
#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace reef::ui {

class PronunciationDictionary;

class DictionaryDialog : public QDialog {
    Q_OBJECT
public:
    explicit DictionaryDialog(PronunciationDictionary& dictionary, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }
    QLineEdit* tryLine() const { return m_try; }
    QString previewText() const;

private:
    void addRow();
    void removeSelected();
    void updatePreview();

    PronunciationDictionary& m_dictionary;
    QTableView* m_table = nullptr;
    QCheckBox* m_caseSensitive = nullptr;
    QLineEdit* m_try = nullptr;
    QLabel* m_preview = nullptr;
};

}  // namespace reef::ui
