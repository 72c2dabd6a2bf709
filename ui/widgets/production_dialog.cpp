#include "widgets/production_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "audio/loudness.h"
#include "qt/batch_export.h"
#include "qt/book_export.h"
#include "qt/file_export.h"
#include "qt/project.h"
#include "qt/project_assembly.h"
#include "qt/voice_list_model.h"

namespace reef::ui {
namespace {

QSpinBox* pauseSpin(const QString& objectName, int ms) {
    auto* s = new QSpinBox;
    s->setObjectName(objectName);
    s->setRange(0, 60000);
    s->setSingleStep(50);
    s->setSuffix(ProductionDialog::tr(" ms"));
    s->setValue(ms);
    return s;
}

QString presetName(const char* id) {
    const QString n = QString::fromLatin1(id);
    if (n == QStringLiteral("podcast"))
        return ProductionDialog::tr("Podcast (−16 LUFS, −1 dBTP)");
    if (n == QStringLiteral("audiobook"))
        return ProductionDialog::tr("Audiobook (−18 LUFS, −3 dBTP)");
    if (n == QStringLiteral("audiobook-quiet"))
        return ProductionDialog::tr("Audiobook, quieter (−20 LUFS, −3 dBTP)");
    if (n == QStringLiteral("broadcast"))
        return ProductionDialog::tr("Broadcast, EBU R128 (−23 LUFS, −1 dBTP)");
    return n;
}

}  // namespace

ProductionDialog::ProductionDialog(ProjectModel& project, VoiceListModel& voices, QWidget* parent)
    : QDialog(parent), m_project(project), m_voices(voices) {
    setWindowTitle(tr("Production"));
    const AssemblySettings& a = project.assembly();

    // Cast: one row per speaker the text names.
    auto* castBox = new QGroupBox(tr("Cast"));
    auto* castLayout = new QVBoxLayout(castBox);
    m_nameLines = new QCheckBox(tr("\"Name: text\" lines name speakers too"));
    m_nameLines->setObjectName(QStringLiteral("nameLinesCheck"));
    m_nameLines->setToolTip(tr("A line that starts with a capitalised name and a colon is that speaker's; the name is not read"));
    m_nameLines->setChecked(project.nameLines());
    m_jointSpeakers = new QCheckBox(tr("Several speakers in one segment speak together (S2 models)"));
    m_jointSpeakers->setObjectName(QStringLiteral("jointSpeakersCheck"));
    m_jointSpeakers->setToolTip(tr("A segment with several <|speaker:N|> tags becomes one request with each speaker's "
                                   "voice, as fish-speech speaks a dialogue; off, or with an S1 model, it speaks "
                                   "with the voice of the speaker it starts with"));
    m_jointSpeakers->setChecked(project.jointSpeakers());
    m_castForm = new QFormLayout;
    castLayout->addWidget(m_nameLines);
    castLayout->addWidget(m_jointSpeakers);
    castLayout->addLayout(m_castForm);
    rebuildCast();
    connect(m_nameLines, &QCheckBox::toggled, this, &ProductionDialog::rebuildCast);

    // Pauses and pace.
    auto* timingBox = new QGroupBox(tr("Pauses and pace"));
    auto* timing = new QFormLayout(timingBox);
    m_sentence = pauseSpin(QStringLiteral("sentencePause"), a.sentencePauseMs);
    m_clause = pauseSpin(QStringLiteral("clausePause"), a.clausePauseMs);
    m_paragraph = pauseSpin(QStringLiteral("paragraphPause"), a.paragraphPauseMs);
    m_chapter = pauseSpin(QStringLiteral("chapterPause"), a.chapterPauseMs);
    timing->addRow(tr("After a &sentence:"), m_sentence);
    timing->addRow(tr("After a c&lause (, ; :):"), m_clause);
    timing->addRow(tr("After a &paragraph:"), m_paragraph);
    timing->addRow(tr("Before a c&hapter:"), m_chapter);
    auto* markup = new QLabel(tr("Inline: <tt>[pause 1.5s]</tt> or <tt>[pause 500ms]</tt> in a segment sets that pause "
                                 "exactly (the model does not read it)."));
    markup->setWordWrap(true);
    timing->addRow(markup);
    m_speed = new QDoubleSpinBox;
    m_speed->setObjectName(QStringLiteral("paceSpin"));
    m_speed->setRange(0.5, 2.0);
    m_speed->setSingleStep(0.05);
    m_speed->setDecimals(2);
    m_speed->setSuffix(QStringLiteral("×"));
    m_speed->setValue(a.speed);
    m_speed->setToolTip(tr("Tempo without a change of pitch (Rubber Band), after synthesis"));
    timing->addRow(tr("P&ace:"), m_speed);
    m_trim = new QCheckBox(tr("Trim each take's own silence first"));
    m_trim->setObjectName(QStringLiteral("trimCheck"));
    m_trim->setChecked(a.trimSilence);
    timing->addRow(m_trim);

    // Loudness.
    auto* loudBox = new QGroupBox(tr("Loudness (EBU R128)"));
    auto* loud = new QFormLayout(loudBox);
    m_normalize = new QCheckBox(tr("&Normalize the export"));
    m_normalize->setObjectName(QStringLiteral("normalizeCheck"));
    m_normalize->setChecked(a.normalize);
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("loudnessPreset"));
    for (const audio::LoudnessPreset& p : audio::loudness_presets())
        m_preset->addItem(presetName(p.name), QString::fromLatin1(p.name));
    m_preset->addItem(tr("Custom"), QString());
    m_target = new QDoubleSpinBox;
    m_target->setObjectName(QStringLiteral("targetLufs"));
    m_target->setRange(-40.0, -5.0);
    m_target->setDecimals(1);
    m_target->setSuffix(tr(" LUFS"));
    m_target->setValue(a.targetLufs);
    m_ceiling = new QDoubleSpinBox;
    m_ceiling->setObjectName(QStringLiteral("ceilingDbtp"));
    m_ceiling->setRange(-9.0, 0.0);
    m_ceiling->setDecimals(1);
    m_ceiling->setSuffix(tr(" dBTP"));
    m_ceiling->setValue(a.ceilingDbtp);
    loud->addRow(m_normalize);
    loud->addRow(tr("P&reset:"), m_preset);
    loud->addRow(tr("&Target:"), m_target);
    loud->addRow(tr("True-peak &ceiling:"), m_ceiling);
    m_preset->setCurrentIndex(m_preset->count() - 1);
    for (int i = 0; i + 1 < m_preset->count(); ++i) {
        const audio::LoudnessTarget t = audio::loudness_presets()[size_t(i)].target;
        if (t.integrated_lufs == a.targetLufs && t.true_peak_ceiling_dbtp == a.ceilingDbtp)
            m_preset->setCurrentIndex(i);
    }
    connect(m_preset, &QComboBox::activated, this, &ProductionDialog::choosePreset);
    auto toCustom = [this] {
        const int i = m_preset->currentIndex();
        if (i + 1 < m_preset->count()) {
            const audio::LoudnessTarget t = audio::loudness_presets()[size_t(i)].target;
            if (t.integrated_lufs != m_target->value() || t.true_peak_ceiling_dbtp != m_ceiling->value())
                m_preset->setCurrentIndex(m_preset->count() - 1);
        }
    };
    connect(m_target, &QDoubleSpinBox::valueChanged, this, toCustom);
    connect(m_ceiling, &QDoubleSpinBox::valueChanged, this, toCustom);
    auto* measureButton = new QPushButton(tr("&Measure"));
    measureButton->setObjectName(QStringLiteral("measureButton"));
    m_measured = new QLabel(tr("Not measured yet"));
    m_measured->setObjectName(QStringLiteral("measureLabel"));
    m_measured->setWordWrap(true);
    auto* playButton = new QPushButton(tr("&Play"));
    playButton->setObjectName(QStringLiteral("playBookButton"));
    playButton->setToolTip(tr("Play the book as these settings make it"));
    connect(playButton, &QPushButton::clicked, this, [this] { Q_EMIT playRequested(assembled()); });
    auto* measureRow = new QHBoxLayout;
    measureRow->addWidget(playButton);
    measureRow->addWidget(measureButton);
    measureRow->addWidget(m_measured, 1);
    loud->addRow(measureRow);
    connect(measureButton, &QPushButton::clicked, this, &ProductionDialog::measure);

