#include "widgets/queue_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "qt/synthesis_queue.h"
#include "widgets/two_line_delegate.h"

namespace reef::ui {
namespace {

// One row: the title, then the state line under it with a thin progress bar while running.
class QueueItemDelegate : public TwoLineDelegate {
public:
    using TwoLineDelegate::TwoLineDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const Row row = drawBackground(p, option, index, 6);
        drawText(p, option, row, row.first, index.data(Qt::DisplayRole).toString(), false);
        QRect state = row.second;
        if (QueueItem::State(index.data(SynthesisQueue::StateRole).toInt()) == QueueItem::State::Running) {
            const QRect bar(state.left(), state.center().y() - 2, state.width() / 3, 5);
            // On a selected row the selection is drawn in Highlight: the bar then uses the
            // selection's text colour, so it stays visible (issue #47).
            const bool selected = option.state & QStyle::State_Selected;
            const QColor fill = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Highlight);
            QColor track = selected ? fill : option.palette.color(QPalette::Mid);
            if (selected)
                track.setAlpha(90);
            p->fillRect(bar, track);
            const int done = bar.width() * index.data(SynthesisQueue::ProgressRole).toInt() / 100;
            p->fillRect(QRect(bar.left(), bar.top(), done, bar.height()), fill);
            state.setLeft(bar.right() + 8);
        }
        drawText(p, option, row, state, index.data(SynthesisQueue::StateTextRole).toString(), true);
    }
};

}  // namespace

QueueView::QueueView(SynthesisQueue& queue, QWidget* parent) : QWidget(parent), m_queue(queue) {
    m_list = new QListView;
    m_list->setObjectName(QStringLiteral("queueList"));
    m_list->setAccessibleName(tr("Generation queue"));
    m_list->setModel(&queue);
    m_list->setItemDelegate(new QueueItemDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_cancel = new QPushButton(tr("&Cancel item"));
    m_cancel->setObjectName(QStringLiteral("queueCancel"));
    m_cancelAll = new QPushButton(tr("Cancel &all"));
    m_cancelAll->setObjectName(QStringLiteral("queueCancelAll"));
    m_clear = new QPushButton(tr("C&lear finished"));
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("queueSummary"));
    m_summary->setWordWrap(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_cancelAll);
    buttons->addWidget(m_clear);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(m_summary);
    v->addWidget(m_list, 1);
    v->addLayout(buttons);

    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (const quint64 id = selectedId())
            m_queue.cancel(id);
        // The button may now be disabled; focus goes back to the list, not on to "Cancel all",
        // where a stray Enter would cancel everything (issue #47).
        m_list->setFocus(Qt::OtherFocusReason);
    });
    connect(m_cancelAll, &QPushButton::clicked, &m_queue, &SynthesisQueue::cancelAll);
    connect(m_clear, &QPushButton::clicked, &m_queue, &SynthesisQueue::clearFinished);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(&queue, signal, this, &QueueView::refresh);
    connect(&queue, &QAbstractItemModel::dataChanged, this, &QueueView::refresh);
    connect(&queue, &QAbstractItemModel::modelReset, this, &QueueView::refresh);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &QueueView::refresh);
    refresh();
}

QString QueueView::summaryText() const { return m_summary->text(); }

quint64 QueueView::selectedId() const {
    const QModelIndex i = m_list->currentIndex();
    return i.isValid() ? i.data(SynthesisQueue::IdRole).toULongLong() : 0;
}

void QueueView::refresh() {
    const int pending = m_queue.pendingCount();
    const int finished = m_queue.rowCount() - pending;
    if (m_queue.rowCount() == 0) {
        m_summary->setText(tr("Nothing queued. Generate adds the text here, and a project adds its segments."));
    } else if (pending > 0 && m_queue.isWaitingForEngine()) {
        m_summary->setText(tr("%n item(s) waiting for the model.", nullptr, pending));
    } else {
        // Failed and cancelled items are not "finished" work: each outcome is counted apart.
        QStringList parts{tr("%n item(s) to go", nullptr, pending), tr("%n done", nullptr, m_queue.countIn(QueueItem::State::Done))};
        if (const int failed = m_queue.countIn(QueueItem::State::Failed))
            parts << tr("%n failed", nullptr, failed);
        if (const int cancelled = m_queue.countIn(QueueItem::State::Cancelled))
            parts << tr("%n cancelled", nullptr, cancelled);
        m_summary->setText(parts.join(QStringLiteral(" · ")));
    }
    const QModelIndex current = m_list->currentIndex();
    const auto state = current.isValid() ? QueueItem::State(current.data(SynthesisQueue::StateRole).toInt())
                                         : QueueItem::State::Done;
    m_cancel->setEnabled(state == QueueItem::State::Queued || state == QueueItem::State::Running);
    m_cancelAll->setEnabled(pending > 0);
    m_clear->setEnabled(finished > 0);
}

}  // namespace reef::ui
