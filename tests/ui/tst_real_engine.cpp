// The Qt glue over the real reef::Engine on the tiny demo model: load, synthesize with streaming,
// live perf samples, bench through the same call reef-cli uses. Checks the wiring, not the audio.
// And the queue's batching over the real engine: every item gets the codes it gets alone.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "qt/engine_controller.h"
#include "real_engine_fixture.h"
#include "qt/synthesis_queue.h"
#include "reef/engine.h"

using namespace reef;
using namespace reef::ui;

class TstRealEngine : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_model;

private Q_SLOTS:
    void initTestCase() {
        m_model = m_dir.filePath(QStringLiteral("demo"));
        const QString error = reef_test::writeTinyDemo(m_model);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void loadSynthesizeAndBench() {
        EngineController engine(std::make_unique<Engine>());
        const QString error = reef_test::loadInto(engine, m_model, 2);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(engine.modelInfo().is_demo);

        SynthesisRequest r;
        r.text = "Hello from Reef.";
        r.sampling.max_new_frames = 24;
        r.stream_chunk_frames = 8;
        QSignalSpy finished(&engine, &EngineController::synthesisFinished);
        QSignalSpy synthFailed(&engine, &EngineController::synthesisFailed);
        QSignalSpy chunks(&engine, &EngineController::audioChunk);
        QSignalSpy perf(&engine, &EngineController::perfSample);
        engine.synthesize(r);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() + synthFailed.count() == 1, 60000);
        QVERIFY2(synthFailed.isEmpty(), synthFailed.isEmpty() ? "" : qPrintable(synthFailed.first().at(1).toString()));
        const auto result = finished.first().at(0).value<SynthesisResult>();
        QVERIFY(result.metrics.frames > 0);
        QCOMPARE(result.audio.size(), size_t(result.metrics.frames) * kSamplesPerFrame);
        QVERIFY(!perf.isEmpty());
        size_t streamed = 0;
        for (const auto& args : chunks)
            streamed += args.at(0).value<AudioChunk>().samples.size();
        QCOMPARE(streamed, result.audio.size());
        QCOMPARE(engine.state(), EngineState::Ready);

        BenchRequest b;
        b.model_dir = m_model.toStdString();
        b.cpu_threads = 2;
        b.arms = {BenchArm{}, *parse_bench_arm("eager:math")};
        b.frames = 8;
        b.warmup = 2;
        b.repeats = 1;
        b.logit_steps = 4;
        QSignalSpy benchDone(&engine, &EngineController::benchFinished);
        QSignalSpy benchFailed(&engine, &EngineController::benchFailed);
        engine.runBench(b);
        QTRY_VERIFY_WITH_TIMEOUT(benchDone.count() + benchFailed.count() == 1, 120000);
        QVERIFY2(benchFailed.isEmpty(), benchFailed.isEmpty() ? "" : qPrintable(benchFailed.first().at(0).toString()));
        QCOMPARE(benchDone.first().at(0).value<BenchReport>().arms.size(), size_t(2));
    }

    void queueBatchGivesEachItemItsOwnTake() {
        EngineController engine(std::make_unique<Engine>());
        const QString error = reef_test::loadInto(engine, m_model, 2);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        SynthesisQueue queue(&engine);
        const QStringList texts{QStringLiteral("The first segment."), QStringLiteral("A second, longer segment of text."),
                                QStringLiteral("Third.")};
        // Runs the three items through the queue with this batch size -> their results by tag.
        auto runAll = [&](int batch, int* batchCalls) {
            queue.setBatchSize(batch);
            QSignalSpy finished(&queue, &SynthesisQueue::itemFinished);
            QSignalSpy failed(&queue, &SynthesisQueue::itemFailed);
            QSignalSpy idle(&queue, &SynthesisQueue::idle);
            QSignalSpy batches(&engine, &EngineController::batchStarted);
            for (int k = 0; k < texts.size(); ++k) {
                SynthesisRequest r;
                r.text = texts[k].toStdString();
                r.sampling.max_new_frames = 10 + 6 * k;   // different lengths: members leave at different frames
                r.sampling.seed = 100 + uint64_t(k);
                r.stream_chunk_frames = 8;
                queue.enqueue(texts[k], r, k);
            }
            [&] { QTRY_VERIFY_WITH_TIMEOUT(idle.count() == 1, 120000); }();
            [&] { QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(2).toString())); }();
            *batchCalls = int(batches.count());
            std::map<int, SynthesisResult> out;
            for (const auto& args : finished)
                out[args.at(1).toInt()] = args.at(2).value<SynthesisResult>();
            return out;
        };
        int alone = -1, together = -1;
        const auto single = runAll(1, &alone);
        const auto batched = runAll(2, &together);
        QCOMPARE(alone, 0);
        QCOMPARE(together, 1);
        QCOMPARE(single.size(), size_t(3));
        QCOMPARE(batched.size(), size_t(3));
        for (int k = 0; k < 3; ++k) {
            const SynthesisResult& a = single.at(k);
            const SynthesisResult& b = batched.at(k);
            QVERIFY(a.codes.n_frames > 0);
            QCOMPARE(b.codes.n_frames, a.codes.n_frames);
            QVERIFY(b.codes.data == a.codes.data);   // the same take, whatever else was in the batch
            QCOMPARE(b.audio.size(), a.audio.size());
            QCOMPARE(a.metrics.batch, 1);
            // The engine really decoded them together: the first two from the first frame on (the
            // third joins when one of them leaves, alone if both already have).
            if (k < 2)
                QCOMPARE(b.metrics.batch, 2);
        }
        QCOMPARE(engine.state(), EngineState::Ready);
    }
};

QTEST_GUILESS_MAIN(TstRealEngine)
#include "tst_real_engine.moc"
