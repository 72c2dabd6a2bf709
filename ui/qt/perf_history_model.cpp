#include "qt/perf_history_model.h"

#include "qt/engine_types_qt.h"

namespace reef::ui {

PerfHistoryModel::PerfHistoryModel(int capacity, QObject* parent)
    : QAbstractTableModel(parent), m_capacity(std::max(1, capacity)) {}

int PerfHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PerfHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

double PerfHistoryModel::memoryMiB(int row) const {
    const MemoryStats& m = m_rows[size_t(row)].sample.memory;
    const int64_t bytes = m.cuda_allocated_bytes >= 0 ? m.cuda_allocated_bytes : m.cpu_rss_bytes;
    return double(bytes) / (1024.0 * 1024.0);
}

QVariant PerfHistoryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PerfSample& s = m_rows[size_t(index.row())].sample;
    const int col = index.column();
    if (col >= FirstBackend) {
        const SdpaBackend b = s.backend[col - FirstBackend];
        if (role == Qt::DisplayRole)
            return QString::fromLatin1(to_string(b));
        if (role == BackendValueRole)
            return int(b);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (col) {
    case TimeS: return s.t_ms / 1000.0;
    case Frame: return s.frame;
    case FramesPerS: return s.frames_per_s;
    case ItemFramesPerS: return m_rows[size_t(index.row())].itemFps;
    case StepMs: return s.step_ms;
    case MemoryMiB: return memoryMiB(index.row());
    default: return {};
    }
}

QVariant PerfHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    switch (section) {
    case TimeS: return tr("t (s)");
    case Frame: return tr("frame");
    case FramesPerS: return tr("frames/s");
    case ItemFramesPerS: return tr("frames/s per item");
    case StepMs: return tr("step (ms)");
    case MemoryMiB: return tr("memory (MiB)");
    default: return QString::fromLatin1(to_string(CallSite(section - FirstBackend)));
    }
}

void PerfHistoryModel::startRun(quint64 requestId) {
    clear();
    m_requestId = requestId;
}

void PerfHistoryModel::startBatch(const QList<quint64>& requestIds) {
    clear();
    m_batch = requestIds;
    m_batchClock.start();
}

void PerfHistoryModel::endRequest(quint64 requestId) {
    if (!m_batch.contains(requestId))
        return;
    if (auto it = m_latest.find(requestId); it != m_latest.end()) {
        m_doneFrames += it->frame;
        m_latest.erase(it);
    }
}

void PerfHistoryModel::clear() {
    m_requestId = 0;
    m_batch.clear();
    m_latest.clear();
    m_doneFrames = 0;
    m_lastRowMs = -1;
    if (m_rows.empty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void PerfHistoryModel::append(const PerfSample& row, double itemFps, int items) {
    if (int(m_rows.size()) >= m_capacity) {   // ring buffer: drop the oldest row
        beginRemoveRows({}, 0, 0);
        m_rows.pop_front();
        endRemoveRows();
    }
    const int r = int(m_rows.size());
    beginInsertRows({}, r, r);
    m_rows.push_back(Row{row, itemFps, items});
    endInsertRows();
}

void PerfHistoryModel::addBatchSample(const PerfSample& sample) {
    m_latest.insert(sample.request_id, sample);
    const qint64 now = m_batchClock.elapsed();
    if (m_lastRowMs >= 0 && now - m_lastRowMs < kBatchRowMs)
        return;   // the members' samples arrive interleaved: one row per interval is enough to plot
    m_lastRowMs = now;
    // The newest sample gives the batch's step time, memory and backends (all members share them).
    PerfSample row = sample;
    row.request_id = 0;
    row.t_ms = double(now);
    row.frame = m_doneFrames;
    row.frames_per_s = 0;
    for (const PerfSample& s : std::as_const(m_latest)) {
        row.frame += s.frame;
        row.frames_per_s += s.frames_per_s;
    }
    const int items = int(m_latest.size());
    append(row, items ? row.frames_per_s / items : 0.0, items);
}

void PerfHistoryModel::addSample(const reef::PerfSample& sample) {
    if (m_batch.contains(sample.request_id))
        return addBatchSample(sample);
    if (sample.request_id != m_requestId)
        return;
    append(sample, sample.frames_per_s, 1);
}

}  // namespace reef::ui
