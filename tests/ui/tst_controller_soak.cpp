// Issue #13's controller soak: 50 syntheses through EngineController over the real engine on the
// tiny demo model, cancelled at varied points (before the worker starts, mid-run, right after the
// finish, superseded by the next request). Every request must end in exactly one of finished /
// failed / cancelled, the controller must come back to Ready each time (no wedge), the last
// synthesis must work, and the RSS after run 50 must be within 5 % of the RSS after run 10.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <map>

#include "real_engine_fixture.h"

using namespace reef;
using namespace reef::ui;

namespace {

constexpr int kRuns = 50;
constexpr int kRssBaseRun = 10;
constexpr double kMaxGrowthPct = 5.0;

long rssKib() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

enum class Cancel { None, BeforeStart, MidRun, AfterFinish, Superseded };

}  // namespace

class TstControllerSoak : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_model;

private Q_SLOTS:
    void initTestCase() {
        m_model = m_dir.filePath(QStringLiteral("demo"));
        const QString error = reef_test::writeTinyDemo(m_model);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void fiftyRunsWithCancels() {
        EngineController engine(std::make_unique<Engine>());
        const QString error = reef_test::loadInto(engine, m_model, 1);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // Outcomes per request id, counted from the controller's own signals.
        std::map<quint64, int> finished, failed, cancelled;
        std::map<quint64, qsizetype> audioSamples;
        connect(&engine, &EngineController::synthesisFinished, this,
                [&](const SynthesisResult& r) {
                    ++finished[r.request_id];
                    audioSamples[r.request_id] = qsizetype(r.audio.size());
                });
        connect(&engine, &EngineController::synthesisFailed, this, [&](quint64 id, const QString& reason) {
            ++failed[id];
            qWarning("request %llu failed: %s", static_cast<unsigned long long>(id), qPrintable(reason));
        });
        connect(&engine, &EngineController::synthesisCancelled, this, [&](quint64 id) { ++cancelled[id]; });
        int chunksSeen = 0;
        connect(&engine, &EngineController::audioChunk, this, [&](const AudioChunk&) { ++chunksSeen; });
        auto ended = [&](quint64 id) { return finished.count(id) + failed.count(id) + cancelled.count(id) > 0; };

        std::vector<quint64> ids;
        long rssBase = 0, rssLast = 0;
        int midRunCancelled = 0;
        for (int run = 1; run <= kRuns; ++run) {
            SynthesisRequest r;
            r.text = "Run " + std::to_string(run) + " of the controller soak.";
            r.sampling.max_new_frames = 24;
            r.sampling.seed = uint64_t(run);
            r.stream_chunk_frames = 4;
            const Cancel how = run == kRuns ? Cancel::None : Cancel(run % 5);
            chunksSeen = 0;
            const quint64 id = engine.synthesize(r);
            ids.push_back(id);
            switch (how) {
            case Cancel::None:
                break;
            case Cancel::BeforeStart:
                engine.cancel();   // same event-loop turn: the worker has not taken it yet
                break;
            case Cancel::MidRun:
                // After the first streamed chunk (4 frames) reached this thread, or the end.
                QTRY_VERIFY_WITH_TIMEOUT(chunksSeen > 0 || ended(id), 30000);
                engine.cancel();
                break;
            case Cancel::AfterFinish:
                QTRY_VERIFY_WITH_TIMEOUT(ended(id), 30000);
                engine.cancel();   // nothing is running: must change nothing
                break;
            case Cancel::Superseded: {
                QTRY_VERIFY_WITH_TIMEOUT(chunksSeen > 0 || ended(id), 30000);
                const quint64 next = engine.synthesize(r);   // supersedes (and cancels) id
                ids.push_back(next);
                QTRY_VERIFY_WITH_TIMEOUT(ended(next), 30000);
                break;
            }
            }
            QTRY_VERIFY_WITH_TIMEOUT(ended(id), 30000);
            QTRY_COMPARE_WITH_TIMEOUT(engine.state(), EngineState::Ready, 30000);
            if (how == Cancel::MidRun && cancelled.count(id))
                ++midRunCancelled;
            if (how == Cancel::BeforeStart)
                QCOMPARE(cancelled.count(id), size_t(1));
            if (how == Cancel::Superseded)
                QCOMPARE(cancelled.count(id), size_t(1));
            if (run == kRssBaseRun)
                rssBase = rssKib();
        }
        // Late signals of cancelled requests would arrive by now; none may add a second outcome.
        QTest::qWait(200);
        rssLast = rssKib();

        for (quint64 id : ids) {
            const int outcomes = finished[id] + failed[id] + cancelled[id];
            QVERIFY2(outcomes == 1, qPrintable(QStringLiteral("request %1 ended %2 times").arg(id).arg(outcomes)));
        }
        int nFinished = 0, nFailed = 0, nCancelled = 0;
        for (quint64 id : ids) {
            nFinished += finished[id];
            nFailed += failed[id];
            nCancelled += cancelled[id];
        }
        QCOMPARE(nFailed, 0);
        QVERIFY(midRunCancelled > 0);   // at least some cancels landed while frames were decoding
        QVERIFY(finished.count(ids.back()) == 1 && audioSamples[ids.back()] > 0);   // the last one worked
        QCOMPARE(engine.state(), EngineState::Ready);

        const double growth = 100.0 * double(rssLast - rssBase) / double(rssBase);
        qInfo("controller soak: %zu requests: %d finished, %d cancelled (%d mid-run), %d failed; "
              "RSS after run %d %.1f MiB, after run %d %.1f MiB, growth %+.2f %%",
              ids.size(), nFinished, nCancelled, midRunCancelled, nFailed, kRssBaseRun, double(rssBase) / 1024.0,
              kRuns, double(rssLast) / 1024.0, growth);
        QVERIFY2(rssBase > 0 && growth < kMaxGrowthPct, qPrintable(QStringLiteral("RSS grew %1 %").arg(growth)));
    }
};

QTEST_GUILESS_MAIN(TstControllerSoak)
#include "tst_controller_soak.moc"
