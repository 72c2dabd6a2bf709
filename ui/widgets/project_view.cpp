#include "widgets/project_view.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>
#include <iterator>

#include "audio/loudness.h"
#include "qt/project.h"
#include "qt/voice_list_model.h"
#include "widgets/two_line_delegate.h"

namespace reef::ui {
namespace {

QString stateText(ProjectModel::SegmentState s) {
    switch (s) {
    case ProjectModel::SegmentState::NoAudio: return ProjectView::tr("no audio yet");
    case ProjectModel::SegmentState::Stale: return ProjectView::tr("changed since its take");
    case ProjectModel::SegmentState::HasAudio: return ProjectView::tr("ready");
    }
    return {};
}

// Two lines a segment: "3 · ready · 2.4 s · 2 takes" after a state mark, then its text.
class SegmentDelegate : public TwoLineDelegate {
public:
    using TwoLineDelegate::TwoLineDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const Row row = drawBackground(p, option, index, 14);
        const auto state = ProjectModel::SegmentState(index.data(ProjectModel::StateRole).toInt());
        const QColor mark = state == ProjectModel::SegmentState::HasAudio ? QColor(0x2e, 0x9d, 0x4f)
                            : state == ProjectModel::SegmentState::Stale  ? QColor(0xd0, 0x8c, 0x1a)
                                                                         : option.palette.color(QPalette::Mid);
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        p->setBrush(mark);
        p->setPen(Qt::NoPen);
        p->drawEllipse(QPointF(option.rect.left() + 7, row.first.center().y()), 3.5, 3.5);
        // Each speaker's segments carry that speaker's colour down the left edge.
        if (const QString speaker = index.data(ProjectModel::SpeakerRole).toString(); !speaker.isEmpty()) {
            static const QColor palette[] = {QColor(0x3b, 0x82, 0xc4), QColor(0xc4, 0x5a, 0x3b), QColor(0x6a, 0x9a, 0x2f),
                                             QColor(0x8e, 0x5b, 0xb5), QColor(0xc4, 0x9a, 0x1f), QColor(0x2f, 0x9a, 0x8e)};
            bool numbered = false;
            const uint n = speaker.toUInt(&numbered);   // fish-speech's speakers are 0, 1, 2 …
            p->fillRect(QRect(option.rect.left(), option.rect.top() + 2, 3, option.rect.height() - 4),
                        palette[(numbered ? n : uint(qHash(speaker))) % std::size(palette)]);
        }
        p->restore();
        QString head = QStringLiteral("%1 · %2").arg(index.row() + 1).arg(stateText(state));
        if (const QString chapter = index.data(ProjectModel::ChapterRole).toString(); !chapter.isEmpty())
            head = QStringLiteral("§ %1 · ").arg(chapter) + head;
        if (const QString speaker = index.data(ProjectModel::SpeakerRole).toString(); !speaker.isEmpty())
            head += QStringLiteral(" · ") + ProjectView::tr("speaker %1").arg(speaker);
        if (const double s = index.data(ProjectModel::DurationRole).toDouble(); s > 0)
            head += QStringLiteral(" · ") + ProjectView::tr("%1 s").arg(s, 0, 'f', 1);
        if (const int n = index.data(ProjectModel::TakeCountRole).toInt(); n > 0)
            head += QStringLiteral(" · ") + ProjectView::tr("%n take(s)", nullptr, n);
        drawText(p, option, row, row.first, head, true);
        drawText(p, option, row, row.second, index.data(Qt::DisplayRole).toString().simplified(), false);
    }
};

}  // namespace

ProjectView::ProjectView(ProjectModel& project, VoiceListModel& voices, QWidget* parent)
    : QWidget(parent), m_project(project), m_voices(voices) {
    m_pages = new QStackedWidget;
    m_pages->addWidget(createEmptyPage());
    m_pages->addWidget(createSegmentsPage());
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(m_pages);

    connect(&project, &QAbstractItemModel::modelReset, this, [this] {
        refresh();
        selectRow(m_project.segmentCount() > 0 ? 0 : -1);
    });
    connect(&project, &QAbstractItemModel::rowsInserted, this, &ProjectView::refresh);
    connect(&project, &QAbstractItemModel::rowsRemoved, this, &ProjectView::refresh);
    connect(&project, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        refresh();
        const int row = currentRow();
        if (row >= from.row() && row <= to.row() && !m_loading) {
            reloadTakes();
            if (m_project.segment(row).text != m_editor->toPlainText())
                loadSegment();   // changed elsewhere (a split, a merge): show it
        }
    });
    connect(&project, &ProjectModel::titleChanged, this, [this](const QString& t) {
        if (m_title->text() != t)
            m_title->setText(t);
    });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(&voices, signal, this, &ProjectView::reloadVoices);
    connect(&voices, &QAbstractItemModel::modelReset, this, &ProjectView::reloadVoices);
    connect(&voices, &QAbstractItemModel::dataChanged, this, &ProjectView::reloadVoices);
    reloadVoices();
    refresh();
    loadSegment();
}

