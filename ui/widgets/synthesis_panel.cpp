#include "widgets/synthesis_panel.h"

#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "qt/voice_list_model.h"
#include "reef/engine_types.h"

namespace reef::ui {

QStringList loadSampleTexts() {
    QFile f(QStringLiteral(":/reef/texts/samples.txt"));
    QStringList out;
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            out << line.trimmed();
    return out;
}

SynthesisPanel::SynthesisPanel(VoiceListModel& voices, QWidget* parent) : QWidget(parent), m_voices(voices) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    m_text = new QPlainTextEdit;
    m_text->setObjectName(QStringLiteral("textEdit"));
    m_text->setAccessibleName(tr("Text to speak"));
    m_text->setPlaceholderText(tr("Type the text to speak.\nFor dialogue, start each turn with a speaker tag: "
                                  "<|speaker:0|>Hello! <|speaker:1|>Hi there."));
    v->addWidget(createToolRow());
    v->addWidget(m_text, 1);

    auto* run = new QHBoxLayout;
    m_generate = new QPushButton(tr("Generate"));
    m_generate->setObjectName(QStringLiteral("generateButton"));
    m_generate->setDefault(true);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setEnabled(false);
    m_generate->setEnabled(false);
    m_bar = new QProgressBar;
    m_bar->setTextVisible(false);
    m_bar->setMaximumHeight(10);
    m_bar->setAccessibleName(tr("Generation progress"));
    m_progress = new QLabel(tr("Idle"));
    m_progress->setObjectName(QStringLiteral("progressLabel"));
    m_progress->setAccessibleName(tr("Generation status"));
    // Two lines always (stats, then the attention backends), so a finished run is never clipped.
    m_progress->setMinimumHeight(2 * m_progress->fontMetrics().lineSpacing() + 2);
    m_progress->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // A long error wraps instead of widening the window (and pushing Settings off screen).
    m_progress->setWordWrap(true);
    m_progress->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    run->addWidget(m_generate);
    run->addWidget(m_stop);
    run->addWidget(m_bar, 1);
    v->addLayout(run);
    v->addWidget(m_progress);

    connect(m_generate, &QPushButton::clicked, this, &SynthesisPanel::generateRequested);
    connect(m_stop, &QPushButton::clicked, this, &SynthesisPanel::stopRequested);
    connect(m_text, &QPlainTextEdit::textChanged, this, &SynthesisPanel::applyGenerateState);
    connect(&voices, &QAbstractItemModel::modelReset, this, &SynthesisPanel::reloadVoices);
    connect(&voices, &QAbstractItemModel::rowsInserted, this, &SynthesisPanel::reloadVoices);
    connect(&voices, &QAbstractItemModel::rowsRemoved, this, &SynthesisPanel::reloadVoices);
    connect(&voices, &QAbstractItemModel::dataChanged, this, &SynthesisPanel::reloadVoices);
    reloadVoices();
}

QWidget* SynthesisPanel::createToolRow() {
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_samples = new QComboBox;
    m_samples->setAccessibleName(tr("Sample texts"));
    m_samples->addItem(tr("Insert a sample text…"));
    for (const QString& s : loadSampleTexts())
        m_samples->addItem(s.left(60) + (s.size() > 60 ? QStringLiteral("…") : QString()), s);
    connect(m_samples, &QComboBox::activated, this, &SynthesisPanel::insertSample);
    // Its items are 60 characters long: sized by them, the combo alone made the window wider than
    // 1280 px beside the Settings dock (issue #47); the popup still shows them whole.
    m_samples->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_samples->setMinimumContentsLength(16);
    // Click: the next speaker's tag (alternating 0/1, as dialogue does); the arrow: any of four.
    auto* tag = new QToolButton;
    tag->setObjectName(QStringLiteral("speakerTagButton"));
    tag->setText(tr("+ speaker tag"));
    tag->setToolTip(tr("Dialogue: each turn starts with <|speaker:N|>; N picks the speaker (0, 1, …).\n"
                       "With a reference voice, speaker 0 speaks in that voice."));
    tag->setPopupMode(QToolButton::MenuButtonPopup);
    auto* tags = new QMenu(tag);
    for (int n = 0; n < kSpeakerTagsInMenu; ++n)
        tags->addAction(tr("Speaker %1").arg(n), this, [this, n] { insertSpeakerTag(n); });
    tag->setMenu(tags);
    connect(tag, &QToolButton::clicked, this, [this] { insertSpeakerTag(-1); });
    m_voice = new QComboBox;
    m_voice->setObjectName(QStringLiteral("voiceCombo"));
    m_voice->setMinimumWidth(160);
    auto* manage = new QToolButton;
    manage->setText(tr("Voices…"));
    connect(manage, &QToolButton::clicked, this, &SynthesisPanel::manageVoicesRequested);
    h->addWidget(m_samples, 1);
    h->addWidget(tag);
    h->addSpacing(12);
    auto* voiceLabel = new QLabel(tr("&Voice:"));
    voiceLabel->setBuddy(m_voice);
    h->addWidget(voiceLabel);
    h->addWidget(m_voice);
    h->addWidget(manage);
    return row;
}

