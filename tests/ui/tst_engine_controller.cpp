// EngineController + EngineWorker against the fake backend: states, stale requests, cancel, errors.
#include <QSignalSpy>
#include <QtTest>

#include "fake_backend.h"
#include "qt/engine_controller.h"

using namespace reef;
using namespace reef::ui;
using reef_test::FakeBackend;
using reef_test::FakeScript;

namespace {

struct Rig {
    std::shared_ptr<FakeScript> script = std::make_shared<FakeScript>();
    std::unique_ptr<EngineController> engine;
    Rig() { engine = std::make_unique<EngineController>(std::make_unique<FakeBackend>(script)); }
    void loadOk() {
        QSignalSpy loaded(engine.get(), &EngineController::modelLoaded);
        engine->loadModel(EngineConfig{});
        QVERIFY(loaded.wait(3000));
    }
};

SynthesisRequest request(const char* text = "hello") {
    SynthesisRequest r;
    r.text = text;
    return r;
}

QList<EngineState> states(const QSignalSpy& spy) {
    QList<EngineState> out;
    for (const auto& args : spy)
        out << args.at(0).value<EngineState>();
    return out;
}

}  // namespace

class TstEngineController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadThenSynthesizeWalksTheStates() {
        Rig rig;
        rig.script->load_delay_ms = 50;
        QSignalSpy state(rig.engine.get(), &EngineController::stateChanged);
        QCOMPARE(rig.engine->state(), EngineState::NoModel);
        rig.loadOk();
        QCOMPARE(rig.engine->modelInfo().name, std::string("fake model"));
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        QSignalSpy progress(rig.engine.get(), &EngineController::progress);
        QSignalSpy chunks(rig.engine.get(), &EngineController::audioChunk);
        const quint64 id = rig.engine->synthesize(request());
        QCOMPARE(rig.engine->state(), EngineState::Generating);
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().at(0).value<SynthesisResult>();
        QCOMPARE(result.request_id, id);
        QCOMPARE(result.metrics.frames, 40);
        QCOMPARE(chunks.count(), 5);   // 40 frames / 8 per chunk
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(1).toInt(), 40);   // the flush reports the final frame count
        QCOMPARE(states(state), (QList<EngineState>{EngineState::Loading, EngineState::Ready,
                                                    EngineState::Generating, EngineState::Ready}));
    }

    // Orders, not times: the backend's load waits on a latch this test holds, so nothing here
    // depends on how fast the machine is.
    void guiStaysResponsiveWhileLoading() {
        Rig rig;
        rig.script->hold_load = true;
        rig.engine->loadModel(EngineConfig{});
        // loadModel only queues: it returned while the backend's load was still held. (A loadModel
        // that ran the load on the calling thread returns only after the latch lets go: 1 here.)
        QCOMPARE(rig.script->loads_done.load(), 0);
        QCOMPARE(rig.engine->state(), EngineState::Loading);
        // The GUI thread's event loop runs while the load is held. (A load queued onto the GUI
        // thread itself would block it until the latch lets go: no ticks, or the load done first.)
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(20);
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= 5, 10000);
        QCOMPARE(rig.script->loads_done.load(), 0);
        QCOMPARE(rig.engine->state(), EngineState::Loading);
        rig.script->hold_load = false;
        QTRY_COMPARE_WITH_TIMEOUT(rig.engine->state(), EngineState::Ready, 10000);
        QCOMPARE(rig.script->loads_done.load(), 1);
    }

    void failingLoadReportsTheReason() {
        Rig rig;
        rig.script->load_error = EngineError{ErrorCode::ModelNotFound, "model folder not found: /nope", "pick a folder"};
        QSignalSpy failed(rig.engine.get(), &EngineController::loadFailed);
        rig.engine->loadModel(EngineConfig{});
        QVERIFY(failed.wait(3000));
        const QString reason = failed.first().at(0).toString();
        QVERIFY2(reason.contains(QStringLiteral("model folder not found: /nope")), qPrintable(reason));
        QVERIFY(reason.contains(QStringLiteral("pick a folder")));
        QCOMPARE(rig.engine->state(), EngineState::NoModel);
        QVERIFY(!rig.engine->isModelLoaded());
    }

    void cancelMidRunLeavesItReady() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 2000;
        rig.script->frame_delay_ms = 5;
        QSignalSpy cancelled(rig.engine.get(), &EngineController::synthesisCancelled);
        QSignalSpy progress(rig.engine.get(), &EngineController::progress);
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        rig.engine->synthesize(request());
        QVERIFY(progress.wait(3000));   // it is really running
        rig.engine->cancel();
        QCOMPARE(rig.engine->state(), EngineState::Stopping);
        QVERIFY(cancelled.wait(3000));
        QCOMPARE(rig.engine->state(), EngineState::Ready);
        QCOMPARE(rig.script->aborted.load(), 1);
        QCOMPARE(finished.count(), 0);
        // and the next request runs normally
        rig.script->frames = 10;
        rig.engine->synthesize(request());
        QVERIFY(finished.wait(3000));
        QCOMPARE(finished.first().at(0).value<SynthesisResult>().metrics.frames, 10);
    }

    void lateResultsOfSupersededRequestsAreDropped() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 30;
        rig.script->frame_delay_ms = 3;
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        QSignalSpy chunks(rig.engine.get(), &EngineController::audioChunk);
        QSignalSpy perf(rig.engine.get(), &EngineController::perfSample);
        QSignalSpy cancelled(rig.engine.get(), &EngineController::synthesisCancelled);
        const quint64 first = rig.engine->synthesize(request("one"));
        const quint64 second = rig.engine->synthesize(request("two"));
        QVERIFY(second > first);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), first);
        QVERIFY(finished.wait(5000));
        QTest::qWait(50);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).value<SynthesisResult>().request_id, second);
        for (const auto& args : chunks)
            QCOMPARE(args.at(0).value<AudioChunk>().request_id, second);
        for (const auto& args : perf)
            QCOMPARE(args.at(0).value<PerfSample>().request_id, second);
        QCOMPARE(rig.engine->state(), EngineState::Ready);
    }

    void perfSamplesAreThrottled() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 300;
        rig.script->frame_delay_ms = 1;   // ~1000 samples/s from the engine
        QSignalSpy perf(rig.engine.get(), &EngineController::perfSample);
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        QElapsedTimer t;
        t.start();
        rig.engine->synthesize(request());
        QVERIFY(finished.wait(10000));
        const double seconds = double(t.elapsed()) / 1000.0;
        QVERIFY(perf.count() >= 1);
        // at most ~20 per second, plus the final flush
        QVERIFY2(perf.count() <= int(seconds * 1000.0 / EngineWorker::kThrottleMs) + 2,
                 qPrintable(QStringLiteral("%1 samples in %2 s").arg(perf.count()).arg(seconds)));
        QCOMPARE(perf.last().at(0).value<PerfSample>().frame, 299);
    }

    void backendExceptionBecomesAFailureValue() {
        Rig rig;
        rig.loadOk();
        rig.script->throw_in_synth = true;
        QSignalSpy failed(rig.engine.get(), &EngineController::synthesisFailed);
        rig.engine->synthesize(request());
        QVERIFY(failed.wait(3000));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("fake backend bug")));
        QCOMPARE(rig.engine->state(), EngineState::Ready);
    }

    void synthesisErrorIsReported() {
        Rig rig;
        rig.loadOk();
        rig.script->synth_error = EngineError{ErrorCode::InvalidArgument, "text is empty", {}};
        QSignalSpy failed(rig.engine.get(), &EngineController::synthesisFailed);
        rig.engine->synthesize(request());
        QVERIFY(failed.wait(3000));
        QCOMPARE(failed.first().at(1).toString(), QStringLiteral("text is empty"));
    }

    void encodeReferenceReturnsCodes() {
        Rig rig;
        rig.loadOk();
        QSignalSpy encoded(rig.engine.get(), &EngineController::referenceEncoded);
        const quint64 id = rig.engine->encodeReference(std::vector<float>(kSamplesPerFrame * 12, 0.1f));
        QVERIFY(encoded.wait(3000));
        QCOMPARE(encoded.first().at(0).toULongLong(), id);
        QCOMPARE(encoded.first().at(1).value<Codes>().n_frames, 12);
    }

    void benchRunsAndCanBeCancelled() {
        Rig rig;
        BenchRequest r;
        r.arms = {BenchArm{}, *parse_bench_arm("eager:math:full")};
        QSignalSpy done(rig.engine.get(), &EngineController::benchFinished);
        QSignalSpy progress(rig.engine.get(), &EngineController::benchProgress);
        rig.engine->runBench(r);
        QCOMPARE(rig.engine->state(), EngineState::Benchmarking);
        QVERIFY(done.wait(3000));
        QCOMPARE(done.first().at(0).value<BenchReport>().arms.size(), size_t(2));
        QCOMPARE(progress.count(), 2);
        QCOMPARE(rig.engine->state(), EngineState::NoModel);

        rig.script->bench_delay_ms = 200;
        QSignalSpy failed(rig.engine.get(), &EngineController::benchFailed);
        rig.engine->runBench(r);
        QVERIFY(progress.wait(3000));
        rig.engine->cancel();
        QVERIFY(failed.wait(3000));
        QVERIFY(failed.first().at(0).toString().contains(QStringLiteral("cancelled")));
    }

    void capsArriveFromTheWorker() {
        Rig rig;
        QTRY_VERIFY_WITH_TIMEOUT(!rig.engine->deviceCaps().devices.empty(), 3000);
        QVERIFY(!rig.engine->deviceCaps().devices.at("cuda").available);
    }

    void destructorCancelsARunningSynthesis() {
        auto script = std::make_shared<FakeScript>();
        script->frames = 100000;
        script->frame_delay_ms = 2;   // run to its end, at least frames × 2 ms = 200 s
        QElapsedTimer t;
        {
            EngineController engine(std::make_unique<FakeBackend>(script));
            QSignalSpy loaded(&engine, &EngineController::modelLoaded);
            engine.loadModel(EngineConfig{});
            QVERIFY(loaded.wait(3000));
            QSignalSpy progress(&engine, &EngineController::progress);
            engine.synthesize(request());
            QVERIFY(progress.wait(3000));
            t.start();
        }
        // The destructor stopped the run and joined it: the backend had seen the abort by the time
        // it returned (a destructor that neither cancels nor joins leaves 0 here). And it did not
        // wait for the run's end: a bound from the script's own figures, a tenth of the least time
        // the run takes to its end (a destructor that only joins takes all of it, or hits the ctest
        // timeout), however slow the machine.
        const qint64 ms = t.elapsed();
        const qint64 full_run_ms = qint64(script->frames) * script->frame_delay_ms;
        QVERIFY2(ms < full_run_ms / 10,
                 qPrintable(QStringLiteral("%1 ms, the whole run takes %2 ms").arg(ms).arg(full_run_ms)));
        QCOMPARE(script->aborted.load(), 1);
    }

    // A batch: each request ends with its own signal under its own id; chunks and progress of every
    // member pass; Generating until the last one ends; one member can be cancelled alone.
    void aBatchEndsEachRequestOnItsOwn() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 30;
        rig.script->frame_delay_ms = 2;
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        QSignalSpy cancelled(rig.engine.get(), &EngineController::synthesisCancelled);
        QSignalSpy progress(rig.engine.get(), &EngineController::progress);
        QSignalSpy chunks(rig.engine.get(), &EngineController::audioChunk);
        const QList<quint64> ids = rig.engine->synthesizeBatch({request("a"), request("b"), request("c")}, 2);
        QCOMPARE(ids.size(), 3);
        QCOMPARE(rig.engine->batchIds(), ids);
        QCOMPARE(rig.engine->state(), EngineState::Generating);
        rig.engine->cancelRequest(ids[1]);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + cancelled.count(), 3, 5000);
        QCOMPARE(rig.engine->state(), EngineState::Ready);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(0).toULongLong(), ids[1]);
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished.at(0).at(0).value<SynthesisResult>().request_id, ids[0]);
        QCOMPARE(finished.at(1).at(0).value<SynthesisResult>().request_id, ids[2]);
        QCOMPARE(rig.script->batch_calls.load(), 1);
        QCOMPARE(rig.script->last_max_batch.load(), 2);
        QSet<quint64> progressed, chunked;
        for (const auto& args : progress)
            progressed << args.at(0).toULongLong();
        for (const auto& args : chunks)
            chunked << args.at(0).value<AudioChunk>().request_id;
        QVERIFY(progressed.contains(ids[0]) && progressed.contains(ids[2]));
        QVERIFY(chunked.contains(ids[0]) && chunked.contains(ids[2]));
        QVERIFY(rig.engine->batchIds().isEmpty());
    }

    void aSynthesisSupersedesARunningBatch() {
        Rig rig;
        rig.loadOk();
        rig.script->frames = 100;
        rig.script->frame_delay_ms = 2;
        QSignalSpy finished(rig.engine.get(), &EngineController::synthesisFinished);
        QSignalSpy cancelled(rig.engine.get(), &EngineController::synthesisCancelled);
        QSignalSpy progress(rig.engine.get(), &EngineController::progress);
        const QList<quint64> ids = rig.engine->synthesizeBatch({request("a"), request("b")}, 0);
        QVERIFY(progress.wait(3000));
        const quint64 next = rig.engine->synthesize(request("next"));
        QCOMPARE(cancelled.count(), 2);   // at once: their late results are dropped
        QCOMPARE(cancelled.at(0).at(0).toULongLong(), ids[0]);
        QCOMPARE(cancelled.at(1).at(0).toULongLong(), ids[1]);
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).value<SynthesisResult>().request_id, next);
        QTest::qWait(50);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(rig.engine->state(), EngineState::Ready);
    }
};

QTEST_GUILESS_MAIN(TstEngineController)
#include "tst_engine_controller.moc"
