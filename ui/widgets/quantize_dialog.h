// "Quantize this model" (issue #44): an int8 or int4 copy of a model folder, written by the engine
// (reef/quantize.h, on the engine thread) with a progress bar and Cancel; once written, one click
// makes the copy the model that loads. The folder it writes is new: the source stays as it is.
#pragma once
#include <QDialog>

class QCheckBox;

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace reef::ui {

class EngineController;

class QuantizeDialog : public QDialog {
    Q_OBJECT
public:
    QuantizeDialog(EngineController& engine, const QString& modelDir, QWidget* parent = nullptr);
    ~QuantizeDialog() override;   // a running quantize is cancelled: nothing is written

    // "<dir>-<format>" ("-int8", "-int4"), else "<dir>-<format>-2", … : the first that does not
    // exist beside the source.
    static QString suggestedTarget(const QString& modelDir, const QString& format = QStringLiteral("int8"));

    // The choice made: "int8" or "int4", and for int4 the weights per scale and zero (32 … 256).
    QString format() const;
    int group() const;
    // Selects a format / group size as the user would (the target follows, unless edited).
    void setFormat(const QString& format);
    void setGroup(int group);

    QComboBox* formatCombo() const { return m_format; }
    QComboBox* groupCombo() const { return m_group; }
    QCheckBox* embeddingsCheck() const { return m_embeddings; }
    QLabel* tradeOffLabel() const { return m_tradeOff; }
    QLineEdit* targetEdit() const { return m_target; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* useButton() const { return m_use; }   // shown once the copy is written
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    bool isRunning() const { return m_id != 0; }

Q_SIGNALS:
    // "Use the copy": the caller selects the folder and loads it.
    void useRequested(const QString& dir);

protected:
    void reject() override;   // Escape or the window's close: cancels a running quantize first

private:
    void start();
    void browse();
    void setRunning(bool running);
    void setStatus(const QString& text);
    void onFormatChanged();   // group enabled for int4 only, the trade-off line, the suggested target
    void onProgress(quint64 id, int done, int total);
    void onFinished(quint64 id, qulonglong bytesBefore, qulonglong bytesAfter);
    void onFailed(quint64 id, const QString& reason);

    EngineController& m_engine;
    QString m_source;
    QString m_written;   // the folder the last quantize wrote
    QString m_writtenFormat;   // its format ("int8", "int4-g128", …), as the status and the Use button name it
    quint64 m_id = 0;    // the running quantize, 0 = none
    QString m_suggested;   // the target this dialog last suggested: replaced when the format changes, unless edited
    QComboBox* m_format = nullptr;
    QComboBox* m_group = nullptr;
    QCheckBox* m_embeddings = nullptr;   // the embedding tables quantized too
    QLabel* m_tradeOff = nullptr;
    QLineEdit* m_target = nullptr;
    QPushButton* m_browse = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_use = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace reef::ui
