#include "widgets/voice_library_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "qt/voice_list_model.h"

namespace reef::ui {

VoiceLibraryDialog::VoiceLibraryDialog(VoiceListModel& voices, QWidget* parent) : QDialog(parent), m_voices(voices) {
    setWindowTitle(tr("Voice library"));
    resize(640, 420);
    m_list = new QListView;
    m_list->setModel(&voices);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_transcript = new QPlainTextEdit;
    m_transcript->setPlaceholderText(tr("Transcript: exactly what is said in the reference clip"));
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto* add = new QPushButton(tr("Add clip…"));
    auto* remove = new QPushButton(tr("Delete"));
    auto* save = new QPushButton(tr("Save transcript"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);

    auto* right = new QVBoxLayout;
    right->addWidget(new QLabel(tr("Transcript")));
    right->addWidget(m_transcript, 1);
    right->addWidget(save);
    right->addWidget(m_status);
    auto* top = new QHBoxLayout;
    top->addWidget(m_list, 1);
    top->addLayout(right, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    row->addWidget(buttons);
    auto* v = new QVBoxLayout(this);
    v->addWidget(new QLabel(tr("Reference clips give the model a voice to imitate; double-click a name to rename. "
                               "Codes are computed once by the codec and cached on disk.")));
    v->addLayout(top, 1);
    v->addLayout(row);

    connect(add, &QPushButton::clicked, this, &VoiceLibraryDialog::addInteractive);
    connect(remove, &QPushButton::clicked, this, &VoiceLibraryDialog::removeSelected);
    connect(save, &QPushButton::clicked, this, &VoiceLibraryDialog::saveTranscript);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &VoiceLibraryDialog::selectionChanged);
    connect(&voices, &QAbstractItemModel::dataChanged, this, &VoiceLibraryDialog::selectionChanged);
}

QString VoiceLibraryDialog::statusText() const { return m_status->text(); }

int VoiceLibraryDialog::currentRow() const {
    const QModelIndex i = m_list->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void VoiceLibraryDialog::selectionChanged() {
    const int row = currentRow();
    if (row < 0) {
        m_transcript->clear();
        m_status->clear();
        return;
    }
    const Voice& v = m_voices.voice(row);
    m_transcript->setPlainText(v.transcript);
    m_status->setText(v.hasCodes() ? tr("Codes cached: %1 frames (%2 s).").arg(v.codes.n_frames).arg(v.codes.n_frames / 21.533, 0, 'f', 1)
                                   : tr("Not encoded yet: it is encoded once a model with a codec is loaded."));
}

QString VoiceLibraryDialog::addVoice(const QString& name, const QString& clipPath, const QString& transcript,
                                     QString* error) {
    QString why;
    const QString id = m_voices.addVoice(name, clipPath, transcript, &why);
    if (!id.isEmpty()) {
        m_list->setCurrentIndex(m_voices.index(m_voices.rowOfId(id)));
        Q_EMIT voiceAdded(id);
    } else {
        m_status->setText(tr("Not added: %1").arg(why));   // also visible after the warning box closes
    }
    if (error)
        *error = why;
    return id;
}

void VoiceLibraryDialog::addInteractive() {
    const QString clip = QFileDialog::getOpenFileName(this, tr("Reference clip"), {},
                                                      tr("Audio (*.wav *.flac *.ogg *.mp3 *.aiff);;All files (*)"));
    if (clip.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Voice name"), tr("Name:"), QLineEdit::Normal,
                                               QFileInfo(clip).completeBaseName(), &ok);
    if (!ok)
        return;
    const QString transcript = QInputDialog::getMultiLineText(this, tr("Transcript"),
                                                              tr("What is said in the clip:"), {}, &ok);
    if (!ok)
        return;
    QString error;
    if (addVoice(name, clip, transcript, &error).isEmpty())
        QMessageBox::warning(this, tr("Cannot add the voice"), error);
}

void VoiceLibraryDialog::removeSelected() {
    const int row = currentRow();
    if (row < 0)
        return;
    if (QMessageBox::question(this, tr("Delete voice"), tr("Delete \"%1\" and its cached codes?").arg(m_voices.voice(row).name)) !=
        QMessageBox::Yes)
        return;
    QString error;
    if (!m_voices.removeVoice(row, &error))
        QMessageBox::warning(this, tr("Cannot delete the voice"), error);
}

void VoiceLibraryDialog::saveTranscript() {
    const int row = currentRow();
    QString error;
    if (row >= 0 && !m_voices.setTranscript(row, m_transcript->toPlainText(), &error))
        QMessageBox::warning(this, tr("Cannot save the transcript"), error);
}

}  // namespace reef::ui