void SynthesisPanel::insertSpeakerTag(int speaker) {
    if (speaker < 0)
        speaker = int(m_text->toPlainText().count(QStringLiteral("<|speaker:"))) % 2;
    m_text->insertPlainText(QStringLiteral("<|speaker:%1|>").arg(speaker));
    m_text->setFocus();
}

void SynthesisPanel::insertSample(int index) {
    if (index <= 0)
        return;
    m_text->setPlainText(m_samples->itemData(index).toString());
    m_samples->setCurrentIndex(0);
}

void SynthesisPanel::reloadVoices() {
    const QString current = m_voice->currentData().toString();
    m_voice->clear();
    m_voice->addItem(tr("(model's own voice)"), QString());
    for (int r = 0; r < m_voices.rowCount(); ++r) {
        const Voice& voice = m_voices.voice(r);
        m_voice->addItem(voice.name + (voice.hasCodes() ? QString() : tr(" (not encoded)")), voice.id);
    }
    m_voice->setCurrentIndex(std::max(0, m_voice->findData(current)));
}

QString SynthesisPanel::text() const { return m_text->toPlainText().trimmed(); }

int SynthesisPanel::voiceRow() const {
    const QString id = m_voice->currentData().toString();
    return id.isEmpty() ? -1 : m_voices.rowOfId(id);
}

QString SynthesisPanel::progressText() const { return m_progress->text(); }

void SynthesisPanel::setBusy(bool generating, bool canGenerate, const QString& whyNot) {
    m_generating = generating;
    m_canGenerate = canGenerate;
    m_whyNot = whyNot;
    applyGenerateState();
    m_stop->setEnabled(generating);
}

QString SynthesisPanel::emptyTextReason() { return tr("Type some text first: there is nothing to speak."); }

void SynthesisPanel::applyGenerateState() {
    // Generate is disabled (never silently ignored) with the reason in its tooltip.
    const bool hasText = !text().isEmpty();
    m_generate->setEnabled(!m_generating && m_canGenerate && hasText);
    m_generate->setToolTip(!m_canGenerate ? m_whyNot : !hasText ? emptyTextReason() : QString());
}

void SynthesisPanel::startProgress(int maxFrames) {
    m_maxFrames = maxFrames;
    m_bar->setRange(0, maxFrames > 0 ? maxFrames : 0);
    m_bar->setValue(0);
    m_progress->setText(tr("Starting…"));
    m_firstFrames = -1;
    m_firstMs = 0;
}

void SynthesisPanel::setProgress(int frames, double elapsedMs) {
    if (m_maxFrames > 0)
        m_bar->setValue(std::min(frames, m_maxFrames));
    // Speed is measured from the first report on (the engine sends one at the first frame): the
    // prompt's prefill, and above all a compile of the decode step, come before it and would make
    // the ETA and the real-time factor count minutes that decoding never spends again.
    if (m_firstFrames < 0 && frames > 0) {
        m_firstFrames = frames;
        m_firstMs = elapsedMs;
    }
    const double elapsed = elapsedMs / 1000.0;
    const double decodeS = (elapsedMs - m_firstMs) / 1000.0;
    const int decoded = m_firstFrames < 0 ? 0 : frames - m_firstFrames;
    const double rate = decoded > 0 && decodeS > 0 ? decoded / decodeS : 0.0;
    QString eta = tr("ETA —");
    if (m_maxFrames > 0 && rate > 0)
        eta = tr("ETA ≤ %1 s").arg((m_maxFrames - frames) / rate, 0, 'f', 1);
    const QString realTime = rate > 0 ? tr("%1× real time").arg(rate / kFramesPerSecond, 0, 'f', 2) : tr("— real time");
    m_progress->setText(tr("%1 frames · %2 s elapsed · %3 · %4").arg(frames).arg(elapsed, 0, 'f', 1).arg(eta, realTime));
}

void SynthesisPanel::finishProgress(const QString& summary, bool completed) {
    if (completed) {
        m_bar->setRange(0, 1);
        m_bar->setValue(1);
    } else if (m_bar->maximum() == 0) {
        m_bar->setRange(0, 1);  // no busy animation after the end; nothing was finished
        m_bar->setValue(0);
    }
    m_progress->setText(summary);
}

void SynthesisPanel::showMessage(const QString& message) { m_progress->setText(message); }

}  // namespace reef::ui