    // Export.
    auto* exportBox = new QGroupBox(tr("Export the book"));
    auto* ex = new QFormLayout(exportBox);
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("bookFormat"));
    for (audio::ExportFormat f : availableExportFormats())
        m_format->addItem(exportFormatName(f), int(f));
    m_format->setCurrentIndex(std::max(0, m_format->findData(int(audio::ExportFormat::Flac))));
    m_format->setToolTip(tr("FLAC and MP3 carry chapter marks (Vorbis CHAPTER comments, ID3 CHAP frames); WAV and Ogg "
                            "have none: export one file per chapter for them"));
    m_perChapter = new QCheckBox(tr("One file per chapter too"));
    m_perChapter->setObjectName(QStringLiteral("perChapterCheck"));
    m_srt = new QCheckBox(tr("Subtitles (SRT)"));
    m_srt->setObjectName(QStringLiteral("srtCheck"));
    m_vtt = new QCheckBox(tr("Subtitles (WebVTT)"));
    m_vtt->setObjectName(QStringLiteral("vttCheck"));
    auto* exportButton = new QPushButton(tr("&Export…"));
    exportButton->setObjectName(QStringLiteral("exportBookButton"));
    ex->addRow(tr("&Format:"), m_format);
    ex->addRow(m_perChapter);
    auto* subs = new QHBoxLayout;
    subs->addWidget(m_srt);
    subs->addWidget(m_vtt);
    subs->addStretch(1);
    subs->addWidget(exportButton);
    ex->addRow(subs);
    connect(exportButton, &QPushButton::clicked, this, &ProductionDialog::exportInteractive);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(castBox);
    left->addWidget(timingBox);
    left->addStretch(1);
    auto* right = new QVBoxLayout;
    right->addWidget(loudBox);
    right->addWidget(exportBox);
    right->addStretch(1);
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    auto* v = new QVBoxLayout(this);
    v->addLayout(columns, 1);
    v->addWidget(buttons);
}

