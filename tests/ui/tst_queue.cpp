// SynthesisQueue over a real EngineController and the scripted fake backend: order, one at a time,
// cancel one / the running one / all, progress, tags, and others taking the engine away.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "fake_backend.h"
#include "qt/project.h"
#include "qt/synthesis_queue.h"

using namespace reef;
using namespace reef::ui;
using reef_test::FakeBackend;
using reef_test::FakeScript;

namespace {

// The fake, plus the request's text echoed in the result, so a test can tell which request a
// result came from without asking the queue, and audio scaled per request, so no two runs match.
class EchoBackend : public FakeBackend {
public:
    using FakeBackend::FakeBackend;
    Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) override {
        auto out = FakeBackend::synthesize(request, callbacks);
        if (out.ok()) {
            out.value().metrics.stop_reason = request.text;
            const float gain = 1.0f / float(request.id + 1);
            for (float& x : out.value().audio)
                x *= gain;
        }
        return out;
    }
};

struct Rig {
    std::shared_ptr<FakeScript> script = std::make_shared<FakeScript>();
    std::unique_ptr<EngineController> engine;
    std::unique_ptr<SynthesisQueue> queue;   // destroyed before the engine
    Rig() {
        script->frames = 10;
        script->frame_delay_ms = 1;
        engine = std::make_unique<EngineController>(std::make_unique<EchoBackend>(script));
        queue = std::make_unique<SynthesisQueue>(engine.get());
    }
    void loadOk() {
        QSignalSpy loaded(engine.get(), &EngineController::modelLoaded);
        engine->loadModel(EngineConfig{});
        QVERIFY(loaded.wait(3000));
    }
};

SynthesisRequest request(const QString& text, int maxFrames = 100) {
    SynthesisRequest r;
    r.text = text.toStdString();
    r.sampling.max_new_frames = maxFrames;
    return r;
}

QueueItem::State stateOf(const SynthesisQueue& q, quint64 id) { return q.item(id)->state; }

}  // namespace

class TstQueue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsItemsOneAtATimeInOrderWithTheirTags() {
        Rig rig;
        rig.loadOk();
        QAbstractItemModelTester tester(rig.queue.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        QSignalSpy engineStarted(rig.engine.get(), &EngineController::synthesisStarted);
        int runningAtOnce = 0;
        connect(rig.queue.get(), &SynthesisQueue::itemStarted, this, [&] {
            int running = 0;
            for (int r = 0; r < rig.queue->rowCount(); ++r)
                running += rig.queue->data(rig.queue->index(r), SynthesisQueue::StateRole).toInt() ==
                           int(QueueItem::State::Running);
            runningAtOnce = std::max(runningAtOnce, running);
        });
        const QStringList texts{QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")};
        QList<quint64> ids;
        for (const QString& t : texts)
            ids << rig.queue->enqueue(t, request(t), QStringLiteral("tag-") + t);
        QCOMPARE(rig.queue->rowCount(), 3);
        QCOMPARE(rig.queue->pendingCount(), 3);
        QVERIFY(idle.wait(10000));
        QCOMPARE(idle.count(), 1);
        QCOMPARE(finished.count(), 3);
        QCOMPARE(rig.script->syntheses.load(), 3);
        QCOMPARE(runningAtOnce, 1);
        for (int k = 0; k < 3; ++k) {
            const auto args = finished.at(k);
            const auto result = args.at(2).value<SynthesisResult>();
            QCOMPARE(args.at(0).toULongLong(), ids[k]);
            QCOMPARE(args.at(1).toString(), QStringLiteral("tag-") + texts[k]);
            QCOMPARE(QString::fromStdString(result.metrics.stop_reason), texts[k]);   // what the engine was asked
            QCOMPARE(result.request_id, engineStarted.at(k).at(0).toULongLong());
            QCOMPARE(stateOf(*rig.queue, ids[k]), QueueItem::State::Done);
            QCOMPARE(rig.queue->data(rig.queue->index(k), SynthesisQueue::ProgressRole).toInt(), 100);
            QCOMPARE(rig.queue->data(rig.queue->index(k), Qt::DisplayRole).toString(), texts[k]);
        }
        QVERIFY(!rig.queue->isRunning());
        QCOMPARE(rig.queue->pendingCount(), 0);
        rig.queue->clearFinished();
        QCOMPARE(rig.queue->rowCount(), 0);
    }

    void progressReachesTheItem() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 40;
        rig.script->frame_delay_ms = 3;
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        const quint64 id = rig.queue->enqueue(QStringLiteral("p"), request(QStringLiteral("p"), 200));
        QVERIFY(progress.wait(3000));
        const int percentWhileRunning = rig.queue->data(rig.queue->index(0), SynthesisQueue::ProgressRole).toInt();
        QVERIFY(percentWhileRunning >= 0 && percentWhileRunning <= 20);
        const QString stateText = rig.queue->data(rig.queue->index(0), SynthesisQueue::StateTextRole).toString();
        QVERIFY2(stateText.startsWith(QStringLiteral("running")), qPrintable(stateText));
        QVERIFY(finished.wait(5000));
        QVERIFY(progress.count() >= 2);
        for (const auto& args : progress) {
            QCOMPARE(args.at(0).toULongLong(), id);
            QCOMPARE(args.at(2).toInt(), 200);
        }
        QCOMPARE(progress.last().at(1).toInt(), 40);   // the final count reaches the item
        QCOMPARE(rig.queue->item(id)->frames, 40);
        QCOMPARE(rig.queue->data(rig.queue->index(0), SynthesisQueue::ProgressRole).toInt(), 100);

        // max_new_frames 0 means "up to the model's length": that is the bound shown.
        const quint64 open = rig.queue->enqueue(QStringLiteral("o"), request(QStringLiteral("o"), 0));
        QVERIFY(finished.wait(5000));
        QCOMPARE(rig.queue->item(open)->maxFrames, 4096);
    }

