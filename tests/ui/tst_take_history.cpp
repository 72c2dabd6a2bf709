// Takes that survive restarts: a simulated restart restores the same takes (text, settings, audio
// samples), pruning by size, a corrupt index or a missing audio file; "re-use these settings" and
// the history size setting.
#include <QAbstractItemModelTester>
#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "qt/settings.h"
#include "qt/take_history.h"
#include "qt/takes_model.h"

using namespace reef;
using namespace reef::ui;

namespace {

constexpr qint64 kLots = qint64(1) << 30;

Take makeTake(int i, int samples = 22050) {
    Take t;
    t.created = QDateTime::currentDateTime().addSecs(i);
    t.text = QStringLiteral("Take %1: hello reef, 東京 ✓").arg(i);
    t.voice = i % 2 ? QStringLiteral("Alice") : QString();
    t.modelName = QStringLiteral("demo tiny");
    t.config.model_dir = "/models/demo";
    t.config.device = i % 2 ? DeviceKind::Cuda : DeviceKind::Cpu;
    t.config.precision = Precision::Bf16;
    t.config.compile_mode = CompileMode::AotInductor;
    t.config.sdpa_policy = SdpaPolicy::FishSpeech;
    t.config.kv_mode = KvMode::Full;
    t.config.kv_margin = 96 + i;
    t.sampling.temperature = 0.1f * float(i + 1);
    t.sampling.top_p = 0.73f;
    t.sampling.top_k = 17 + i;
    t.sampling.seed = 18446744073709551557ULL - quint64(i);   // needs all 64 bits
    t.metrics.frames = 40 + i;
    t.metrics.audio_seconds = 1.5 + i;
    t.metrics.warm_frames_per_s = 18.25;
    t.metrics.real_time_factor = 0.8125;
    t.metrics.stop_reason = "im_end";
    t.metrics.backends.push_back({CallSite::SlowDecode, SdpaBackend::Flash, 40, "q[1,8,1,64]", 10, 50, false});
    t.audio.resize(size_t(samples));
    for (int s = 0; s < samples; ++s)
        t.audio[size_t(s)] = float(0.5 * std::sin(0.01 * s * (i + 1)) + 1e-7 * s);   // not 16-bit exact
    return t;
}

// Every file in the folder with a hash of its bytes.
QMap<QString, QByteArray> snapshot(const QString& dir) {
    QMap<QString, QByteArray> out;
    for (const QFileInfo& fi : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot)) {
        QFile f(fi.filePath());
        if (f.open(QIODevice::ReadOnly))
            out[fi.fileName()] = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }
    return out;
}

QStringList wavFiles(const QString& dir) { return QDir(dir).entryList({QStringLiteral("*.wav")}, QDir::Files); }

qint64 folderBytes(const QString& dir) {
    qint64 n = 0;
    for (const QFileInfo& fi : QDir(dir).entryInfoList(QDir::Files))
        n += fi.size();
    return n;
}

}  // namespace

class TstTakeHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatedRestart() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("history"));   // created on the first save
        std::vector<Take> made;
        {
            TakesModel model;
            TakeHistory history(dir, model, kLots);
            QString error;
            QVERIFY2(history.load(&error), qPrintable(error));   // no folder yet: an empty history
            for (int i = 0; i < 4; ++i)
                model.addTake(makeTake(i));
            QCOMPARE(wavFiles(dir).size(), 4);
            model.removeTake(2);   // take 2: its file goes with it
            QCOMPARE(wavFiles(dir).size(), 3);
            for (int row = 0; row < model.rowCount(); ++row)
                made.push_back(model.take(row));
            QCOMPARE(history.usedBytes(), folderBytes(dir));
            QVERIFY(history.warnings().isEmpty());
        }
        TakesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        TakeHistory history(dir, model, kLots);
        QString error;
        QVERIFY2(history.load(&error), qPrintable(error));
        QVERIFY2(history.warnings().isEmpty(), qPrintable(history.warnings().join(QLatin1Char('\n'))));
        QCOMPARE(model.rowCount(), 3);
        for (int row = 0; row < 3; ++row) {
            const Take& a = made[size_t(row)];
            const Take& b = model.take(row);
            QCOMPARE(b.number, a.number);   // 4, 3, 1: newest first, numbers kept
            QCOMPARE(b.created, a.created);
            QCOMPARE(b.text, a.text);
            QCOMPARE(b.voice, a.voice);
            QCOMPARE(b.modelName, a.modelName);
            QVERIFY(sameConfig(b.config, a.config));
            QVERIFY(sameSampling(b.sampling, a.sampling));
            QCOMPARE(b.settingsSummary(), a.settingsSummary());
            QCOMPARE(b.statsSummary(), a.statsSummary());
            QCOMPARE(b.backendSummary(), a.backendSummary());
            QCOMPARE(b.metrics.stop_reason, a.metrics.stop_reason);
            QVERIFY(b.audio == a.audio);   // bit for bit
        }
        QCOMPARE(model.take(2).number, 1);
        QCOMPARE(history.usedBytes(), folderBytes(dir));
        // Numbering continues after the restored takes, and the new take is saved too.
        QCOMPARE(model.addTake(makeTake(9)), 5);
        QCOMPARE(wavFiles(dir).size(), 4);
    }

    void prunesTheOldestBeyondTheLimit() {
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        const qint64 perTake = qint64(44100) * 4;   // one second of float samples
        {
            TakesModel model(3);   // a count limit: switched off by the history
            TakeHistory history(dir, model, 3 * perTake, nullptr);
            QString error;
            QVERIFY(history.load(&error));
            for (int i = 0; i < 5; ++i)
                model.addTake(makeTake(i, 44100));
            // Three takes and the index exceed 3 s of audio: two remain.
            QCOMPARE(model.rowCount(), 2);
            QCOMPARE(model.take(0).number, 5);
            QCOMPARE(model.take(1).number, 4);
            QCOMPARE(wavFiles(dir).size(), 2);
            QVERIFY(history.usedBytes() <= history.limitBytes());
            QCOMPARE(history.usedBytes(), folderBytes(dir));
            // A lower limit prunes at once, but never the newest take.
            history.setLimitBytes(1000);
            QCOMPARE(model.rowCount(), 1);
            QCOMPARE(model.take(0).number, 5);
            QCOMPARE(wavFiles(dir).size(), 1);
        }
        TakesModel model;
        TakeHistory history(dir, model, 3 * perTake);
        QString error;
        QVERIFY(history.load(&error));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.take(0).number, 5);
        // Going over the limit again prunes again.
        for (int i = 0; i < 2; ++i)
            model.addTake(makeTake(i, 44100));
        QCOMPARE(model.rowCount(), 2);
    }

    void prunesAtLoad() {
        QTemporaryDir tmp;
        {
            TakesModel model;
            TakeHistory history(tmp.path(), model, kLots);
            QString error;
            QVERIFY(history.load(&error));
            for (int i = 0; i < 4; ++i)
                model.addTake(makeTake(i, 44100));
        }
        TakesModel model;
        TakeHistory history(tmp.path(), model, 2 * 44100 * 4 + 20000);   // two takes and the index
        QString error;
        QVERIFY(history.load(&error));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.take(1).number, 3);
        QCOMPARE(wavFiles(tmp.path()).size(), 2);
        TakesModel again;
        TakeHistory reread(tmp.path(), again, kLots);
        QVERIFY(reread.load(&error));
        QCOMPARE(again.rowCount(), 2);   // the pruned index was written
    }

    void corruptIndexTouchesNothing_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << QByteArray("{\"format\": \"reef-take-history\", \"version\": 1, \"takes\": [{\"num")
                                   << QStringLiteral("not valid JSON");
        QTest::newRow("not ours") << QByteArray("[1, 2, 3]") << QStringLiteral("not a Reef take history");
        QTest::newRow("newer") << QByteArray(R"({"format": "reef-take-history", "version": 7, "takes": []})")
                               << QStringLiteral("format version 7");
    }

    void corruptIndexTouchesNothing() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        {
            TakesModel model;
            TakeHistory history(dir, model, kLots);
            QString error;
            QVERIFY(history.load(&error));
            model.addTake(makeTake(1));
        }
        QFile index(QDir(dir).filePath(QStringLiteral("history.json")));
        QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
        index.write(content);
        index.close();
        const auto before = snapshot(dir);

        TakesModel model;
        TakeHistory history(dir, model, 1);   // a tiny limit: pruning must not run either
        QSignalSpy warned(&history, &TakeHistory::warning);
        QString error;
        QVERIFY(!history.load(&error));
        QVERIFY2(error.contains(QStringLiteral("history.json")) && error.contains(expected), qPrintable(error));
        QCOMPARE(history.warnings(), QStringList{error});
        QCOMPARE(warned.count(), 1);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(snapshot(dir), before);

        // The next take starts a new history; the unreadable one is kept beside it, unchanged.
        model.addTake(makeTake(2));
        const QStringList aside = QDir(dir).entryList({QStringLiteral("history.unreadable-*.json")});
        QCOMPARE(aside.size(), 1);
        QCOMPARE(snapshot(dir).value(aside[0]), before.value(QStringLiteral("history.json")));
        for (const QString& name : before.keys())
            if (name != QLatin1String("history.json"))
                QVERIFY2(snapshot(dir).contains(name), qPrintable(name));   // the old take's audio stays
        TakesModel reread;
        TakeHistory second(dir, reread, kLots);
        QVERIFY(second.load(&error));
        QCOMPARE(reread.rowCount(), 1);
        QCOMPARE(reread.take(0).text, makeTake(2).text);
    }

    void missingOrBrokenAudioSkipsThatTake() {
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        {
            TakesModel model;
            TakeHistory history(dir, model, kLots);
            QString error;
            QVERIFY(history.load(&error));
            for (int i = 0; i < 4; ++i)
                model.addTake(makeTake(i));
        }
        QStringList files = wavFiles(dir);
        files.sort();   // by time: take 1 first
        QVERIFY(QFile::remove(QDir(dir).filePath(files[1])));          // take 2: gone
        QFile cut(QDir(dir).filePath(files[2]));                         // take 3: cut short
        QVERIFY(cut.resize(1000));
        const auto before = snapshot(dir);

        TakesModel model;
        TakeHistory history(dir, model, kLots);
        QString error;
        QVERIFY2(history.load(&error), qPrintable(error));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.take(0).number, 4);
        QCOMPARE(model.take(1).number, 1);
        QCOMPARE(history.warnings().size(), 2);
        QVERIFY2(history.warnings()[0].contains(QStringLiteral("take 3")), qPrintable(history.warnings()[0]));
        QVERIFY2(history.warnings()[1].contains(QStringLiteral("take 2")) &&
                     history.warnings()[1].contains(QStringLiteral("not found")),
                 qPrintable(history.warnings()[1]));
        QCOMPARE(snapshot(dir), before);   // loading changed nothing, the cut file included

        // A new take does not reuse their numbers, and the index keeps their entries.
        QCOMPARE(model.addTake(makeTake(7)), 5);
        QVERIFY(QFileInfo::exists(cut.fileName()));
        QFile index(QDir(dir).filePath(QStringLiteral("history.json")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QByteArray json = index.readAll();
        QVERIFY(json.contains(files[1].toUtf8()) && json.contains(files[2].toUtf8()));
    }

    // A take whose settings the engine would refuse (an index edited by hand, or written before the
    // ranges were checked) is skipped with the key and the allowed range; the others load.
    void outOfRangeSettingsSkipThatTake() {
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        {
            TakesModel model;
            TakeHistory history(dir, model, kLots);
            QString error;
            QVERIFY(history.load(&error));
            for (int i = 0; i < 2; ++i)
                model.addTake(makeTake(i));
        }
        QFile index(QDir(dir).filePath(QStringLiteral("history.json")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(index.readAll()).object();
        index.close();
        QJsonArray takes = root.value(QStringLiteral("takes")).toArray();
        for (qsizetype k = 0; k < takes.size(); ++k) {
            QJsonObject t = takes[k].toObject();
            if (t.value(QStringLiteral("number")).toInt() != 1)
                continue;
            QJsonObject s = t.value(QStringLiteral("sampling")).toObject();
            s.insert(QStringLiteral("temperature"), 9.0);
            t.insert(QStringLiteral("sampling"), s);
            takes[k] = t;
        }
        root.insert(QStringLiteral("takes"), takes);
        QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
        index.write(QJsonDocument(root).toJson());
        index.close();

        TakesModel model;
        TakeHistory history(dir, model, kLots);
        QString error;
        QVERIFY2(history.load(&error), qPrintable(error));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.take(0).number, 2);
        QCOMPARE(model.take(0).sampling.seed, makeTake(1).sampling.seed);   // all 64 bits back
        QCOMPARE(history.warnings().size(), 1);
        const QString w = history.warnings()[0];
        QVERIFY2(w.contains(QStringLiteral("take 1")) && w.contains(QStringLiteral("\"temperature\" = 9")) &&
                     w.contains(QStringLiteral("[0, 2]")),
                 qPrintable(w));
    }

    void loadOnlyBeforeTheFirstTake() {
        QTemporaryDir tmp;
        {
            TakesModel model;
            TakeHistory history(tmp.path(), model, kLots);
            QString error;
            QVERIFY(history.load(&error));
            model.addTake(makeTake(1));
        }
        TakesModel model;
        TakeHistory history(tmp.path(), model, kLots);
        model.addTake(makeTake(2));   // before load(): the saved history is set aside, not overwritten
        QString error;
        QVERIFY(!history.load(&error));
        QCOMPARE(QDir(tmp.path()).entryList({QStringLiteral("history.unreadable-*.json")}).size(), 1);
        QCOMPARE(wavFiles(tmp.path()).size(), 2);
    }

    void reuseTheseSettings() {
        QTemporaryDir tmp;
        const QString ini = tmp.filePath(QStringLiteral("reef.ini"));
        Settings settings(ini);
        settings.setModelDir(QStringLiteral("/models/current"));
        const EngineConfig config = settings.engineConfig();
        QSignalSpy sampling(&settings, &Settings::samplingChanged);
        QSignalSpy engine(&settings, &Settings::engineConfigChanged);
        const Take take = makeTake(3);
        QVERIFY(!sameSampling(settings.sampling(), take.sampling));
        applyTakeSettings(take, settings);
        QVERIFY(sameSampling(settings.sampling(), take.sampling));
        QCOMPARE(settings.sampling().seed, take.sampling.seed);
        QCOMPARE(sampling.count(), 1);
        QCOMPARE(engine.count(), 0);   // model folder, device, compile mode: unchanged
        QVERIFY(sameConfig(settings.engineConfig(), config));
        settings.sync();
        Settings reread(ini);
        QVERIFY(sameSampling(reread.sampling(), take.sampling));
    }

    void historyLimitSetting() {
        QTemporaryDir tmp;
        const QString ini = tmp.filePath(QStringLiteral("reef.ini"));
        {
            Settings s(ini);
            QCOMPARE(s.historyLimitMb(), 500);
            QSignalSpy changed(&s, &Settings::historyLimitMbChanged);
            s.setHistoryLimitMb(5);        // below the range: ignored
            s.setHistoryLimitMb(200000);   // above: ignored
            s.setHistoryLimitMb(500);      // no change
            QCOMPARE(changed.count(), 0);
            s.setHistoryLimitMb(64);
            QCOMPARE(changed.count(), 1);
            QCOMPARE(changed.first().first().toInt(), 64);
            s.sync();
        }
        QCOMPARE(Settings(ini).historyLimitMb(), 64);
        {
            QSettings raw(ini, QSettings::IniFormat);
            raw.setValue(QStringLiteral("history/limit_mb"), 3);
        }
        QCOMPARE(Settings(ini).historyLimitMb(), 500);   // invalid stored value: the default
    }
};

QTEST_GUILESS_MAIN(TstTakeHistory)
#include "tst_take_history.moc"
