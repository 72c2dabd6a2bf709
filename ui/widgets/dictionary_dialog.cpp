#include "widgets/dictionary_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "qt/pronunciation_dictionary.h"

namespace reef::ui {

DictionaryDialog::DictionaryDialog(PronunciationDictionary& dictionary, QWidget* parent)
    : QDialog(parent), m_dictionary(dictionary) {
    setWindowTitle(tr("Pronunciation dictionary"));
    auto* intro = new QLabel(tr("Whole words in your text are replaced before the model reads it: write a word "
                                "the way it should sound (\"SQL\" → \"sequel\"). Chinese and Japanese words match "
                                "inside a sentence too."));
    intro->setWordWrap(true);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("dictionaryTable"));
    m_table->setAccessibleName(tr("Replacements"));
    m_table->setModel(&dictionary);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();

    auto* add = new QPushButton(tr("&Add"));
    auto* remove = new QPushButton(tr("&Remove"));
    m_caseSensitive = new QCheckBox(tr("Match &case"));
    m_caseSensitive->setChecked(dictionary.caseSensitive());
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    row->addWidget(m_caseSensitive);

    m_try = new QLineEdit;
    m_try->setObjectName(QStringLiteral("dictionaryTry"));
    m_try->setPlaceholderText(tr("Type a sentence to try the dictionary"));
    m_preview = new QLabel;
    m_preview->setObjectName(QStringLiteral("dictionaryPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* tryForm = new QFormLayout;
    tryForm->addRow(tr("&Try:"), m_try);
    tryForm->addRow(tr("Spoken as:"), m_preview);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addWidget(m_table, 1);
    v->addLayout(row);
    v->addLayout(tryForm);
    v->addWidget(buttons);

    connect(add, &QPushButton::clicked, this, &DictionaryDialog::addRow);
    connect(remove, &QPushButton::clicked, this, &DictionaryDialog::removeSelected);
    connect(m_caseSensitive, &QCheckBox::toggled, &dictionary, &PronunciationDictionary::setCaseSensitive);
    connect(m_try, &QLineEdit::textChanged, this, &DictionaryDialog::updatePreview);
    connect(&dictionary, &PronunciationDictionary::changed, this, &DictionaryDialog::updatePreview);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(520, 460);
}

QString DictionaryDialog::previewText() const { return m_preview->text(); }

void DictionaryDialog::addRow() {
    // A placeholder the user edits at once, numbered past the words already there.
    auto taken = [this](const QString& w) {
        for (int r = 0; r < m_dictionary.rowCount(); ++r)
            if (m_dictionary.word(r).compare(w, Qt::CaseInsensitive) == 0)
                return true;
        return false;
    };
    QString word = tr("word");
    for (int n = 2; taken(word); ++n)
        word = tr("word %1").arg(n);
    const int row = m_dictionary.addEntry(word, word);   // identity until edited: changes no text
    if (row < 0)
        return;
    const QModelIndex cell = m_dictionary.index(row, PronunciationDictionary::Word);
    m_table->setCurrentIndex(cell);
    m_table->edit(cell);
}

void DictionaryDialog::removeSelected() {
    const QModelIndex current = m_table->currentIndex();
    if (current.isValid())
        m_dictionary.removeEntry(current.row());
}

void DictionaryDialog::updatePreview() { m_preview->setText(m_dictionary.apply(m_try->text())); }

}  // namespace reef::ui