    void cancellingAQueuedItemSkipsIt() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 30;
        rig.script->frame_delay_ms = 2;
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")), 1);
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")), 2);
        const quint64 c = rig.queue->enqueue(QStringLiteral("c"), request(QStringLiteral("c")), 3);
        rig.queue->cancel(b);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), b);
        QCOMPARE(cancelled.first().at(1).toInt(), 2);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Cancelled);
        QVERIFY(idle.wait(10000));
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished.at(0).at(0).toULongLong(), a);
        QCOMPARE(finished.at(1).at(0).toULongLong(), c);
        QCOMPARE(QString::fromStdString(finished.at(1).at(2).value<SynthesisResult>().metrics.stop_reason),
                 QStringLiteral("c"));
        QCOMPARE(rig.script->syntheses.load(), 2);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Cancelled);
        QCOMPARE(rig.queue->rowCount(), 3);   // listed until cleared
    }

    void cancellingTheRunningItemStopsItAndTheNextRuns() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 150;   // ~0.3 s each: long enough to be caught running
        rig.script->frame_delay_ms = 2;
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a"), 0), QStringLiteral("A"));
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")), QStringLiteral("B"));
        QVERIFY(progress.wait(3000));
        QVERIFY(rig.queue->isRunning());
        rig.queue->cancel(a);
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Running);   // until the engine confirms
        QVERIFY(finished.wait(10000));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), a);
        QCOMPARE(cancelled.first().at(1).toString(), QStringLiteral("A"));
        QCOMPARE(rig.script->aborted.load(), 1);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toULongLong(), b);
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("B"));
        QCOMPARE(finished.first().at(2).value<SynthesisResult>().metrics.frames, 150);
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Cancelled);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Done);
    }

    void cancelAllStopsEverything() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 150;   // ~0.3 s each: long enough to be caught running
        rig.script->frame_delay_ms = 2;
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        QList<quint64> ids;
        for (int k = 0; k < 3; ++k)
            ids << rig.queue->enqueue(QStringLiteral("item %1").arg(k), request(QStringLiteral("x")), k);
        QVERIFY(progress.wait(3000));
        rig.queue->cancelAll();
        QCOMPARE(cancelled.count(), 2);   // the queued ones at once
        QVERIFY(idle.wait(5000));
        QCOMPARE(idle.count(), 1);
        QCOMPARE(cancelled.count(), 3);
        QTest::qWait(50);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(rig.script->syntheses.load(), 1);
        QCOMPARE(rig.script->aborted.load(), 1);
        for (quint64 id : ids)
            QCOMPARE(stateOf(*rig.queue, id), QueueItem::State::Cancelled);
        QCOMPARE(rig.queue->pendingCount(), 0);
        QCOMPARE(rig.engine->state(), EngineState::Ready);
        rig.queue->clearFinished();
        QCOMPARE(rig.queue->rowCount(), 0);
    }

    void aForeignSynthesisCancelsTheRunningItemAndTheQueueGoesOn() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 150;   // ~0.3 s each: long enough to be caught running
        rig.script->frame_delay_ms = 2;
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy queueFinished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        QSignalSpy engineFinished(rig.engine.get(), &EngineController::synthesisFinished);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")));
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")));
        QVERIFY(progress.wait(3000));
        SynthesisRequest foreign;
        foreign.text = "foreign";
        rig.engine->synthesize(foreign);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), a);
        QVERIFY(queueFinished.wait(10000));
        // The foreign request ran to its end first; the queue waited for it, then ran b.
        QCOMPARE(engineFinished.count(), 2);
        QCOMPARE(engineFinished.at(0).at(0).value<SynthesisResult>().metrics.stop_reason, std::string("foreign"));
        QCOMPARE(engineFinished.at(1).at(0).value<SynthesisResult>().metrics.stop_reason, std::string("b"));
        QCOMPARE(queueFinished.first().at(0).toULongLong(), b);
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Cancelled);
        QCOMPARE(rig.script->syntheses.load(), 3);
    }

    void aModelLoadCancelsTheRunningItemAndTheQueueGoesOnAfterIt() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 150;   // ~0.3 s each: long enough to be caught running
        rig.script->frame_delay_ms = 2;
        rig.script->load_delay_ms = 100;
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")));
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")));
        QVERIFY(progress.wait(3000));
        rig.engine->loadModel(EngineConfig{});
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), a);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Queued);   // waits while the model loads
        QVERIFY(rig.queue->isWaitingForEngine());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toULongLong(), b);
        QCOMPARE(rig.script->loads.load(), 2);
    }

    void itemsWaitForAModel() {
        Rig rig;
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")));
        QTest::qWait(100);
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Queued);
        QVERIFY(rig.queue->isWaitingForEngine());
        QCOMPARE(rig.script->syntheses.load(), 0);
        rig.loadOk();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().at(0).toULongLong(), a);
        QVERIFY(!rig.queue->isWaitingForEngine());
    }

    // The studio flow: generate every segment through the queue, edit one, re-generate only what
    // needs audio; the other segments keep their audio bit for bit.
    void aProjectIsGeneratedAndOneSegmentRegenerated() {
        Rig rig;
        rig.loadOk();
        ProjectModel project;
        project.newProject(QStringLiteral("p"), QStringLiteral("One. Two. Three. Four."), SplitMode::Sentences);
        connect(rig.queue.get(), &SynthesisQueue::itemFinished, this,
                [&](quint64 id, const QVariant& tag, const SynthesisResult& result) {
                    const QueueItem* item = rig.queue->item(id);
                    QVERIFY(item);
                    QVERIFY(project.addTake(tag.toString(), takeFromResult(item->request, result, QString())));
                });
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        auto generateNeeded = [&] {
            for (int row : project.segmentsNeedingAudio())
                rig.queue->enqueue(project.segment(row).text,
                                   request(project.segment(row).text), project.segment(row).id);
        };
        generateNeeded();
        QVERIFY(idle.wait(10000));
        QVERIFY(project.segmentsNeedingAudio().isEmpty());
        QList<std::vector<float>> before;
        for (int r = 0; r < project.segmentCount(); ++r) {
            QCOMPARE(project.segment(r).takes.front().text, project.segment(r).text);   // made from its own text
            before << project.segmentAudio(r);
            QVERIFY(r == 0 || before[r] != before[r - 1]);
        }
        QCOMPARE(rig.script->syntheses.load(), 4);

        QVERIFY(project.setSegmentText(2, QStringLiteral("Three, edited.")));
        generateNeeded();
        QVERIFY(idle.wait(10000));
        QCOMPARE(rig.script->syntheses.load(), 5);   // only the edited one ran
        QCOMPARE(project.segment(2).takes.size(), size_t(2));
        QCOMPARE(project.segment(2).takes.back().text, QStringLiteral("Three, edited."));
        QVERIFY(!project.segment(2).isStale());
        QVERIFY(project.segmentAudio(2) != before[2]);
        for (int r : {0, 1, 3}) {
            QCOMPARE(project.segment(r).takes.size(), size_t(1));
            QVERIFY(project.segmentAudio(r) == before[r]);
        }
    }

    void aFailureIsReportedAndTheQueueGoesOn() {
        Rig rig;
        rig.loadOk();
        rig.script->synth_error = EngineError{ErrorCode::InvalidArgument, "text is too long for the model", {}};
        QSignalSpy failed(rig.queue.get(), &SynthesisQueue::itemFailed);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        // Only the first fails: the script is fixed before the second starts.
        connect(rig.queue.get(), &SynthesisQueue::itemFailed, this, [&] { rig.script->synth_error.reset(); });
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")), QStringLiteral("A"));
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")), QStringLiteral("B"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toULongLong(), a);
        QCOMPARE(failed.first().at(1).toString(), QStringLiteral("A"));
        QCOMPARE(failed.first().at(2).toString(), QStringLiteral("text is too long for the model"));
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Failed);
        QCOMPARE(rig.queue->data(rig.queue->index(0), SynthesisQueue::ErrorRole).toString(),
                 QStringLiteral("text is too long for the model"));
        QCOMPARE(finished.first().at(0).toULongLong(), b);
    }

    // Extra lanes (a server taking several requests at once): items run on every Ready lane at
    // the same time, each result reaches its own item, a cancel stops only its lane's item, and a
    // lane that is dropped ends what it ran as cancelled while the others go on.
    void extraLanesRunItemsAtOnce() {
        Rig rig;
        rig.script->frames = 40;
        rig.script->frame_delay_ms = 5;
        rig.loadOk();
        auto script2 = std::make_shared<FakeScript>();
        script2->frames = 40;
        script2->frame_delay_ms = 5;
        EngineController second(std::make_unique<EchoBackend>(script2));
        QSignalSpy loaded(&second, &EngineController::modelLoaded);
        second.loadModel(EngineConfig{});
        QVERIFY(loaded.wait(3000));
        rig.queue->setExtraLanes({&second});
        QCOMPARE(rig.queue->laneCount(), 2);

        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QList<quint64> ids;
        for (int i = 0; i < 4; ++i)
            ids << rig.queue->enqueue(QStringLiteral("t%1").arg(i), request(QStringLiteral("text %1").arg(i)));
        QTRY_COMPARE_WITH_TIMEOUT(rig.queue->runningCount(), 2, 3000);   // two at once
        rig.queue->cancel(ids[1]);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*rig.queue, ids[1]), QueueItem::State::Cancelled, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(rig.queue->pendingCount(), 0, 10000);
        QCOMPARE(finished.count(), 3);
        for (const QList<QVariant>& f : finished) {   // each result carries its own request's text
            const quint64 id = f.at(0).toULongLong();
            const auto result = f.at(2).value<SynthesisResult>();
            QCOMPARE(QString::fromStdString(result.metrics.stop_reason),
                     QString::fromStdString(rig.queue->item(id)->request.text));
        }
        QVERIFY(script2->syntheses.load() >= 1);   // the second lane did run some
        QVERIFY(rig.script->syntheses.load() >= 1);

        // Dropping the lane while it runs: its item is cancelled, the rest finish on lane 0.
        script2->frames = 100000;
        rig.script->frames = 20;
        QList<quint64> more;
        for (int i = 0; i < 3; ++i)
            more << rig.queue->enqueue(QStringLiteral("m%1").arg(i), request(QStringLiteral("more %1").arg(i), 0));
        QTRY_COMPARE_WITH_TIMEOUT(rig.queue->runningCount(), 2, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(script2->syntheses.load() >= 2, 3000);
        rig.queue->setExtraLanes({});
        QCOMPARE(rig.queue->laneCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(rig.queue->pendingCount(), 0, 20000);
        int cancelled = 0, done = 0;
        for (quint64 id : more) {
            cancelled += stateOf(*rig.queue, id) == QueueItem::State::Cancelled;
            done += stateOf(*rig.queue, id) == QueueItem::State::Done;
        }
        QCOMPARE(cancelled, 1);
        QCOMPARE(done, 2);
    }

    // Batching: the queued items go to the engine in one synthesizeBatch call, each ends with its
    // own result (the fake echoes the request's text), an item queued meanwhile waits for the next call.
    void aBatchSizeHandsTheQueuedItemsToOneBatchCall() {
        Rig rig;
        rig.loadOk();
        rig.queue->setBatchSize(4);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        QSignalSpy batchStarted(rig.engine.get(), &EngineController::batchStarted);
        QSignalSpy engineStarted(rig.engine.get(), &EngineController::synthesisStarted);
        const QStringList texts{QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")};
        QList<quint64> ids;
        for (const QString& t : texts)
            ids << rig.queue->enqueue(t, request(t), QStringLiteral("tag-") + t);
        QVERIFY(batchStarted.wait(3000));
        QCOMPARE(rig.queue->runningCount(), 3);
        QVERIFY(rig.queue->data(rig.queue->index(0), SynthesisQueue::StateTextRole).toString().contains(QLatin1String("batch of 3")));
        const quint64 late = rig.queue->enqueue(QStringLiteral("late"), request(QStringLiteral("late")), QStringLiteral("tag-late"));
        QCOMPARE(stateOf(*rig.queue, late), QueueItem::State::Queued);   // the running call is not joined
        QVERIFY(idle.wait(10000));
        QCOMPARE(rig.script->batch_calls.load(), 1);
        QCOMPARE(rig.script->last_batch_requests.load(), 3);
        QCOMPARE(rig.script->last_max_batch.load(), 4);
        QCOMPARE(rig.script->last_batch_listened.load(), 0);   // a batch streams nothing to the player
        const auto requestIds = batchStarted.first().at(0).value<QList<quint64>>();
        QCOMPARE(requestIds.size(), 3);
        QCOMPARE(finished.count(), 4);
        for (int k = 0; k < 3; ++k) {
            const auto args = finished.at(k);
            QCOMPARE(args.at(0).toULongLong(), ids[k]);
            QCOMPARE(args.at(1).toString(), QStringLiteral("tag-") + texts[k]);
            const auto result = args.at(2).value<SynthesisResult>();
            QCOMPARE(QString::fromStdString(result.metrics.stop_reason), texts[k]);
            QCOMPARE(result.request_id, requestIds[k]);
            QCOMPARE(stateOf(*rig.queue, ids[k]), QueueItem::State::Done);
        }
        // The late item was alone in the queue: it ran by itself, streaming to the player.
        QCOMPARE(finished.at(3).at(0).toULongLong(), late);
        QCOMPARE(rig.script->last_listened.load(), 1);
        QCOMPARE(engineStarted.count(), 1);
        QCOMPARE(rig.script->syntheses.load(), 4);
    }

    void cancellingOneItemOfABatchLeavesTheOthers() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 100;
        rig.script->frame_delay_ms = 2;
        rig.queue->setBatchSize(2);
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy finished(rig.queue.get(), &SynthesisQueue::itemFinished);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        QSignalSpy idle(rig.queue.get(), &SynthesisQueue::idle);
        const quint64 a = rig.queue->enqueue(QStringLiteral("a"), request(QStringLiteral("a")), QStringLiteral("A"));
        const quint64 b = rig.queue->enqueue(QStringLiteral("b"), request(QStringLiteral("b")), QStringLiteral("B"));
        const quint64 c = rig.queue->enqueue(QStringLiteral("c"), request(QStringLiteral("c")), QStringLiteral("C"));
        QVERIFY(progress.wait(3000));
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Running);
        rig.queue->cancel(b);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Running);   // until the engine confirms
        QVERIFY(idle.wait(10000));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), b);
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished.at(0).at(0).toULongLong(), a);
        QCOMPARE(finished.at(1).at(0).toULongLong(), c);
        QCOMPARE(finished.at(1).at(2).value<SynthesisResult>().metrics.frames, 100);
        QCOMPARE(stateOf(*rig.queue, a), QueueItem::State::Done);
        QCOMPARE(stateOf(*rig.queue, b), QueueItem::State::Cancelled);
        QCOMPARE(stateOf(*rig.queue, c), QueueItem::State::Done);
        QCOMPARE(rig.script->batch_calls.load(), 1);
        QCOMPARE(rig.engine->state(), EngineState::Ready);
    }

    void aModelLoadCancelsEveryItemOfABatch() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 150;
        rig.script->frame_delay_ms = 2;
        rig.queue->setBatchSize(0);   // auto: the engine picks; the queue still hands them together
        QSignalSpy progress(rig.queue.get(), &SynthesisQueue::itemProgress);
        QSignalSpy cancelled(rig.queue.get(), &SynthesisQueue::itemCancelled);
        QList<quint64> ids;
        for (int k = 0; k < 3; ++k)
            ids << rig.queue->enqueue(QStringLiteral("item %1").arg(k), request(QStringLiteral("x")), k);
        QVERIFY(progress.wait(3000));
        QCOMPARE(rig.script->last_max_batch.load(), 0);
        rig.engine->loadModel(EngineConfig{});
        QCOMPARE(cancelled.count(), 3);
        for (quint64 id : ids)
            QCOMPARE(stateOf(*rig.queue, id), QueueItem::State::Cancelled);
        QTRY_COMPARE_WITH_TIMEOUT(rig.engine->state(), EngineState::Ready, 5000);
    }
};

QTEST_GUILESS_MAIN(TstQueue)
#include "tst_queue.moc"