QWidget* ProjectView::createEmptyPage() {
    auto* page = new QWidget;
    auto* intro = new QLabel(tr("<b>A project is a long text in segments.</b> Paste or open a chapter, split it into "
                                "sentences or paragraphs, generate them all, then re-generate just the ones you want "
                                "different. Projects are saved with their audio (File → Save project)."));
    intro->setWordWrap(true);
    m_source = new QPlainTextEdit;
    m_source->setObjectName(QStringLiteral("projectSource"));
    m_source->setAccessibleName(tr("Text to split into segments"));
    m_source->setPlaceholderText(tr("Paste a long text here, or use File → Open text file…"));
    m_splitMode = new QComboBox;
    m_splitMode->setObjectName(QStringLiteral("splitMode"));
    m_splitMode->addItem(tr("Sentences"), int(SplitMode::Sentences));
    m_splitMode->addItem(tr("Paragraphs"), int(SplitMode::Paragraphs));
    m_split = new QPushButton(tr("S&plit into segments"));
    m_split->setObjectName(QStringLiteral("splitButton"));
    m_split->setEnabled(false);
    auto* modeLabel = new QLabel(tr("Split &at:"));
    modeLabel->setBuddy(m_splitMode);
    auto* row = new QHBoxLayout;
    row->addWidget(modeLabel);
    row->addWidget(m_splitMode);
    row->addStretch(1);
    row->addWidget(m_split);
    auto* v = new QVBoxLayout(page);
    v->addWidget(intro);
    v->addWidget(m_source, 1);
    v->addLayout(row);
    connect(m_source, &QPlainTextEdit::textChanged, this,
            [this] { m_split->setEnabled(!m_source->toPlainText().trimmed().isEmpty()); });
    connect(m_split, &QPushButton::clicked, this, [this] { startFromText(m_source->toPlainText()); });
    return page;
}

QWidget* ProjectView::createSegmentsPage() {
    auto* page = new QWidget;
    m_title = new QLineEdit;
    m_title->setObjectName(QStringLiteral("projectTitle"));
    m_title->setPlaceholderText(tr("Untitled project"));
    auto* titleLabel = new QLabel(tr("&Title:"));
    titleLabel->setBuddy(m_title);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("projectSummary"));
    auto* top = new QHBoxLayout;
    top->addWidget(titleLabel);
    top->addWidget(m_title, 1);
    top->addWidget(m_summary);

    m_list = new QListView;
    m_list->setObjectName(QStringLiteral("segmentList"));
    m_list->setAccessibleName(tr("Segments"));
    m_list->setModel(&m_project);
    m_list->setItemDelegate(new SegmentDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);   // edited in the editor beside it
    auto* split = new QSplitter;
    split->addWidget(m_list);
    split->addWidget(createSegmentEditor());
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    m_generateAll = new QPushButton(tr("&Generate missing"));
    m_generateAll->setObjectName(QStringLiteral("generateAllButton"));
    m_generateAll->setToolTip(tr("Queue every segment that has no audio or was edited since its take"));
    auto* play = new QPushButton(tr("Play &project"));
    m_export = new QPushButton(tr("E&xport project…"));
    m_export->setObjectName(QStringLiteral("exportProjectButton"));
    auto* exportSegments = new QPushButton(tr("Export s&egments…"));
    m_production = new QPushButton(tr("Pr&oduction…"));
    m_production->setObjectName(QStringLiteral("productionButton"));
    m_production->setToolTip(tr("Cast, pauses, pace and loudness; export the book with chapters and subtitles"));
    m_crossfade = new QSpinBox;
    m_crossfade->setObjectName(QStringLiteral("crossfadeSpin"));
    m_crossfade->setRange(0, 500);
    m_crossfade->setValue(30);
    m_crossfade->setSuffix(tr(" ms"));
    auto* fadeLabel = new QLabel(tr("&Crossfade:"));
    fadeLabel->setBuddy(m_crossfade);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_generateAll);
    bottom->addWidget(play);
    bottom->addStretch(1);
    bottom->addWidget(fadeLabel);
    bottom->addWidget(m_crossfade);
    bottom->addWidget(m_export);
    bottom->addWidget(exportSegments);
    bottom->addWidget(m_production);

    auto* v = new QVBoxLayout(page);
    v->addLayout(top);
    v->addWidget(split, 1);
    v->addLayout(bottom);

    connect(m_title, &QLineEdit::textEdited, &m_project, &ProjectModel::setTitle);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &ProjectView::loadSegment);
    connect(m_generateAll, &QPushButton::clicked, this, [this] {
        const QList<int> rows = m_project.segmentsNeedingAudio();
        if (!rows.isEmpty())
            Q_EMIT generateRequested(rows);
    });
    connect(play, &QPushButton::clicked, this, &ProjectView::playProjectRequested);
    connect(m_export, &QPushButton::clicked, this, &ProjectView::exportProjectRequested);
    connect(exportSegments, &QPushButton::clicked, this, &ProjectView::exportSegmentsRequested);
    connect(m_production, &QPushButton::clicked, this, &ProjectView::productionRequested);
    return page;
}

