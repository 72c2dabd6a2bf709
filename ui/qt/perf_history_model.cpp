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
    const MemoryStats& m = m_rows[size_t(row)].memory;
    const int64_t bytes = m.cuda_allocated_bytes >= 0 ? m.cuda_allocated_bytes : m.cpu_rss_bytes;
    return double(bytes) / (1024.0 * 1024.0);
}

QVariant PerfHistoryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PerfSample& s = m_rows[size_t(index.row())];
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
    case StepMs: return tr("step (ms)");
    case MemoryMiB: return tr("memory (MiB)");
    default: return QString::fromLatin1(to_string(CallSite(section - FirstBackend)));
    }
}

void PerfHistoryModel::startRun(quint64 requestId) {
    clear();
    m_requestId = requestId;
}

void PerfHistoryModel::clear() {
    if (m_rows.empty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void PerfHistoryModel::addSample(const reef::PerfSample& sample) {
    if (sample.request_id != m_requestId)
        return;
    if (int(m_rows.size()) >= m_capacity) {   // ring buffer: drop the oldest row
        beginRemoveRows({}, 0, 0);
        m_rows.pop_front();
        endRemoveRows();
    }
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.push_back(sample);
    endInsertRows();
}

}  // namespace reef::ui
