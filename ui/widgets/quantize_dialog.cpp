#include "widgets/quantize_dialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "qt/engine_controller.h"

namespace reef::ui {

QuantizeDialog::QuantizeDialog(EngineController& engine, const QString& modelDir, QWidget* parent)
    : QDialog(parent), m_engine(engine), m_source(QDir::cleanPath(modelDir)) {
    setWindowTitle(tr("Quantize the model to int8"));
    auto* intro = new QLabel(tr("Writes a copy of <b>%1</b> whose linear layers are int8 with one scale per row, as "
                                "fish-speech's <tt>tools/llama/quantize.py --mode int8</tt> does: about half the memory "
                                "of bf16 and faster decoding on a CPU. The model folder itself is not changed.")
                                 .arg(QFileInfo(m_source).fileName().toHtmlEscaped()));
    intro->setWordWrap(true);
    m_target = new QLineEdit(suggestedTarget(m_source));
    m_target->setObjectName(QStringLiteral("quantizeTarget"));
    m_target->setMinimumWidth(360);
    m_browse = new QPushButton(tr("Browse…"));
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(m_browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Source:"), new QLabel(m_source.toHtmlEscaped()));
    form->addRow(tr("New folder:"), targetRow);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("quantizeProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("quantizeStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_start = new QPushButton(tr("Quantize"));
    m_start->setObjectName(QStringLiteral("quantizeStart"));
    m_start->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("quantizeCancel"));
    m_use = new QPushButton(tr("Use the int8 copy"));
    m_use->setObjectName(QStringLiteral("quantizeUse"));
    m_use->setToolTip(tr("Select the new folder as the model and load it"));
    m_use->hide();
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_use);
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addLayout(form);
    v->addWidget(m_progress);
    v->addWidget(m_status);
    v->addLayout(buttons);

    connect(m_browse, &QPushButton::clicked, this, &QuantizeDialog::browse);
    connect(m_start, &QPushButton::clicked, this, &QuantizeDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &QuantizeDialog::reject);
    connect(m_use, &QPushButton::clicked, this, [this] {
        Q_EMIT useRequested(m_written);
        accept();
    });
    connect(&m_engine, &EngineController::quantizeProgress, this, &QuantizeDialog::onProgress);
    connect(&m_engine, &EngineController::quantizeFinished, this, &QuantizeDialog::onFinished);
    connect(&m_engine, &EngineController::quantizeFailed, this, &QuantizeDialog::onFailed);
}

QuantizeDialog::~QuantizeDialog() {
    if (m_id)
        m_engine.cancelRequest(m_id);
}

QString QuantizeDialog::suggestedTarget(const QString& modelDir) {
    const QString base = QDir::cleanPath(modelDir) + QStringLiteral("-int8");
    QString candidate = base;
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = base + QStringLiteral("-%1").arg(n);
    return candidate;
}

void QuantizeDialog::setStatus(const QString& text) {
    m_status->setText(text);
    // A longer line wraps into more rows: the dialog grows to show them (and the intro) whole.
    if (isVisible())
        adjustSize();
}

void QuantizeDialog::browse() {
    const QString dir = QFileDialog::getSaveFileName(this, tr("New folder for the int8 copy"), m_target->text(), {},
                                                     nullptr, QFileDialog::ShowDirsOnly);
    if (!dir.isEmpty())
        m_target->setText(dir);
}

void QuantizeDialog::setRunning(bool running) {
    m_start->setEnabled(!running);
    m_target->setEnabled(!running);
    m_browse->setEnabled(!running);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
}

void QuantizeDialog::start() {
    if (m_id)
        return;
    const QString target = QDir::cleanPath(m_target->text().trimmed());
    // The engine refuses these too; said here, before a minute of work, in the dialog's words.
    if (target.isEmpty()) {
        setStatus(tr("Name the new folder for the int8 copy."));
        return;
    }
    if (QFileInfo(target).absoluteFilePath() == QFileInfo(m_source).absoluteFilePath()) {
        setStatus(tr("The copy needs a folder of its own: the source stays as it is."));
        return;
    }
    if (m_engine.state() != EngineState::Ready && m_engine.state() != EngineState::NoModel) {
        setStatus(tr("The engine is busy (%1): quantize when it is done.").arg(stateName(m_engine.state())));
        return;
    }
    m_use->hide();
    m_progress->setRange(0, 0);   // busy until the first tensor says how many there are
    setStatus(tr("Reading the weights…"));
    setRunning(true);
    m_id = m_engine.quantizeModel(m_source, target);
}

void QuantizeDialog::onProgress(quint64 id, int done, int total) {
    if (id != m_id || total <= 0)
        return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    setStatus(tr("Quantizing: tensor %1 of %2").arg(done).arg(total));
}

void QuantizeDialog::onFinished(quint64 id, qulonglong bytesBefore, qulonglong bytesAfter) {
    if (id != m_id)
        return;
    m_id = 0;
    m_written = QDir::cleanPath(m_target->text().trimmed());
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    const QLocale locale;
    setStatus(tr("Written to %1: the text2semantic weights went from %2 to %3.")
                          .arg(m_written,
                               locale.formattedDataSize(qint64(bytesBefore), 2, QLocale::DataSizeSIFormat),
                               locale.formattedDataSize(qint64(bytesAfter), 2, QLocale::DataSizeSIFormat)));
    m_use->show();
    m_use->setDefault(true);
    m_use->setFocus();
}

void QuantizeDialog::onFailed(quint64 id, const QString& reason) {
    if (id != m_id)
        return;
    m_id = 0;
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    setStatus(reason);
}

void QuantizeDialog::reject() {
    if (m_id) {   // the first Cancel stops the work; the dialog stays to say it did
        m_engine.cancelRequest(m_id);
        setStatus(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

}  // namespace reef::ui
