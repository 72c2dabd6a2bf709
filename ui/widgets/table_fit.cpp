#include "widgets/table_fit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QPointer>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <numeric>
#include <vector>

namespace reef::ui {
namespace {

constexpr int kNarrowest = 48;   // px: a narrowed column still shows a few characters

void fitColumns(QTableView* table) {
    QHeaderView* header = table->horizontalHeader();
    const int columns = header->count();
    if (columns == 0)
        return;
    table->resizeColumnsToContents();
    std::vector<int> want(size_t(columns), 0);
    for (int c = 0; c < columns; ++c)
        want[size_t(c)] = header->isSectionHidden(c) ? 0 : header->sectionSize(c);
    const int room = table->viewport()->width() - 2;
    if (std::accumulate(want.begin(), want.end(), 0) <= room)
        return;
    // The largest cap with sum(min(want, cap)) <= room: the narrow columns keep their widths.
    int lo = kNarrowest, hi = *std::max_element(want.begin(), want.end());
    auto total = [&](int cap) {
        int sum = 0;
        for (int w : want)
            sum += std::min(w, std::max(cap, std::min(w, kNarrowest)));
        return sum;
    };
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (total(mid) <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    for (int c = 0; c < columns; ++c)
        if (want[size_t(c)] > lo)
            header->resizeSection(c, lo);
}

class Refitter : public QObject {
public:
    explicit Refitter(QTableView* table) : QObject(table), m_table(table) {
        m_timer.setSingleShot(true);
        m_timer.setInterval(0);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            if (m_table)
                fitColumns(m_table);
        });
    }
    void schedule() { m_timer.start(); }
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Resize)
            schedule();
        return false;
    }

private:
    QPointer<QTableView> m_table;
    QTimer m_timer;
};

}  // namespace

void keepColumnsInView(QTableView* table) {
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->setTextElideMode(Qt::ElideRight);
    auto* refit = new Refitter(table);
    table->viewport()->installEventFilter(refit);
    if (QAbstractItemModel* m = table->model()) {
        QObject::connect(m, &QAbstractItemModel::modelReset, refit, &Refitter::schedule);
        QObject::connect(m, &QAbstractItemModel::rowsInserted, refit, &Refitter::schedule);
        QObject::connect(m, &QAbstractItemModel::dataChanged, refit, &Refitter::schedule);
    }
    refit->schedule();
}

}  // namespace reef::ui
