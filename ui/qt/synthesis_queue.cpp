#include "qt/synthesis_queue.h"

#include <algorithm>

namespace reef::ui {

SynthesisQueue::SynthesisQueue(EngineController* controller, QObject* parent) : QAbstractListModel(parent) {
    registerEngineMetaTypes();
    m_lanes.push_back(Lane{controller, {}});
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
        if (!m_lanes[i].runs.empty() && c)
            c->cancel();
        while (!m_lanes[i].runs.empty())
            endRunning(&m_lanes[i], m_lanes[i].runs.front().item, QueueItem::State::Cancelled, {});
        m_lanes.erase(m_lanes.begin() + std::ptrdiff_t(i));
    }
    for (EngineController* c : controllers) {
        if (!c || laneOf(c))
            continue;
        m_lanes.push_back(Lane{c, {}});
        connectLane(c);
    }
    scheduleNext();
}

void SynthesisQueue::setBatchSize(int batchSize) {
    m_batchSize = std::max(0, batchSize);
    scheduleNext();
}

int SynthesisQueue::itemsPerBatchCall(int batchSize) {
    const int b = batchSize > 0 ? batchSize : TtsBackend::kAutoMaxBatch;
    return std::clamp(4 * b, 2, 32);
}

int SynthesisQueue::runningCount() const {
    int n = 0;
    for (const Lane& l : m_lanes)
        n += int(l.runs.size());
    return n;
}

SynthesisQueue::Lane* SynthesisQueue::laneOfItem(quint64 itemId) {
    for (Lane& l : m_lanes)
        for (const Run& r : l.runs)
            if (r.item == itemId)
                return &l;
    return nullptr;
}