void ProductionDialog::rebuildCast() {
    // Keep what was chosen for speakers that stay.
    const QMap<QString, QString> chosen = castChoices();
    while (m_castForm->rowCount() > 0)
        m_castForm->removeRow(0);
    m_cast.clear();
    const QStringList speakers = m_project.speakers(m_nameLines->isChecked());
    if (speakers.isEmpty()) {
        auto* none = new QLabel(tr("The text names no speakers. Start a speaker's lines with a tag such as "
                                   "<|speaker:0|> to give each speaker a voice."));
        none->setWordWrap(true);
        m_castForm->addRow(none);
    }
    for (const QString& speaker : speakers) {
        auto* combo = new QComboBox;
        combo->setObjectName(QStringLiteral("castVoice_") + speaker);
        combo->addItem(tr("(project default)"), QString());
        for (int r = 0; r < m_voices.rowCount(); ++r)
            combo->addItem(m_voices.voice(r).name, m_voices.voice(r).id);
        const QString voice = chosen.contains(speaker) ? chosen.value(speaker) : m_project.cast().value(speaker);
        combo->setCurrentIndex(std::max(0, combo->findData(voice)));
        m_castForm->addRow(tr("Speaker %1:").arg(speaker), combo);
        m_cast.insert(speaker, combo);
    }
}

