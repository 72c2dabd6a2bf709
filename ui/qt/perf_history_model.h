// The live charts' data: one row per (throttled) PerfSample of the current run, in a bounded ring
// buffer. Cleared when a run starts, so the last run stays visible after it ends.
// A batch (several requests decoding together) is one run: each row then sums the latest sample
// of every member still decoding (aggregate frames/s, frames so far), with the mean per member
// beside it (ItemFramesPerS), at most one row per kBatchRowMs.
#pragma once
#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <deque>

#include "reef/engine_types.h"

namespace reef::ui {

class PerfHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeS, Frame, FramesPerS, ItemFramesPerS, StepMs, MemoryMiB, FirstBackend, ColumnCount = FirstBackend + kNumCallSites };
    static constexpr int kBatchRowMs = 50;
    // Backend columns: DisplayRole is the SdpaBackend's name, BackendValueRole its enum value (for plots).
    static constexpr int BackendValueRole = Qt::UserRole + 1;

    explicit PerfHistoryModel(int capacity = 1200, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int capacity() const { return m_capacity; }
    const PerfSample& sample(int row) const { return m_rows[size_t(row)].sample; }
    double itemFramesPerS(int row) const { return m_rows[size_t(row)].itemFps; }
    int itemsDecoding(int row) const { return m_rows[size_t(row)].items; }
    bool isBatch() const { return !m_batch.isEmpty(); }
    double memoryMiB(int row) const;
    quint64 requestId() const { return m_requestId; }

public Q_SLOTS:
    void startRun(quint64 requestId);   // clears the previous run
    void startBatch(const QList<quint64>& requestIds);   // clears the previous run
    void endRequest(quint64 requestId);   // a batch member ended: it leaves the sums
    void addSample(const reef::PerfSample& sample);   // ignored unless it belongs to the current run
    void clear();

private:
    int m_capacity;
    quint64 m_requestId = 0;
    struct Row {
        PerfSample sample;
        double itemFps = 0;   // frames/s per decoding member
        int items = 1;        // members decoding
    };
    std::deque<Row> m_rows;
    // The batch: its members, the latest sample of each still decoding, the frames of those done.
    QList<quint64> m_batch;
    QHash<quint64, PerfSample> m_latest;
    int m_doneFrames = 0;
    QElapsedTimer m_batchClock;
    qint64 m_lastRowMs = -1;
    void append(const PerfSample& row, double itemFps, int items);
    void addBatchSample(const PerfSample& sample);
};

}  // namespace reef::ui