QWidget* ProjectView::createSegmentEditor() {
    auto* box = new QWidget;
    m_editor = new QPlainTextEdit;
    m_editor->setObjectName(QStringLiteral("segmentEditor"));
    m_editor->setAccessibleName(tr("Segment text"));
    m_voice = new QComboBox;
    m_voice->setObjectName(QStringLiteral("segmentVoice"));
    m_takes = new QComboBox;
    m_takes->setObjectName(QStringLiteral("segmentTakes"));
    m_segmentSettings = new QLabel;
    m_segmentSettings->setObjectName(QStringLiteral("segmentSettings"));
    m_pin = new QPushButton(tr("Pin current settings"));
    m_pin->setObjectName(QStringLiteral("pinSettingsButton"));
    m_pin->setToolTip(tr("This segment keeps the current sampling settings and seed, whatever they become later"));
    m_unpin = new QPushButton(tr("Unpin"));
    m_unpin->setObjectName(QStringLiteral("unpinSettingsButton"));
    auto* settingsRow = new QHBoxLayout;
    settingsRow->addWidget(m_segmentSettings, 1);
    settingsRow->addWidget(m_pin);
    settingsRow->addWidget(m_unpin);
    m_chapter = new QLineEdit;
    m_chapter->setObjectName(QStringLiteral("segmentChapter"));
    m_chapter->setPlaceholderText(tr("no new chapter here"));
    m_chapter->setToolTip(tr("A chapter with this title starts at this segment (chapter marks, one file per chapter)"));
    m_speed = new QDoubleSpinBox;
    m_speed->setObjectName(QStringLiteral("segmentSpeed"));
    m_speed->setRange(0.45, 2.0);   // the minimum reads "the project's" (0 in the project)
    m_speed->setSingleStep(0.05);
    m_speed->setDecimals(2);
    m_speed->setSuffix(QStringLiteral("×"));
    m_speed->setSpecialValueText(tr("the project's"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Voice:"), m_voice);
    form->addRow(tr("C&hapter:"), m_chapter);
    form->addRow(tr("Pa&ce:"), m_speed);
    form->addRow(tr("Ta&ke:"), m_takes);
    form->addRow(tr("Settings:"), settingsRow);

    m_regenerate = new QPushButton(tr("&Re-generate"));
    m_regenerate->setObjectName(QStringLiteral("regenerateButton"));
    auto* playSegment = new QPushButton(tr("P&lay segment"));
    m_redecode = new QPushButton(tr("Re-&decode"));
    m_redecode->setObjectName(QStringLiteral("redecodeButton"));
    m_redecode->setToolTip(tr("Decode this take's stored codes again with the loaded model (e.g. another precision): "
                              "a new take, the same speech, nothing sampled again"));
    auto* splitAt = new QPushButton(tr("&Split at cursor"));
    auto* merge = new QPushButton(tr("&Merge with next"));
    auto* insert = new QPushButton(tr("&Insert after"));
    auto* remove = new QPushButton(tr("&Delete"));
    m_needsSegment = {m_regenerate, playSegment, splitAt, merge, insert, remove};
    auto* row1 = new QHBoxLayout;
    row1->addWidget(m_regenerate);
    row1->addWidget(m_redecode);
    row1->addWidget(playSegment);
    row1->addStretch(1);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(splitAt);
    row2->addWidget(merge);
    row2->addWidget(insert);
    row2->addWidget(remove);
    row2->addStretch(1);

    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(m_editor, 1);
    v->addLayout(form);
    v->addLayout(row1);
    v->addLayout(row2);

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_loading && currentRow() >= 0) {
            m_loading = true;   // the model's dataChanged must not reload the editor under the cursor
            m_project.setSegmentText(currentRow(), m_editor->toPlainText());
            m_loading = false;
            reloadTakes();
        }
    });
    connect(m_chapter, &QLineEdit::textEdited, this, [this](const QString& title) {
        if (currentRow() >= 0)
            m_project.setSegmentChapter(currentRow(), title);
    });
    connect(m_speed, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_loading && currentRow() >= 0)
            m_project.setSegmentSpeed(currentRow(), v < 0.5 ? 0.0 : v);
    });
    connect(m_voice, &QComboBox::activated, this, [this] {
        if (currentRow() >= 0)
            m_project.setSegmentVoice(currentRow(), m_voice->currentData().toString());
    });
    connect(m_takes, &QComboBox::activated, this, [this](int i) {
        if (currentRow() >= 0)
            m_project.setCurrentTake(currentRow(), m_takes->itemData(i).toInt());
    });
    connect(m_pin, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            Q_EMIT pinSettingsRequested(currentRow());
    });
    connect(m_unpin, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            m_project.setSegmentSampling(currentRow(), std::nullopt);
    });
    connect(m_regenerate, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            Q_EMIT generateRequested({currentRow()});
    });
    connect(m_redecode, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            Q_EMIT redecodeRequested({currentRow()});
    });
    connect(playSegment, &QPushButton::clicked, this, [this] {
        if (currentRow() >= 0)
            Q_EMIT playSegmentRequested(currentRow());
    });
    connect(splitAt, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row >= 0 && m_project.splitSegment(row, m_editor->textCursor().position()))
            selectRow(row + 1);
    });
    connect(merge, &QPushButton::clicked, this, [this] {
        if (const int row = currentRow(); row >= 0 && m_project.mergeWithNext(row))
            loadSegment();
    });
    connect(insert, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (m_project.insertSegment(row + 1, tr("New segment.")))
            selectRow(row + 1);
        m_editor->selectAll();
        m_editor->setFocus();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row >= 0 && m_project.removeSegment(row))
            selectRow(std::min(row, m_project.segmentCount() - 1));
    });
    return box;
}

