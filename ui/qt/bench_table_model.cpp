#include "qt/bench_table_model.h"

#include "qt/engine_types_qt.h"

namespace reef::ui {

QString backendsSummary(const std::vector<BackendUse>& uses) {
    QStringList parts;
    for (const BackendUse& u : uses)
        parts << QStringLiteral("%1: %2").arg(QLatin1String(to_string(u.site)), QLatin1String(to_string(u.backend)));
    return parts.join(QStringLiteral(", "));
}

QString compactBackends(const std::vector<BackendUse>& uses) {
    // The table cell: one word when every call site used the same backend (the common case).
    bool same = !uses.empty();
    for (const BackendUse& u : uses)
        same = same && u.backend == uses.front().backend;
    if (same)
        return QStringLiteral("%1 at all %2 sites").arg(QLatin1String(to_string(uses.front().backend))).arg(uses.size());
    return backendsSummary(uses);
}

int64_t peakMemoryBytes(const MemoryStats& m) {
    return m.cuda_peak_allocated_bytes >= 0 ? m.cuda_peak_allocated_bytes : m.cpu_peak_rss_bytes;
}

BenchTableModel::BenchTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int BenchTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_report.arms.size()); }
int BenchTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BenchTableModel::value(const ArmResult& a, int column) const {
    switch (column) {
    case WarmFps: return a.warm_frames_per_s;
    case Roofline: return a.roofline_fraction;
    case ColdMs: return a.cold_first_frame_ms;
    case FirstAudioMs: return a.time_to_first_audio_ms;
    case PeakMemory: return qlonglong(peakMemoryBytes(a.memory));
    case MaxLogitDiff: return a.quality.max_abs_logit_diff;
    case Agreement: return a.quality.greedy_agreement;
    default: return {};
    }
}

QVariant BenchTableModel::display(const ArmResult& a, int row, int column) const {
    if (column == Play)
        return a.audio.empty() ? tr("no audio") : QString();   // the view puts a play button here
    if (!a.ran && column > Status)
        return QStringLiteral("—");
    const bool isReference = row == m_report.request.reference_arm;
    switch (column) {
    case Arm: return qs(a.arm.name()) + (isReference ? tr(" (reference)") : QString());
    case Status: return a.ran ? tr("ran") : tr("skipped: %1").arg(qs(a.error));
    case WarmFps: return QString::number(a.warm_frames_per_s, 'f', 1);
    case Roofline:
        return a.roofline_fraction > 0 ? QStringLiteral("%1%").arg(a.roofline_fraction * 100.0, 0, 'f', 0) : QStringLiteral("—");
    case ColdMs: return QString::number(a.cold_first_frame_ms, 'f', 0);
    case FirstAudioMs: return QString::number(a.time_to_first_audio_ms, 'f', 0);
    case PeakMemory: return formatBytes(peakMemoryBytes(a.memory));
    case Backends: return compactBackends(a.backends);
    case MaxLogitDiff:
        if (isReference)
            return tr("reference");
        // "within tolerance" says what the figure is measured against: the logits' own precision,
        // not the greedy agreement beside it (random weights diverge there quickly, issue #47).
        return QStringLiteral("%1 %2").arg(a.quality.max_abs_logit_diff, 0, 'g', 3)
            .arg(!a.quality.logits_finite      ? tr("NON-FINITE")
                 : a.quality.within_tolerance ? tr("(within tolerance)")
                                              : tr("(OVER tolerance)"));
    case Agreement:
        return QStringLiteral("%1% (prefix %2)").arg(a.quality.greedy_agreement * 100.0, 0, 'f', 1).arg(a.quality.greedy_exact_prefix);
    default: return {};
    }
}

QVariant BenchTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ArmResult& a = m_report.arms[size_t(index.row())];
    if (role == Qt::DisplayRole)
        return display(a, index.row(), index.column());
    if (role == ValueRole)
        return value(a, index.column());
    if (role == Qt::ToolTipRole && index.column() == Status && !a.ran)
        return qs(a.error);
    if (role == Qt::ToolTipRole && index.column() == Roofline && a.roofline_frames_per_s > 0)
        return tr("%1 of the %2 frames/s that memory bandwidth allows (%3 MB per frame, read at %4 GB/s, the fast "
                  "stack's re-reads at %5 GB/s); %6 if every byte came from memory")
            .arg(QString::number(a.roofline_fraction * 100.0, 'f', 1) + QLatin1Char('%'))
            .arg(a.roofline_frames_per_s, 0, 'f', 1)
            .arg(double(a.bytes_per_frame) / 1e6, 0, 'f', 0)
            .arg(m_report.read_bandwidth_gbps, 0, 'f', 1)
            .arg(m_report.reread_bandwidth_gbps, 0, 'f', 1)
            .arg(QString::number(a.dram_roofline_fraction * 100.0, 'f', 1) + QLatin1Char('%'));
    if (role == Qt::ToolTipRole && index.column() == Backends)   // the column may be elided
        return backendsSummary(a.backends).replace(QStringLiteral(", "), QStringLiteral("\n"));
    if (role == Qt::ToolTipRole && index.column() == MaxLogitDiff && index.row() > 0)
        return tr("The largest difference of any logit from the reference arm's, against the tolerance of the "
                  "arm's precision: within it, the arm computes what the reference computes. Greedy agreement "
                  "beside it can still drop: random weights make near-ties that any rounding flips.");
    if (role == Qt::ToolTipRole)   // a narrowed column elides its text: the whole of it
        return display(a, index.row(), index.column());
    return {};
}

QVariant BenchTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case Arm: return tr("arm");
    case Status: return tr("status");
    // two lines each, so the whole table fits the Compare tab at 1280×860 (issue #47)
    case WarmFps: return tr("warm\nframes/s");
    case Roofline: return tr("% of\nroofline");
    case ColdMs: return tr("cold first\nframe (ms)");
    case FirstAudioMs: return tr("first audio\n(ms)");
    case PeakMemory: return tr("peak\nmemory");
    case Backends: return tr("backend per\ncall site");
    case MaxLogitDiff: return tr("max |Δ logit|\n(tolerance)");
    case Agreement: return tr("greedy\nagreement");
    case Play: return tr("listen");
    default: return {};
    }
}

void BenchTableModel::setReport(const BenchReport& report) {
    beginResetModel();
    m_report = report;
    endResetModel();
}

void BenchTableModel::clear() { setReport({}); }

}  // namespace reef::ui
