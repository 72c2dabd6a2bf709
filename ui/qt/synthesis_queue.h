// The generation queue: texts or project segments waiting to be synthesised, run one at a time in
// order through the EngineController (the engine worker stays the only owner of libtorch; the
// queue only decides when to call controller.synthesize).
//
// Rules:
// - An item starts only while the controller is Ready (a model loaded, nothing else running).
//   Without a model, items wait, queued, until one is loaded (isWaitingForEngine() tells the views).
// - Whatever takes the controller from the queue's running request (a model load, a synthesis
//   started by someone else, the app's Stop) ends that item as cancelled; the queue goes on with
//   the next item once the controller is Ready again.
// - cancel() of the running item asks the controller to stop; the item stays Running until the
//   engine confirms, then becomes Cancelled (a result that arrives after the cancel is dropped).
// - Finished, failed and cancelled items stay listed until clearFinished().
// - Lanes: besides its controller, the queue may be given more (setExtraLanes), e.g. one per
//   request a server takes at once; an item starts on whichever lane is Ready and idle, so up to
//   one item per lane runs at a time. The rules above hold per lane.
// - Batching (setBatchSize, issue #27): with a batch size other than 1 and two or more items
//   queued, a lane hands up to kItemsPerBatchCall of them to one controller.synthesizeBatch call,
//   up to the batch size decoding together; each ends on its own, and cancel() stops one alone.
//   Items queued meanwhile start with the lane's next call. One queued item runs alone (it streams).
#pragma once
#include <QAbstractListModel>
#include <QPointer>
#include <QVariant>
#include <deque>

#include "qt/engine_controller.h"

namespace reef::ui {

struct QueueItem {
    enum class State { Queued, Running, Done, Failed, Cancelled };
    quint64 id = 0;
    QString title;
    SynthesisRequest request;
    QVariant tag;             // the caller's, e.g. a project segment id
    State state = State::Queued;
    int frames = 0;
    int maxFrames = 0;        // the request's max_new_frames, or the model's max_seq_len when that is 0
    int batchCount = 0;       // running: how many items its call holds (1 = alone)
    int batchWidth = 0;       // running in a batch: how many of them decode at once (0 = the engine picks)
    QString error;            // why it failed
    bool isFinished() const { return state == State::Done || state == State::Failed || state == State::Cancelled; }
};

class SynthesisQueue : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,       // QueueItem::State as int
        StateTextRole,   // "queued", "running 45 %", "done", "failed: …", "cancelled"
        ProgressRole,    // percent 0–100 (frames of maxFrames; 100 when done)
        FramesRole,
        MaxFramesRole,
        ErrorRole,
        TagRole,
    };

    explicit SynthesisQueue(EngineController* controller, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    quint64 enqueue(const QString& title, SynthesisRequest request, const QVariant& tag = {});
    void cancel(quint64 itemId);   // queued: marked cancelled; running: controller.cancel()
    void cancelAll();
    void clearFinished();          // drops the rows of done, failed and cancelled items

    // More controllers to run items on at once (the first, the constructor's, stays lane 0).
    // Items running on lanes that are dropped end as cancelled.
    void setExtraLanes(const QList<EngineController*>& controllers);
    int laneCount() const { return int(m_lanes.size()); }
    // Sequences decoding together on the first lane (the local engine): 1 = one item at a time,
    // 0 = auto (the engine picks by free memory). Running items keep the size they started with.
    void setBatchSize(int batchSize);
    int batchSize() const { return m_batchSize; }
    // The most items one batch call takes: enough for the engine's continuous batching to keep
    // the batch full, few enough that each call's per-request set-up stays small.
    static int itemsPerBatchCall(int batchSize);
    int runningCount() const;
    bool isRunning() const { return runningCount() > 0; }
    int pendingCount() const;      // queued + running
    int countIn(QueueItem::State state) const;   // items in that state now
    bool isWaitingForEngine() const;   // items are queued but the controller is not Ready
    const QueueItem* item(quint64 id) const;
    int rowForId(quint64 id) const;   // -1 when absent

    static QString stateText(QueueItem::State state);

Q_SIGNALS:
    void itemStarted(quint64 id, const QVariant& tag);
    void itemProgress(quint64 id, int frames, int maxFrames);
    void itemFinished(quint64 id, const QVariant& tag, const reef::SynthesisResult& result);
    void itemFailed(quint64 id, const QVariant& tag, const QString& reason);
    void itemCancelled(quint64 id, const QVariant& tag);
    void idle();   // the last pending item ended (or all were cancelled)

private:
    struct Run {
        quint64 item = 0;         // queue item id
        quint64 requestId = 0;    // the controller's id for it
        bool cancelRequested = false;
    };
    struct Lane {
        QPointer<EngineController> controller;
        std::vector<Run> runs;    // what its controller runs for the queue: one item, or a batch
    };
    QueueItem* find(quint64 id);
    void connectLane(EngineController* controller);
    Lane* laneOf(const EngineController* controller);   // nullptr once its lane was dropped
    Lane* laneOfItem(quint64 itemId);
    static Run* runOfRequest(Lane* lane, quint64 requestId);   // nullptr when not the lane's
    void scheduleNext();   // posted, never re-entrant inside a controller signal
    void startNext();
    void startOn(Lane& lane, std::vector<QueueItem*> items);
    void finishRunning(Lane& lane, quint64 itemId, QueueItem::State state, const QString& error = {});
    void changed(quint64 id);
    void onProgress(Lane* lane, quint64 requestId, int frames);
    void onFinished(Lane* lane, const SynthesisResult& result);
    void onFailed(Lane* lane, quint64 requestId, const QString& reason);
    void onCancelled(Lane* lane, quint64 requestId);
    void endRunning(Lane* lane, quint64 itemId, QueueItem::State state, const QString& error);

    std::deque<QueueItem> m_items;
    std::vector<Lane> m_lanes;   // [0] = the constructor's controller
    quint64 m_nextId = 1;
    int m_batchSize = 1;
    bool m_scheduled = false;
};

}  // namespace reef::ui
