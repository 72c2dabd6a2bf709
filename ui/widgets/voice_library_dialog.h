// Manage the voice library: add a reference clip + transcript, rename (edit in place), edit the
// transcript, delete. Encoding the clip into codes is the main window's job (voiceAdded).
#pragma once
#include <QDialog>

class QListView;
class QPlainTextEdit;
class QLabel;

namespace reef::ui {

class VoiceListModel;

class VoiceLibraryDialog : public QDialog {
    Q_OBJECT
public:
    explicit VoiceLibraryDialog(VoiceListModel& voices, QWidget* parent = nullptr);
    // The non-interactive part of "Add…", also used by tests.
    QString addVoice(const QString& name, const QString& clipPath, const QString& transcript, QString* error);
    QString statusText() const;   // the line under the transcript (codes state, or why an add failed)

Q_SIGNALS:
    void voiceAdded(const QString& id);

private:
    void addInteractive();
    void removeSelected();
    void saveTranscript();
    void selectionChanged();
    int currentRow() const;

    VoiceListModel& m_voices;
    QListView* m_list = nullptr;
    QPlainTextEdit* m_transcript = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace reef::ui
