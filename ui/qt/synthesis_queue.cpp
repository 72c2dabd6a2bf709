#include "qt/synthesis_queue.h"

#include <algorithm>

namespace reef::ui {

SynthesisQueue::SynthesisQueue(EngineController* controller, QObject* parent)
    : QAbstractListModel(parent), m_controller(controller) {
    registerEngineMetaTypes();
    connect(controller, &EngineController::progress, this,
            [this](quint64 id, int frames, double) { onProgress(id, frames); });
    connect(controller, &EngineController::synthesisFinished, this, &SynthesisQueue::onFinished);
    connect(controller, &EngineController::synthesisFailed, this, &SynthesisQueue::onFailed);
    connect(controller, &EngineController::synthesisCancelled, this, &SynthesisQueue::onCancelled);
    // Ready again after a load, a foreign synthesis or a bench: the queue may go on.
    connect(controller, &EngineController::stateChanged, this, [this](EngineState s) {
        if (s == EngineState::Ready)
            scheduleNext();
    });
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
    return queued && !isRunning() && (!m_controller || m_controller->state() != EngineState::Ready);
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
        m_cancelRequested = true;
        if (m_controller && m_controller->currentSynthesisId() == m_requestId)
            m_controller->cancel();
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
    // The running one first, so that no queued item is started in between.
    if (m_running)
        cancel(m_running);
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
    if (m_running || !m_controller || m_controller->state() != EngineState::Ready)
        return;
    auto next = std::find_if(m_items.begin(), m_items.end(),
                             [](const QueueItem& i) { return i.state == QueueItem::State::Queued; });
    if (next == m_items.end())
        return;
    QueueItem& it = *next;
    it.state = QueueItem::State::Running;
    it.frames = 0;
    it.maxFrames = it.request.sampling.max_new_frames > 0 ? it.request.sampling.max_new_frames
                                                          : m_controller->modelInfo().max_seq_len;
    m_running = it.id;
    m_cancelRequested = false;
    const quint64 id = it.id;
    const QVariant tag = it.tag;
    changed(id);
    Q_EMIT itemStarted(id, tag);
    m_requestId = m_controller->synthesize(it.request);
}

void SynthesisQueue::finishRunning(QueueItem::State state, const QString& error) {
    const quint64 id = m_running;
    m_running = 0;
    m_requestId = 0;
    m_cancelRequested = false;
    QueueItem* it = find(id);
    if (it) {
        it->state = state;
        it->error = error;
        changed(id);
    }
    scheduleNext();
}

void SynthesisQueue::onProgress(quint64 requestId, int frames) {
    if (!m_running || requestId != m_requestId)
        return;
    QueueItem* it = find(m_running);
    if (!it)
        return;
    it->frames = frames;
    changed(it->id);
    Q_EMIT itemProgress(it->id, frames, it->maxFrames);
}

void SynthesisQueue::onFinished(const SynthesisResult& result) {
    if (!m_running || result.request_id != m_requestId)
        return;
    const quint64 id = m_running;
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    if (m_cancelRequested) {   // it finished before the stop reached it; the user asked for none
        finishRunning(QueueItem::State::Cancelled);
        Q_EMIT itemCancelled(id, tag);
    } else {
        if (QueueItem* item = find(id))
            item->frames = result.metrics.frames;
        finishRunning(QueueItem::State::Done);
        Q_EMIT itemFinished(id, tag, result);
    }
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onFailed(quint64 requestId, const QString& reason) {
    if (!m_running || requestId != m_requestId)
        return;
    const quint64 id = m_running;
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    finishRunning(QueueItem::State::Failed, reason);
    Q_EMIT itemFailed(id, tag, reason);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

void SynthesisQueue::onCancelled(quint64 requestId) {
    if (!m_running || requestId != m_requestId)
        return;
    const quint64 id = m_running;
    const QueueItem* it = find(id);
    const QVariant tag = it ? it->tag : QVariant();
    finishRunning(QueueItem::State::Cancelled);
    Q_EMIT itemCancelled(id, tag);
    if (pendingCount() == 0)
        Q_EMIT idle();
}

}  // namespace reef::ui