SynthesisQueue::Run* SynthesisQueue::runOfRequest(Lane* lane, quint64 requestId) {
    if (!lane || !requestId)
        return nullptr;
    for (Run& r : lane->runs)
        if (r.requestId == requestId)
            return &r;
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
        if (it.state == QueueItem::State::Running && it.batchCount > 1) {
            // A batch call holds more items than decode at once: those without a frame yet wait
            // for a slot (the engine admits them as others end), and say so (issue #47).
            const QString width = it.batchWidth > 0 ? tr("batch of %1").arg(it.batchWidth) : tr("batch");
            return it.frames == 0 ? tr("waiting for a slot in the %1").arg(width)
                                  : tr("running %1 % (%2)").arg(percent).arg(width);
        }
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

int SynthesisQueue::countIn(QueueItem::State state) const {
    return int(std::count_if(m_items.begin(), m_items.end(), [state](const QueueItem& i) { return i.state == state; }));
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
            for (Run& r : lane->runs) {
                if (r.item != itemId)
                    continue;
                r.cancelRequested = true;
                if (lane->controller)
                    lane->controller->cancelRequest(r.requestId);   // the rest of its batch goes on
            }
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
    QList<quint64> running;
    for (const Lane& lane : m_lanes)
        for (const Run& r : lane.runs)
            running << r.item;
    for (quint64 id : running)
        cancel(id);
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
    for (size_t li = 0; li < m_lanes.size(); ++li) {
        Lane& lane = m_lanes[li];
        if (!lane.runs.empty() || !lane.controller || lane.controller->state() != EngineState::Ready)
            continue;
        // Lane 0 is the local engine: it batches; the extra lanes are a server's connections.
        const int batch = li == 0 ? m_batchSize : 1;
        const int take = batch == 1 ? 1 : itemsPerBatchCall(batch);
        std::vector<QueueItem*> items;
        for (QueueItem& i : m_items)
            if (i.state == QueueItem::State::Queued && int(items.size()) < take)
                items.push_back(&i);
        if (items.empty())
            return;
        startOn(lane, items);
        return startNext();   // the next idle lane, if any
    }
}

// Marks the items running on the lane and hands them to its controller: one alone through
// synthesize (it streams to the player), several through one synthesizeBatch.
void SynthesisQueue::startOn(Lane& lane, std::vector<QueueItem*> items) {
    QPointer<EngineController> controller = lane.controller;
    QList<quint64> ids;
    QList<QVariant> tags;
    QList<SynthesisRequest> requests;
    for (QueueItem* it : items) {
        it->state = QueueItem::State::Running;
        it->frames = 0;
        it->batchCount = int(items.size());
        it->batchWidth = m_batchSize > 0 ? std::min(m_batchSize, int(items.size())) : 0;
        it->maxFrames = it->request.sampling.max_new_frames > 0 ? it->request.sampling.max_new_frames
                                                                : controller->modelInfo().max_seq_len;
        lane.runs.push_back(Run{it->id, 0, false});
        ids << it->id;
        tags << it->tag;
        requests << it->request;
        // A batch streams nothing to the player (StudioController): no one listens to its items
        // while they are made, so their audio is decoded whole after their last frames.
        if (items.size() > 1)
            requests.back().listened_live = false;
    }
    for (int i = 0; i < ids.size(); ++i) {
        changed(ids[i]);
        Q_EMIT itemStarted(ids[i], tags[i]);
    }
    // itemStarted's slots may have changed the lanes: find this lane again by its first item.
    Lane* l = laneOfItem(ids.front());
    if (!l || !controller)
        return;
    const QList<quint64> requestIds = requests.size() == 1 ? QList<quint64>{controller->synthesize(requests.front())}
                                                           : controller->synthesizeBatch(requests, m_batchSize);
    for (int i = 0; i < ids.size() && i < requestIds.size(); ++i)
        for (Run& r : l->runs)
            if (r.item == ids[i])
                r.requestId = requestIds[i];
}

void SynthesisQueue::finishRunning(Lane& lane, quint64 id, QueueItem::State state, const QString& error) {
    lane.runs.erase(std::remove_if(lane.runs.begin(), lane.runs.end(), [id](const Run& r) { return r.item == id; }),
                    lane.runs.end());
    QueueItem* it = find(id);
    if (it) {
        it->state = state;
        it->error = error;
        changed(id);
    }
    scheduleNext();
}

void SynthesisQueue::endRunning(Lane* lane, quint64 id, QueueItem::State state, const QString& error) {
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    finishRunning(*lane, id, state, error);
    if (state == QueueItem::State::Failed)
        Q_EMIT itemFailed(id, tag, error);
    else
        Q_EMIT itemCancelled(id, tag);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onProgress(Lane* lane, quint64 requestId, int frames) {
    const Run* run = runOfRequest(lane, requestId);
    QueueItem* it = run ? find(run->item) : nullptr;
    if (!it)
        return;
    it->frames = frames;
    changed(it->id);
    Q_EMIT itemProgress(it->id, frames, it->maxFrames);
}

void SynthesisQueue::onFinished(Lane* lane, const SynthesisResult& result) {
    const Run* run = runOfRequest(lane, result.request_id);
    if (!run)
        return;
    const quint64 id = run->item;
    if (run->cancelRequested)   // it finished before the stop reached it; the user asked for none
        return endRunning(lane, id, QueueItem::State::Cancelled, {});
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    if (QueueItem* item = find(id))
        item->frames = result.metrics.frames;
    finishRunning(*lane, id, QueueItem::State::Done);
    Q_EMIT itemFinished(id, tag, result);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onFailed(Lane* lane, quint64 requestId, const QString& reason) {
    if (const Run* run = runOfRequest(lane, requestId))
        endRunning(lane, run->item, QueueItem::State::Failed, reason);
}

void SynthesisQueue::onCancelled(Lane* lane, quint64 requestId) {
    if (const Run* run = runOfRequest(lane, requestId))
        endRunning(lane, run->item, QueueItem::State::Cancelled, {});
}

}  // namespace reef::ui
