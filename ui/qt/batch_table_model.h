// The Compare view's batch table (issue #27): one row per batch size of a BenchReport's batch
// throughput points (reef-cli bench --batch), the same figures as the report's batch section.
#pragma once
#include <QAbstractTableModel>

#include "reef/bench.h"

namespace reef::ui {

class BatchTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Batch, AggregateFps, PerSequenceFps, Speedup, StepMs, Roofline, Gflops, PeakMemory, Status, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1;   // numeric value of numeric columns

    explicit BatchTableModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setPoints(const std::vector<BatchPoint>& points);
    const std::vector<BatchPoint>& points() const { return m_points; }

private:
    std::vector<BatchPoint> m_points;
};

}  // namespace reef::ui