AssemblySettings ProductionDialog::settings() const {
    AssemblySettings a = m_project.assembly();
    a.sentencePauseMs = m_sentence->value();
    a.clausePauseMs = m_clause->value();
    a.paragraphPauseMs = m_paragraph->value();
    a.chapterPauseMs = m_chapter->value();
    a.speed = m_speed->value();
    a.trimSilence = m_trim->isChecked();
    a.normalize = m_normalize->isChecked();
    a.targetLufs = m_target->value();
    a.ceilingDbtp = m_ceiling->value();
    return a;
}

ProjectData ProductionDialog::draft() const {
    ProjectData doc = m_project.document();
    doc.assembly = settings();
    return doc;
}

QMap<QString, QString> ProductionDialog::castChoices() const {
    QMap<QString, QString> out;
    for (auto it = m_cast.begin(); it != m_cast.end(); ++it)
        out.insert(it.key(), it.value()->currentData().toString());
    return out;
}

void ProductionDialog::apply() {
    m_project.setAssembly(settings());
    m_project.setNameLines(m_nameLines->isChecked());
    m_project.setJointSpeakers(m_jointSpeakers->isChecked());
    const QMap<QString, QString> cast = castChoices();
    for (auto it = cast.begin(); it != cast.end(); ++it)
        m_project.setCastVoice(it.key(), it.value());
}

void ProductionDialog::choosePreset(int index) {
    if (index < 0 || index + 1 >= m_preset->count())
        return;
    const audio::LoudnessTarget t = audio::loudness_presets()[size_t(index)].target;
    m_target->setValue(t.integrated_lufs);
    m_ceiling->setValue(t.true_peak_ceiling_dbtp);
    m_preset->setCurrentIndex(index);
    m_normalize->setChecked(true);
}

void ProductionDialog::measure() {
    ProjectData doc = draft();
    try {
        const AssembledProject book = assembleProject(doc);
        if (book.audio.empty()) {
            m_measured->setText(tr("Nothing to measure: no segment has audio yet."));
            return;
        }
        const audio::Loudness l = assembledLoudness(book);
        const double minutes = double(book.audio.size()) / kSampleRate / 60.0;
        m_measured->setText(tr("%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapter(s)", nullptr,
                               int(std::max<qsizetype>(book.chapters.size(), 1)))
                                .arg(minutes, 0, 'f', 1)
                                .arg(l.integrated_lufs, 0, 'f', 1)
                                .arg(l.true_peak_dbtp, 0, 'f', 1));
    } catch (const std::exception& e) {
        m_measured->setText(QString::fromStdString(e.what()));
    }
}

QString ProductionDialog::measureText() const { return m_measured->text(); }

std::vector<float> ProductionDialog::assembled() const {
    ProjectData doc = draft();
    try {
        return assembleProject(doc).audio;
    } catch (const std::exception&) {
        return {};   // the settings are range-checked by their controls; nothing to play otherwise
    }
}

bool ProductionDialog::exportTo(const QString& dir, QStringList* files, QString* error) {
    ProjectData doc = draft();
    BookExportOptions o;
    o.format = audio::ExportFormat(m_format->currentData().toInt());
    o.perChapter = m_perChapter->isChecked();
    o.srt = m_srt->isChecked();
    o.vtt = m_vtt->isChecked();
    o.software = QStringLiteral("Reef " REEF_VERSION);
    o.comment = doc.title;
    const QString stem = safeFileStem(doc.title);
    BookExportResult result;
    const bool ok = exportBook(doc, dir, stem.isEmpty() ? QStringLiteral("book") : stem, o, &result, error);
    if (files)
        *files = result.files;
    return ok;
}

void ProductionDialog::exportInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export the book into a folder"),
                                                          QFileInfo(m_project.filePath()).absolutePath());
    if (dir.isEmpty())
        return;
    QStringList files;
    QString error;
    if (!exportTo(dir, &files, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
        return;
    }
    QMessageBox::information(this, tr("Exported"), tr("Wrote %n file(s) into %1.", nullptr, int(files.size())).arg(dir));
}

}  // namespace reef::ui