int ProjectView::currentRow() const {
    const QModelIndex i = m_list->currentIndex();
    return i.isValid() && i.row() < m_project.segmentCount() ? i.row() : -1;
}

void ProjectView::selectRow(int row) {
    if (row >= 0 && row < m_project.segmentCount())
        m_list->setCurrentIndex(m_project.index(row));
    else
        m_list->setCurrentIndex({});
    loadSegment();
}

int ProjectView::crossfadeMs() const { return m_crossfade->value(); }

QString ProjectView::summaryText() const { return m_summary->text(); }

void ProjectView::startFromText(const QString& text) {
    const auto mode = SplitMode(m_splitMode->currentData().toInt());
    m_project.newProject(m_project.title(), text, mode);
    m_source->clear();
}

void ProjectView::refresh() {
    const int n = m_project.segmentCount();
    m_pages->setCurrentIndex(n > 0 ? 1 : 0);
    const int missing = int(m_project.segmentsNeedingAudio().size());
    double seconds = 0;
    for (int r = 0; r < n; ++r)
        seconds += m_project.data(m_project.index(r), ProjectModel::DurationRole).toDouble();
    m_summary->setText(tr("%n segment(s)", nullptr, n) + QStringLiteral(" · ") +
                       tr("%1 to generate").arg(missing) + QStringLiteral(" · ") +
                       tr("%1 s of audio").arg(seconds, 0, 'f', 1));
    m_generateAll->setEnabled(missing > 0);
    m_export->setEnabled(missing < n);
    if (m_title->text() != m_project.title())
        m_title->setText(m_project.title());
}

