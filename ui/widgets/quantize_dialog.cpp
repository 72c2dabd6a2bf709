#include "widgets/quantize_dialog.h"

#include <QCheckBox>
#include <QComboBox>
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

namespace {

constexpr int kDefaultGroup = 128;   // QuantizeOptions' default, and model_folder_size's int4 figure

// The folder-name token of a choice: "int8", "int4" (the default group), "int4-g32".
QString formatToken(const QString& format, int group) {
    if (format != QLatin1String("int4") || group == kDefaultGroup)
        return format;
    return QStringLiteral("int4-g%1").arg(group);
}

}  // namespace

QuantizeDialog::QuantizeDialog(EngineController& engine, const QString& modelDir, QWidget* parent)
    : QDialog(parent), m_engine(engine), m_source(QDir::cleanPath(modelDir)) {
    setWindowTitle(tr("Quantize the model (int8/int4)"));
    auto* intro = new QLabel(tr("Writes a copy of <b>%1</b> whose linear layers are stored in fewer bits, as fish-speech's "
                                "<tt>tools/llama/quantize.py</tt> does: int8 with one scale per row (<tt>--mode int8</tt>) "
                                "or int4 with a scale and zero per group of weights (<tt>--mode int4</tt>). "
                                "The model folder itself is not changed.")
                                 .arg(QFileInfo(m_source).fileName().toHtmlEscaped()));
    intro->setWordWrap(true);
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("quantizeFormat"));
    m_format->addItem(tr("int8"), QStringLiteral("int8"));
    m_format->addItem(tr("int4"), QStringLiteral("int4"));
    m_format->setToolTip(tr("int8: about half of bf16's memory, the closest to bf16. "
                            "int4: about a quarter, a bit further from bf16."));
    m_embeddings = new QCheckBox(tr("Quantize the embedding tables too"));
    m_embeddings->setObjectName(QStringLiteral("quantizeEmbeddings"));
    m_embeddings->setToolTip(tr("The token and codebook embeddings in the same format: S2-Pro's take 1 GB in bf16, 0.5 GB in "
                                "int8, 0.27 GB in int4. fish-speech's quantize.py keeps them in bf16."));
    m_group = new QComboBox;
    m_group->setObjectName(QStringLiteral("quantizeGroup"));
    for (int g : {32, 64, 128, 256})
        m_group->addItem(tr("%1 weights").arg(g), g);
    m_group->setCurrentIndex(m_group->findData(kDefaultGroup));
    m_group->setToolTip(tr("int4 only: how many weights share one scale and zero. A smaller group is closer to bf16 "
                           "and slightly larger; it must divide every layer's inputs (32 does for fish-speech's S1 and S2 models)."));
    m_tradeOff = new QLabel;
    m_tradeOff->setObjectName(QStringLiteral("quantizeTradeOff"));
    m_tradeOff->setWordWrap(true);
    m_suggested = suggestedTarget(m_source, formatToken(format(), group()));
    m_target = new QLineEdit(m_suggested);
    m_target->setObjectName(QStringLiteral("quantizeTarget"));
    m_target->setMinimumWidth(360);
    m_browse = new QPushButton(tr("Browse…"));
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(m_browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Source:"), new QLabel(m_source.toHtmlEscaped()));
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Group size:"), m_group);
    form->addRow(QString(), m_embeddings);
    form->addRow(QString(), m_tradeOff);
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

    onFormatChanged();
    connect(m_format, &QComboBox::currentIndexChanged, this, &QuantizeDialog::onFormatChanged);
    connect(m_group, &QComboBox::currentIndexChanged, this, &QuantizeDialog::onFormatChanged);
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

QString QuantizeDialog::suggestedTarget(const QString& modelDir, const QString& format) {
    const QString base = QDir::cleanPath(modelDir) + QLatin1Char('-') + format;
    QString candidate = base;
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = base + QStringLiteral("-%1").arg(n);
    return candidate;
}

QString QuantizeDialog::format() const { return m_format->currentData().toString(); }

int QuantizeDialog::group() const { return m_group->currentData().toInt(); }

void QuantizeDialog::setFormat(const QString& format) {
    const int i = m_format->findData(format);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

void QuantizeDialog::setGroup(int group) {
    const int i = m_group->findData(group);
    if (i >= 0)
        m_group->setCurrentIndex(i);
}

void QuantizeDialog::onFormatChanged() {
    const bool int4 = format() == QLatin1String("int4");
    m_group->setEnabled(int4 && !m_id);
    m_tradeOff->setText(int4 ? tr("int4: about a quarter of bf16's memory, a bit further from bf16; a smaller group is "
                                  "closer to bf16 and slightly larger.")
                             : tr("int8: about half of bf16's memory, the closest to bf16."));
    // The suggested name follows the choice; a name the user typed or browsed to stays (an emptied
    // field takes the suggestion again).
    const QString typed = m_target->text().trimmed();
    if (typed.isEmpty() || QDir::cleanPath(typed) == m_suggested) {
        m_suggested = suggestedTarget(m_source, formatToken(format(), group()));
        m_target->setText(m_suggested);
    }
}

void QuantizeDialog::setStatus(const QString& text) {
    m_status->setText(text);
    // A longer line wraps into more rows: the dialog grows to show them (and the intro) whole.
    if (isVisible())
        adjustSize();
}

void QuantizeDialog::browse() {
    const QString dir = QFileDialog::getSaveFileName(this, tr("New folder for the quantized copy"), m_target->text(), {},
                                                     nullptr, QFileDialog::ShowDirsOnly);
    if (!dir.isEmpty())
        m_target->setText(dir);
}

void QuantizeDialog::setRunning(bool running) {
    m_start->setEnabled(!running);
    m_format->setEnabled(!running);
    m_group->setEnabled(!running && format() == QLatin1String("int4"));
    m_embeddings->setEnabled(!running);
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
        setStatus(tr("Name the new folder for the quantized copy."));
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
    // As the engine names a folder's format (ModelFolderSize::format): "int8", "int4-g128", …
    const bool int4 = format() == QLatin1String("int4");
    m_writtenFormat = int4 ? QStringLiteral("int4-g%1").arg(group()) : format();
    m_id = m_engine.quantizeModel(m_source, target, format(), int4 ? group() : kDefaultGroup, m_embeddings->isChecked());
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
    setStatus(tr("Written to %1 (%2): the text2semantic weights went from %3 to %4.")
                          .arg(m_written, m_writtenFormat,
                               locale.formattedDataSize(qint64(bytesBefore), 2, QLocale::DataSizeSIFormat),
                               locale.formattedDataSize(qint64(bytesAfter), 2, QLocale::DataSizeSIFormat)));
    m_use->setText(tr("Use the %1 copy").arg(m_writtenFormat.section(QLatin1Char('-'), 0, 0)));
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
