#include "widgets/takes_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "qt/takes_model.h"

namespace reef::ui {

TakesView::TakesView(TakesModel& takes, QWidget* parent) : QWidget(parent), m_takes(takes) {
    m_table = new QTableView;
    m_table->setAccessibleName(tr("Takes"));
    m_table->setModel(&takes);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setDefaultSectionSize(76);
    m_table->setColumnWidth(TakesModel::Number, 32);
    m_table->horizontalHeader()->setSectionResizeMode(TakesModel::Text, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_replay = new QPushButton(tr("Replay"));
    m_export = new QPushButton(tr("Export take…"));
    m_reuse = new QPushButton(tr("Re-use settings"));
    m_reuse->setObjectName(QStringLiteral("reuseSettingsButton"));
    m_reuse->setToolTip(tr("Make this take's sampling settings, seed and voice the current ones"));
    m_exportAll = new QPushButton(tr("Export all…"));
    m_exportAll->setObjectName(QStringLiteral("exportAllTakesButton"));
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_replay);
    buttons->addWidget(m_export);
    buttons->addWidget(m_reuse);
    buttons->addWidget(m_exportAll);
    buttons->addStretch(1);
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(m_table, 1);
    h->addLayout(buttons);
    auto update = [this] {
        const bool has = selectedRow() >= 0;
        m_replay->setEnabled(has);
        m_export->setEnabled(has);
        m_reuse->setEnabled(has);
        m_exportAll->setEnabled(m_takes.rowCount() > 0);
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, update);
    connect(&takes, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex&, int first, int) {
        m_table->selectRow(first);
    });
    connect(m_replay, &QPushButton::clicked, this, [this] { Q_EMIT replayRequested(selectedRow()); });
    connect(m_export, &QPushButton::clicked, this, [this] { Q_EMIT exportRequested(selectedRow()); });
    connect(m_reuse, &QPushButton::clicked, this, [this] { Q_EMIT reuseRequested(selectedRow()); });
    connect(m_exportAll, &QPushButton::clicked, this, &TakesView::exportAllRequested);
    connect(&takes, &QAbstractItemModel::rowsInserted, this, update);
    connect(&takes, &QAbstractItemModel::rowsRemoved, this, update);
    connect(&takes, &QAbstractItemModel::modelReset, this, update);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { Q_EMIT replayRequested(i.row()); });
    update();
}

int TakesView::selectedRow() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

}  // namespace reef::ui
