// The text editor with speaker-tag help and sample texts, the voice picker, Generate / Stop and
// the progress line (frames, elapsed, ETA, × real time).
#pragma once
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace reef::ui {

class VoiceListModel;

class SynthesisPanel : public QWidget {
    Q_OBJECT
public:
    explicit SynthesisPanel(VoiceListModel& voices, QWidget* parent = nullptr);

    QString text() const;
    int voiceRow() const;   // -1 = no reference voice
    QPlainTextEdit* textEdit() const { return m_text; }
    QPushButton* generateButton() const { return m_generate; }
    QPushButton* stopButton() const { return m_stop; }
    QComboBox* voiceCombo() const { return m_voice; }
    QString progressText() const;
    QProgressBar* progressBar() const { return m_bar; }

    void setBusy(bool generating, bool canGenerate, const QString& whyNot);
    void startProgress(int maxFrames);
    void setProgress(int frames, double elapsedMs);
    // completed: the bar fills; otherwise (failed, stopped) it stays where generation got to.
    void finishProgress(const QString& summary, bool completed = true);
    void showMessage(const QString& message);   // on the progress line, e.g. why nothing started
    static QString emptyTextReason();
    // Inserts <|speaker:N|> at the cursor; N < 0: the next speaker (alternating 0 and 1).
    void insertSpeakerTag(int speaker);
    static constexpr int kSpeakerTagsInMenu = 4;

Q_SIGNALS:
    void generateRequested();
    void stopRequested();
    void manageVoicesRequested();

private:
    QWidget* createToolRow();
    void insertSample(int index);
    void reloadVoices();
    void applyGenerateState();

    VoiceListModel& m_voices;
    QPlainTextEdit* m_text = nullptr;
    QComboBox* m_samples = nullptr;
    QComboBox* m_voice = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_bar = nullptr;
    QLabel* m_progress = nullptr;
    int m_maxFrames = 0;
    int m_firstFrames = -1;   // the first progress report of this run (-1: none yet), and its time:
    double m_firstMs = 0;     // the decode speed counts from there
    bool m_generating = false;
    bool m_canGenerate = false;
    QString m_whyNot;
};

QStringList loadSampleTexts();   // from :/reef/texts/samples.txt, one per line

}  // namespace reef::ui