void ProjectView::loadSegment() {
    const int row = currentRow();
    m_loading = true;
    m_editor->setPlainText(row >= 0 ? m_project.segment(row).text : QString());
    m_editor->setEnabled(row >= 0);
    m_voice->setEnabled(row >= 0);
    m_chapter->setEnabled(row >= 0);
    m_speed->setEnabled(row >= 0);
    if (row >= 0) {
        m_voice->setCurrentIndex(std::max(0, m_voice->findData(m_project.segment(row).voice)));
        m_chapter->setText(m_project.segment(row).chapter);
        const double speed = m_project.segment(row).speed;
        m_speed->setValue(speed == 0.0 ? m_speed->minimum() : speed);
    }
    m_loading = false;
    for (QPushButton* b : m_needsSegment)
        b->setEnabled(row >= 0);
    reloadTakes();
}

QString ProjectView::segmentSettingsText() const { return m_segmentSettings->text(); }

void ProjectView::showSegmentSettings() {
    const int row = currentRow();
    const std::optional<SamplingParams> pinned = row >= 0 ? m_project.segment(row).sampling : std::nullopt;
    m_segmentSettings->setText(!pinned ? tr("the current ones (Settings → Sampling)")
                                : tr("pinned: temperature %1 · top-p %2 · top-k %3 · seed %4")
                                      .arg(double(pinned->temperature), 0, 'f', 2)
                                      .arg(double(pinned->top_p), 0, 'f', 2)
                                      .arg(pinned->top_k)
                                      .arg(pinned->seed));
    m_pin->setEnabled(row >= 0);
    m_unpin->setEnabled(pinned.has_value());
}

void ProjectView::reloadVoices() {
    m_voice->clear();
    m_voice->addItem(tr("(project default)"), QString());
    for (int r = 0; r < m_voices.rowCount(); ++r)
        m_voice->addItem(m_voices.voice(r).name, m_voices.voice(r).id);
    if (const int row = currentRow(); row >= 0)
        m_voice->setCurrentIndex(std::max(0, m_voice->findData(m_project.segment(row).voice)));
}

void ProjectView::reloadTakes() {
    m_takes->clear();
    const int row = currentRow();
    if (row < 0) {
        m_takes->setEnabled(false);
        m_redecode->setEnabled(false);
        showSegmentSettings();
        return;
    }
    const Segment& s = m_project.segment(row);
    for (int i = int(s.takes.size()) - 1; i >= 0; --i) {   // newest first
        const SegmentTake& t = s.takes[size_t(i)];
        // Each take's loudness, so a take far from its neighbours stands out before the export.
        // Measured once per take (its audio never changes; the list reloads on every edit).
        auto known = m_takeLufs.find(t.id);
        if (known == m_takeLufs.end())
            known = m_takeLufs.insert(t.id, audio::integrated_loudness(t.audio, kSampleRate));
        const double lufs = *known;
        m_takes->addItem(tr("Take %1 · %2 · %3 s · %4")
                             .arg(i + 1)
                             .arg(t.created.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
                             .arg(double(t.audio.size()) / kSampleRate, 0, 'f', 1)
                             .arg(std::isfinite(lufs) ? tr("%1 LUFS").arg(lufs, 0, 'f', 1) : tr("silent")),
                         i);
        QString made = t.madeWith.isEmpty() ? QString() : tr("Made with %1").arg(t.madeWith);   // which model or server
        if (!t.modelHash.isEmpty() && !m_project.currentModelHash().isEmpty() && t.modelHash != m_project.currentModelHash())
            made += (made.isEmpty() ? QString() : QStringLiteral(" — ")) + tr("another model than the one loaded now");
        if (!made.isEmpty())
            m_takes->setItemData(m_takes->count() - 1, made, Qt::ToolTipRole);
    }
    if (s.takes.empty())
        m_takes->addItem(tr("no takes yet"), -1);
    m_takes->setCurrentIndex(std::max(0, m_takes->findData(s.currentTake)));
    m_takes->setEnabled(!s.takes.empty());
    m_redecode->setEnabled(s.hasAudio() && s.takes[size_t(s.currentTake)].codes.n_frames > 0);
    showSegmentSettings();
}

}  // namespace reef::ui
