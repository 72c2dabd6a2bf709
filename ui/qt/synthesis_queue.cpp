#include "qt/synthesis_queue.h"

#include <algorithm>

namespace reef::ui {

SynthesisQueue::SynthesisQueue(EngineController* controller, QObject* parent) : QAbstractListModel(parent) {
    registerEngineMetaTypes();
    m_lanes.push_back(Lane{controller, 0, 0, false});
    connectLane(controller);
}

// Each controller's signals find their lane by the controller, so lanes can come and go.
void SynthesisQueue::connectLane(EngineController* c) {
    if (!c)
        return;
    connect(c, &EngineController::progress, this,
            [this, c](quint64 id, int frames, double) { onProgress(laneOf(c), id, frames); });
    connect(c, &EngineController::synthesisFinished, this, [this, c](const SynthesisResult& r) { onFinished(laneOf(c), r); });
    connect(c, &EngineController::synthesisFailed, this,
            [this, c](quint64 id, const QString& reason) { onFailed(laneOf(c), id, reason); });
    connect(c, &EngineController::synthesisCancelled, this, [this, c](quint64 id) { onCancelled(laneOf(c), id); });
    // Ready again after a load, a foreign synthesis or a bench: the queue may go on.
    connect(c, &EngineController::stateChanged, this, [this](EngineState s) {
        if (s == EngineState::Ready)
            scheduleNext();
    });
}

SynthesisQueue::Lane* SynthesisQueue::laneOf(const EngineController* c) {
    for (Lane& l : m_lanes)
        if (l.controller == c)
            return &l;
    return nullptr;
}

void SynthesisQueue::setExtraLanes(const QList<EngineController*>& controllers) {
    // Lanes no longer listed end their running items as cancelled (their controllers may be going
    // away); lanes still listed keep what they run; new ones are added.
    for (size_t i = m_lanes.size(); i-- > 1;) {
        EngineController* c = m_lanes[i].controller;
        if (c && controllers.contains(c))
            continue;
        if (c)
            disconnect(c, nullptr, this, nullptr);
        if (m_lanes[i].running) {
            if (c)
                c->cancel();
            endRunning(&m_lanes[i], QueueItem::State::Cancelled, {});
        }
        m_lanes.erase(m_lanes.begin() + std::ptrdiff_t(i));
    }
    for (EngineController* c : controllers) {
        if (!c || laneOf(c))
            continue;
        m_lanes.push_back(Lane{c, 0, 0, false});
        connectLane(c);
    }
    scheduleNext();
}

int SynthesisQueue::runningCount() const {
    return int(std::count_if(m_lanes.begin(), m_lanes.end(), [](const Lane& l) { return l.running != 0; }));
}

SynthesisQueue::Lane* SynthesisQueue::laneOfItem(quint64 itemId) {
    for (Lane& l : m_lanes)
        if (l.running == itemId)
            return &l;
    return nullptr;
}

int SynthesisQueue::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_items.size()); }

QString SynthesisQueue::stateText(QueueItem::State state) {
    switch (state) {
    case QueueItem::State::Queued: return tr("queued");
    case QueueItem::State::Running: return tr("running");
    case QueueItem::State::Done: return tr("done");
    case QueueItem::State::Failed: return tr("failed");
    case QueueItem::State::Cancelled: return tr("cancelled");
    }
    return {};
}

QVariant SynthesisQueue::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueueItem& it = m_items[size_t(index.row())];
    const int percent = it.state == QueueItem::State::Done ? 100
                        : it.maxFrames > 0 ? std::clamp(int(qint64(it.frames) * 100 / it.maxFrames), 0, 100)
                                           : 0;
    switch (role) {
    case Qt::DisplayRole: return it.title;
    case Qt::ToolTipRole:
        return it.error.isEmpty() ? it.title : QStringLiteral("%1\n%2").arg(it.title, it.error);
    case IdRole: return it.id;
    case StateRole: return int(it.state);
    case StateTextRole:
        if (it.state == QueueItem::State::Running)
            return tr("running %1 %").arg(percent);
        if (it.state == QueueItem::State::Failed)
            return tr("failed: %1").arg(it.error);
        return stateText(it.state);
    case ProgressRole: return percent;
    case FramesRole: return it.frames;
    case MaxFramesRole: return it.maxFrames;
    case ErrorRole: return it.error;
    case TagRole: return it.tag;
    default: return {};
    }
}

QHash<int, QByteArray> SynthesisQueue::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "itemId");
    names.insert(StateRole, "state");
    names.insert(StateTextRole, "stateText");
    names.insert(ProgressRole, "progress");
    names.insert(FramesRole, "frames");
    names.insert(MaxFramesRole, "maxFrames");
    names.insert(ErrorRole, "error");
    names.insert(TagRole, "tag");
    return names;
}

int SynthesisQueue::rowForId(quint64 id) const {
    for (size_t r = 0; r < m_items.size(); ++r)
        if (m_items[r].id == id)
            return int(r);
    return -1;
}

QueueItem* SynthesisQueue::find(quint64 id) {
    const int row = rowForId(id);
    return row < 0 ? nullptr : &m_items[size_t(row)];
}

const QueueItem* SynthesisQueue::item(quint64 id) const {
    const int row = rowForId(id);
    return row < 0 ? nullptr : &m_items[size_t(row)];
}

int SynthesisQueue::pendingCount() const {
    return int(std::count_if(m_items.begin(), m_items.end(), [](const QueueItem& i) { return !i.isFinished(); }));
}

