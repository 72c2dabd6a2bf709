#include "qt/batch_table_model.h"

#include "qt/bench_table_model.h"
#include "qt/engine_types_qt.h"

namespace reef::ui {

BatchTableModel::BatchTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int BatchTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_points.size()); }
int BatchTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

void BatchTableModel::setPoints(const std::vector<BatchPoint>& points) {
    beginResetModel();
    m_points = points;
    endResetModel();
}

QVariant BatchTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const BatchPoint& p = m_points[size_t(index.row())];
    const int c = index.column();
    if (role == ValueRole) {
        switch (c) {
        case Batch: return p.batch;
        case AggregateFps: return p.aggregate_frames_per_s;
        case PerSequenceFps: return p.per_sequence_frames_per_s;
        case Speedup: return p.speedup;
        case StepMs: return p.step_ms;
        case Roofline: return p.roofline_fraction;
        case Gflops: return p.gflops;
        case PeakMemory: return qlonglong(peakMemoryBytes(p.memory));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && c == Status)
        return p.ran ? qs(p.arm) : qs(p.error);
    if (role != Qt::DisplayRole)
        return {};
    if (c == Batch)
        return p.batch;
    if (c == Status)
        return p.ran ? (p.cpu_kernels.empty() ? tr("ran") : tr("ran (CPU kernels %1)").arg(qs(p.cpu_kernels)))
                     : tr("skipped: %1").arg(qs(p.error));
    if (!p.ran)
        return QStringLiteral("—");
    switch (c) {
    case AggregateFps: return QString::number(p.aggregate_frames_per_s, 'f', 1);
    case PerSequenceFps: return QString::number(p.per_sequence_frames_per_s, 'f', 1);
    case Speedup: return p.speedup > 0 ? QStringLiteral("%1×").arg(p.speedup, 0, 'f', 2) : QStringLiteral("—");
    case StepMs: return QString::number(p.step_ms, 'f', 1);
    case Roofline:
        return p.roofline_fraction > 0 ? QStringLiteral("%1%").arg(p.roofline_fraction * 100.0, 0, 'f', 0) : QStringLiteral("—");
    case Gflops: return QString::number(p.gflops, 'f', 1);
    case PeakMemory: return formatBytes(peakMemoryBytes(p.memory));
    default: return {};
    }
}

QVariant BatchTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case Batch: return tr("batch");
    case AggregateFps: return tr("frames/s, all");
    case PerSequenceFps: return tr("frames/s, each");
    case Speedup: return tr("vs batch 1");
    case StepMs: return tr("batch frame (ms)");
    case Roofline: return tr("roofline");
    case Gflops: return tr("GFLOP/s");
    case PeakMemory: return tr("peak memory");
    case Status: return tr("status");
    default: return {};
    }
}

}  // namespace reef::ui
