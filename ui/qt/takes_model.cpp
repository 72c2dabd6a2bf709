#include "qt/takes_model.h"

#include <cmath>

#include "audio/loudness.h"

#include "qt/settings.h"

namespace reef::ui {

QString Take::settingsSummary() const {
    const QString engine =
        isRemote() ? TakesModel::tr("server %1 (%2)")
                         .arg(server, servedWith.isEmpty() ? TakesModel::tr("its engine settings not reported") : servedWith)
                   : QStringLiteral("%1 · %2 · %3 · %4")
                         .arg(QString::fromStdString(to_string(DeviceSpec{config.device, config.device_index})),
                              QLatin1String(to_string(config.precision)), QLatin1String(to_string(config.compile_mode)),
                              QLatin1String(to_string(config.sdpa_policy)));
    return QStringLiteral("%1 · T %2 · top-p %3 · top-k %4 · seed %5")
        .arg(engine)
        .arg(double(sampling.temperature), 0, 'f', 2)
        .arg(double(sampling.top_p), 0, 'f', 2)
        .arg(sampling.top_k)
        .arg(sampling.seed);
}

namespace {

QString threadsSummary(const RunMetrics& m) {
    const std::string split = describe_step_threads(m.step_threads);
    return split.empty() ? QString() : QStringLiteral(" · threads: ") + QString::fromStdString(split);
}

}  // namespace

QString Take::statsSummary() const {
    return QStringLiteral("%1 frames · %2 s audio · %3 frames/s · RTF %4 · first audio %5 ms")
        .arg(metrics.frames)
        .arg(metrics.audio_seconds, 0, 'f', 2)
        .arg(metrics.warm_frames_per_s, 0, 'f', 1)
        .arg(metrics.real_time_factor, 0, 'f', 2)
        .arg(metrics.time_to_first_audio_ms, 0, 'f', 0) +
           // decoded together with others (the queue's batch size): its frames/s is its share
           (metrics.batch > 1 ? QStringLiteral(" · batch of %1").arg(metrics.batch) : QString()) +
           // the thread governor moved (other programs kept cores busy): how the frames ran
           threadsSummary(metrics);
}

QString Take::backendSummary() const { return attentionSummary(metrics.backends); }

QString attentionSummary(const std::vector<BackendUse>& uses) {
    QStringList parts;
    for (const BackendUse& u : uses)
        parts << QStringLiteral("%1 %2").arg(QLatin1String(to_string(u.site)), QLatin1String(to_string(u.backend)));
    return parts.isEmpty() ? QString() : QStringLiteral("attention: ") + parts.join(QStringLiteral(", "));
}

void applyTakeSettings(const Take& take, Settings& settings) { settings.setSampling(take.sampling); }

TakesModel::TakesModel(int maxTakes, QObject* parent) : QAbstractTableModel(parent), m_max(std::max(0, maxTakes)) {}

int TakesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_takes.size()); }
int TakesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TakesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Take& t = m_takes[size_t(index.row())];
    if (role == Qt::ToolTipRole)
        return QStringLiteral("%1\n\n%2\n%3\n%4\nmodel: %5")
            .arg(t.text, t.settingsSummary(), t.statsSummary(), t.backendSummary(), t.modelName);
    if (role == Qt::TextAlignmentRole && index.column() != Text && index.column() != Voice)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Number: return t.number;
    case Time: return t.created.toString(QStringLiteral("hh:mm:ss"));
    case Text: return t.text.simplified().left(80);
    case Voice: return t.voice.isEmpty() ? tr("(default)") : t.voice;
    case Frames: return t.metrics.frames;
    case AudioSeconds: return QString::number(t.metrics.audio_seconds, 'f', 2);
    case Loudness: {
        // EBU R128 integrated, measured the first time a view shows it (not for every restored take
        // at start-up), so a take far from the others stands out.
        auto it = m_lufs.find(t.number);
        if (it == m_lufs.end())
            it = m_lufs.insert(t.number, audio::integrated_loudness(t.audio, kSampleRate));
        return std::isfinite(*it) ? QString::number(*it, 'f', 1) : tr("silent");
    }
    case FramesPerS: return QString::number(t.metrics.warm_frames_per_s, 'f', 1);
    case RealTime: return QString::number(t.metrics.real_time_factor, 'f', 2);
    // a server does not say why it stopped: no local reason stands in for it
    case StopReason: return t.isRemote() ? QStringLiteral("—") : QString::fromStdString(t.metrics.stop_reason);
    default: return {};
    }
}

QVariant TakesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case Number: return tr("#");
    case Time: return tr("time");
    case Text: return tr("text");
    case Voice: return tr("voice");
    case Frames: return tr("frames");
    case AudioSeconds: return tr("audio s");
    case Loudness: return tr("LUFS");
    case FramesPerS: return tr("frames/s");
    case RealTime: return tr("RTF");
    case StopReason: return tr("stop");
    default: return {};
    }
}

int TakesModel::addTake(Take take) {
    take.number = m_next++;
    if (m_max > 0)
        dropBeyondLimit(m_max - 1);
    beginInsertRows({}, 0, 0);
    m_takes.push_front(std::move(take));
    endInsertRows();
    return m_takes.front().number;
}

void TakesModel::dropBeyondLimit(int keep) {
    while (int(m_takes.size()) > keep) {
        const int last = int(m_takes.size()) - 1;
        beginRemoveRows({}, last, last);
        m_takes.pop_back();
        endRemoveRows();
    }
}

void TakesModel::setMaxTakes(int maxTakes) {
    m_max = std::max(0, maxTakes);
    if (m_max > 0)
        dropBeyondLimit(m_max);
}

void TakesModel::addRestoredTakes(std::vector<Take> takes, int reservedUpTo) {
    m_next = std::max(m_next, reservedUpTo + 1);
    if (takes.empty())
        return;
    const int first = rowCount();
    beginInsertRows({}, first, first + int(takes.size()) - 1);
    for (Take& t : takes) {
        m_next = std::max(m_next, t.number + 1);
        m_takes.push_back(std::move(t));
    }
    endInsertRows();
}

void TakesModel::removeTake(int row) {
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_takes.erase(m_takes.begin() + row);
    endRemoveRows();
}

}  // namespace reef::ui