bool SynthesisQueue::isWaitingForEngine() const {
    const bool queued = std::any_of(m_items.begin(), m_items.end(),
                                    [](const QueueItem& i) { return i.state == QueueItem::State::Queued; });
    const bool anyReady = std::any_of(m_lanes.begin(), m_lanes.end(), [](const Lane& l) {
        return l.controller && l.controller->state() == EngineState::Ready;
    });
    return queued && !isRunning() && !anyReady;
}

void SynthesisQueue::changed(quint64 id) {
    const int row = rowForId(id);
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row));
}

quint64 SynthesisQueue::enqueue(const QString& title, SynthesisRequest request, const QVariant& tag) {
    QueueItem it;
    it.id = m_nextId++;
    it.title = title;
    it.request = std::move(request);
    it.tag = tag;
    const int row = int(m_items.size());
    beginInsertRows({}, row, row);
    m_items.push_back(std::move(it));
    endInsertRows();
    scheduleNext();
    return m_items.back().id;
}

void SynthesisQueue::cancel(quint64 itemId) {
    QueueItem* it = find(itemId);
    if (!it || it->isFinished())
        return;
    if (it->state == QueueItem::State::Running) {
        if (Lane* lane = laneOfItem(itemId)) {
            lane->cancelRequested = true;
            if (lane->controller && lane->controller->currentSynthesisId() == lane->requestId)
                lane->controller->cancel();
        }
        return;   // Cancelled when the controller confirms
    }
    it->state = QueueItem::State::Cancelled;
    const QVariant tag = it->tag;
    changed(itemId);
    Q_EMIT itemCancelled(itemId, tag);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::cancelAll() {
    QList<quint64> queued;
    for (const QueueItem& it : m_items)
        if (it.state == QueueItem::State::Queued)
            queued << it.id;
    // The running ones first, so that no queued item is started in between.
    for (const Lane& lane : std::vector<Lane>(m_lanes))
        if (lane.running)
            cancel(lane.running);
    for (quint64 id : queued)
        cancel(id);
}

void SynthesisQueue::clearFinished() {
    for (int row = int(m_items.size()) - 1; row >= 0; --row) {
        if (!m_items[size_t(row)].isFinished())
            continue;
        beginRemoveRows({}, row, row);
        m_items.erase(m_items.begin() + row);
        endRemoveRows();
    }
}

void SynthesisQueue::scheduleNext() {
    if (m_scheduled)
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &SynthesisQueue::startNext, Qt::QueuedConnection);
}

void SynthesisQueue::startNext() {
    m_scheduled = false;
    for (Lane& lane : m_lanes) {
        if (lane.running || !lane.controller || lane.controller->state() != EngineState::Ready)
            continue;
        auto next = std::find_if(m_items.begin(), m_items.end(),
                                 [](const QueueItem& i) { return i.state == QueueItem::State::Queued; });
        if (next == m_items.end())
            return;
        QueueItem& it = *next;
        it.state = QueueItem::State::Running;
        it.frames = 0;
        it.maxFrames = it.request.sampling.max_new_frames > 0 ? it.request.sampling.max_new_frames
                                                              : lane.controller->modelInfo().max_seq_len;
        lane.running = it.id;
        lane.cancelRequested = false;
        const quint64 id = it.id;
        const QVariant tag = it.tag;
        const SynthesisRequest request = it.request;
        QPointer<EngineController> controller = lane.controller;
        changed(id);
        Q_EMIT itemStarted(id, tag);
        // itemStarted's slots may have changed the lanes: find this item's lane again.
        if (Lane* l = laneOfItem(id); l && controller)
            l->requestId = controller->synthesize(request);
        return startNext();   // the next idle lane, if any
    }
}

void SynthesisQueue::finishRunning(Lane& lane, QueueItem::State state, const QString& error) {
    const quint64 id = lane.running;
    lane.running = 0;
    lane.requestId = 0;
    lane.cancelRequested = false;
    QueueItem* it = find(id);
    if (it) {
        it->state = state;
        it->error = error;
        changed(id);
    }
    scheduleNext();
}

void SynthesisQueue::endRunning(Lane* lane, QueueItem::State state, const QString& error) {
    const quint64 id = lane->running;
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    finishRunning(*lane, state, error);
    if (state == QueueItem::State::Failed)
        Q_EMIT itemFailed(id, tag, error);
    else
        Q_EMIT itemCancelled(id, tag);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onProgress(Lane* lane, quint64 requestId, int frames) {
    if (!lane || !lane->running || requestId != lane->requestId)
        return;
    QueueItem* it = find(lane->running);
    if (!it)
        return;
    it->frames = frames;
    changed(it->id);
    Q_EMIT itemProgress(it->id, frames, it->maxFrames);
}

void SynthesisQueue::onFinished(Lane* lane, const SynthesisResult& result) {
    if (!lane || !lane->running || result.request_id != lane->requestId)
        return;
    const quint64 id = lane->running;
    if (lane->cancelRequested)   // it finished before the stop reached it; the user asked for none
        return endRunning(lane, QueueItem::State::Cancelled, {});
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    if (QueueItem* item = find(id))
        item->frames = result.metrics.frames;
    finishRunning(*lane, QueueItem::State::Done);
    Q_EMIT itemFinished(id, tag, result);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onFailed(Lane* lane, quint64 requestId, const QString& reason) {
    if (!lane || !lane->running || requestId != lane->requestId)
        return;
    endRunning(lane, QueueItem::State::Failed, reason);
}

void SynthesisQueue::onCancelled(Lane* lane, quint64 requestId) {
    if (!lane || !lane->running || requestId != lane->requestId)
        return;
    endRunning(lane, QueueItem::State::Cancelled, {});
}

}  // namespace reef::ui
