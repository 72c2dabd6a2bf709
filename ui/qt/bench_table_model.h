// The Compare view's table: one row per bench arm of a BenchReport.
#pragma once
#include <QAbstractTableModel>

#include "reef/bench.h"

namespace reef::ui {

class BenchTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Arm, Play, Status, WarmFps, Roofline, ColdMs, FirstAudioMs, PeakMemory, Backends, MaxLogitDiff, Agreement, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1;   // numeric value of numeric columns

    explicit BenchTableModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setReport(const BenchReport& report);
    void clear();
    const BenchReport& report() const { return m_report; }
    bool hasReport() const { return !m_report.arms.empty(); }

private:
    QVariant display(const ArmResult& a, int row, int column) const;
    QVariant value(const ArmResult& a, int column) const;

    BenchReport m_report;
};

QString compactBackends(const std::vector<BackendUse>& uses);   // "math at all 4 sites", else the full list
QString backendsSummary(const std::vector<BackendUse>& uses);   // "slow_decode: flash, fast_decode: math"
int64_t peakMemoryBytes(const MemoryStats& m);                 // CUDA peak when known, else CPU peak RSS

}  // namespace reef::ui
