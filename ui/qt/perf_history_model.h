// The live charts' data: one row per (throttled) PerfSample of the current run, in a bounded ring
// buffer. Cleared when a run starts, so the last run stays visible after it ends.
#pragma once
#include <QAbstractTableModel>
#include <deque>

#include "reef/engine_types.h"

namespace reef::ui {

class PerfHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeS, Frame, FramesPerS, StepMs, MemoryMiB, FirstBackend, ColumnCount = FirstBackend + kNumCallSites };
    // Backend columns: DisplayRole is the SdpaBackend's name, BackendValueRole its enum value (for plots).
    static constexpr int BackendValueRole = Qt::UserRole + 1;

    explicit PerfHistoryModel(int capacity = 1200, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int capacity() const { return m_capacity; }
    const PerfSample& sample(int row) const { return m_rows[size_t(row)]; }
    double memoryMiB(int row) const;
    quint64 requestId() const { return m_requestId; }

public Q_SLOTS:
    void startRun(quint64 requestId);   // clears the previous run
    void addSample(const reef::PerfSample& sample);   // ignored unless it belongs to the current run
    void clear();

private:
    int m_capacity;
    quint64 m_requestId = 0;
    std::deque<PerfSample> m_rows;
};

}  // namespace reef::ui
