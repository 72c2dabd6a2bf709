// Settings persistence and validation; every item model under QAbstractItemModelTester;
// the voice library on disk; PlaybackController streaming into a ClockSink.
#include <QAbstractItemModelTester>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "fake_backend.h"
#include "reef/engine.h"
#include "qt/batch_table_model.h"
#include "qt/bench_table_model.h"
#include "qt/perf_history_model.h"
#include "qt/playback_controller.h"
#include "qt/settings.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"
#include "audio/wav_file.h"

using namespace reef;
using namespace reef::ui;

namespace {

PerfSample sample(quint64 id, int frame) {
    PerfSample s;
    s.request_id = id;
    s.frame = frame;
    s.t_ms = frame * 50.0;
    s.frames_per_s = 20 + frame;
    s.memory.cpu_rss_bytes = int64_t(100 + frame) << 20;
    s.backend[1] = SdpaBackend::Flash;
    return s;
}

QString writeClip(const QTemporaryDir& dir, int rate, int seconds) {
    const QString path = dir.filePath(QStringLiteral("clip.wav"));
    audio::write_wav(path.toStdString(), reef_test::fakeTone(0, size_t(rate * seconds)), rate);
    return path;
}

}  // namespace

class TstModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void settingsRoundTrip() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("reef.ini"));
        EngineConfig c;
        c.model_dir = "/models/s2-pro";
        c.device = DeviceKind::Cuda;
        c.precision = Precision::Bf16;
        c.cpu_threads = 6;
        c.adaptive_threads = false;  // the default is on
        c.compile_mode = CompileMode::CudaGraph;
        c.sdpa_policy = SdpaPolicy::FishSpeech;
        c.kv_mode = KvMode::Full;
        c.kv_margin = 128;
        SamplingParams p;
        p.temperature = 0.5f;
        p.top_p = 0.9f;
        p.top_k = 12;
        p.max_new_frames = 333;
        p.chunk_length = 150;
        p.seed = 9876543210ULL;
        {
            Settings s(ini);
            s.setEngineConfig(c);
            s.setSampling(p);
            s.setAudioDevice(QStringLiteral("pulse"));
            s.setAutoplay(false);
            s.sync();
        }
        Settings s(ini);
        QVERIFY(sameConfig(s.engineConfig(), c));
        QVERIFY(sameSampling(s.sampling(), p));
        QCOMPARE(s.audioDevice(), QStringLiteral("pulse"));
        QCOMPARE(s.autoplay(), false);
    }

    void invalidStoredValuesFallBackToDefaults() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("reef.ini"));
        {
            QSettings raw(ini, QSettings::IniFormat);
            raw.setValue(QStringLiteral("engine/device"), QStringLiteral("quantum"));
            raw.setValue(QStringLiteral("engine/precision"), QStringLiteral("fp8"));
            raw.setValue(QStringLiteral("engine/cpu_threads"), QStringLiteral("-3"));
            raw.setValue(QStringLiteral("engine/compile_mode"), 42);
            raw.setValue(QStringLiteral("engine/sdpa_policy"), QStringLiteral("math"));   // valid: kept
            raw.setValue(QStringLiteral("engine/kv_margin"), QStringLiteral("lots"));
            raw.setValue(QStringLiteral("sampling/temperature"), QStringLiteral("hot"));
            raw.setValue(QStringLiteral("sampling/top_p"), 7.5);
            raw.setValue(QStringLiteral("sampling/top_k"), -1);
            raw.setValue(QStringLiteral("sampling/seed"), QStringLiteral("-5x"));
            raw.setValue(QStringLiteral("audio/stream_chunk_frames"), 99999);
        }
        Settings s(ini);
        const EngineConfig d;
        const SamplingParams ds;
        const EngineConfig c = s.engineConfig();
        QCOMPARE(c.device, d.device);
        QCOMPARE(c.precision, d.precision);
        QCOMPARE(c.cpu_threads, d.cpu_threads);
        QCOMPARE(c.compile_mode, d.compile_mode);
        QCOMPARE(c.sdpa_policy, SdpaPolicy::Math);
        QCOMPARE(c.kv_margin, d.kv_margin);
        QVERIFY(sameSampling(s.sampling(), ds));
        QCOMPARE(s.streamChunkFrames(), 16);
    }

    // An unset SDPA policy is the config's default: Reef's decode attention for eager decoding on
    // the CPU (in a build with the kernels), libtorch's 'auto' once stored on a GPU or with
    // aot-inductor; a default follows such a change, a chosen policy does not.
    void anUnsetSdpaPolicyFollowsDeviceAndCompileMode() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("reef.ini"));
        const bool kernels = Engine::capabilities(DeviceKind::Cpu).sdpa_policies.at("reef").available;
        const SdpaPolicy cpuEager = kernels ? SdpaPolicy::Reef : SdpaPolicy::Auto;
        {
            Settings s(ini);
            QCOMPARE(s.engineConfig().sdpa_policy, cpuEager);
            EngineConfig c = s.engineConfig();
            c.compile_mode = CompileMode::AotInductor;
            s.setEngineConfig(c);
            QCOMPARE(s.engineConfig().sdpa_policy, SdpaPolicy::Auto);   // reef cannot run compiled
            c = s.engineConfig();
            c.compile_mode = CompileMode::Eager;
            s.setEngineConfig(c);
            QCOMPARE(s.engineConfig().sdpa_policy, cpuEager);
            c.device = DeviceKind::Cuda;   // stored, not loaded: no GPU needed
            s.setEngineConfig(c);
            QCOMPARE(s.engineConfig().sdpa_policy, SdpaPolicy::Auto);
            c = s.engineConfig();
            c.device = DeviceKind::Cpu;
            c.sdpa_policy = SdpaPolicy::Math;   // chosen: kept through a compile-mode change
            s.setEngineConfig(c);
            c.compile_mode = CompileMode::AotInductor;
            s.setEngineConfig(c);
            QCOMPARE(s.engineConfig().sdpa_policy, SdpaPolicy::Math);
        }
        Settings again(ini);   // what was stored reads back
        QCOMPARE(again.engineConfig().sdpa_policy, SdpaPolicy::Math);
        // A file of an earlier Reef holds 'auto', its default then, written with every engine
        // setting: an upgrade reads it as unset; an 'auto' stored since is a choice and stays.
        const QString old = dir.filePath(QStringLiteral("old.ini"));
        {
            QSettings raw(old, QSettings::IniFormat);
            raw.setValue(QStringLiteral("engine/device"), QStringLiteral("cpu"));
            raw.setValue(QStringLiteral("engine/compile_mode"), QStringLiteral("eager"));
            raw.setValue(QStringLiteral("engine/sdpa_policy"), QStringLiteral("auto"));
        }
        {
            Settings upgraded(old);
            QCOMPARE(upgraded.engineConfig().sdpa_policy, cpuEager);
            EngineConfig c = upgraded.engineConfig();
            c.sdpa_policy = SdpaPolicy::Math;
            upgraded.setEngineConfig(c);
            c.sdpa_policy = SdpaPolicy::Auto;   // chosen now
            upgraded.setEngineConfig(c);
        }
        Settings chosen(old);
        QCOMPARE(chosen.engineConfig().sdpa_policy, SdpaPolicy::Auto);
    }

    void settingsSignalOnlyOnRealChange() {
        QTemporaryDir dir;
        Settings s(dir.filePath(QStringLiteral("reef.ini")));
        QSignalSpy config(&s, &Settings::engineConfigChanged);
        QSignalSpy modelDir(&s, &Settings::modelDirChanged);
        QSignalSpy sampling(&s, &Settings::samplingChanged);
        s.setEngineConfig(s.engineConfig());
        s.setSampling(s.sampling());
        QCOMPARE(config.count(), 0);
        QCOMPARE(sampling.count(), 0);
        s.setModelDir(QStringLiteral("/m"));
        s.setModelDir(QStringLiteral("/m"));
        QCOMPARE(config.count(), 1);
        QCOMPARE(modelDir.count(), 1);
        SamplingParams p = s.sampling();
        p.seed = 7;
        s.setSampling(p);
        s.setSampling(p);
        QCOMPARE(sampling.count(), 1);
    }

    void perfHistoryIsARingBuffer() {
        PerfHistoryModel m(5);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.startRun(7);
        m.addSample(sample(6, 0));   // another run: ignored
        QCOMPARE(m.rowCount(), 0);
        for (int f = 0; f < 8; ++f)
            m.addSample(sample(7, f));
        QCOMPARE(m.rowCount(), 5);
        QCOMPARE(m.data(m.index(0, PerfHistoryModel::Frame)).toInt(), 3);   // oldest kept
        QCOMPARE(m.data(m.index(4, PerfHistoryModel::Frame)).toInt(), 7);
        QCOMPARE(m.data(m.index(4, PerfHistoryModel::MemoryMiB)).toDouble(), 107.0);
        QCOMPARE(m.data(m.index(0, PerfHistoryModel::FirstBackend + 1)).toString(), QStringLiteral("flash"));
        QCOMPARE(m.data(m.index(0, PerfHistoryModel::FirstBackend + 1), PerfHistoryModel::BackendValueRole).toInt(),
                 int(SdpaBackend::Flash));
        m.startRun(8);
        QCOMPARE(m.rowCount(), 0);
    }

    // A batch run: each row sums the latest sample of every member still decoding; a member that
    // ended leaves the sums (its frames stay counted); other requests' samples are ignored.
    void perfHistorySumsTheMembersOfABatch() {
        PerfHistoryModel m(100);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.startBatch({11, 12});
        QVERIFY(m.isBatch());
        m.addSample(sample(11, 3));   // 23 frames/s
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.data(m.index(0, PerfHistoryModel::FramesPerS)).toDouble(), 23.0);
        QCOMPARE(m.itemsDecoding(0), 1);
        QTest::qWait(PerfHistoryModel::kBatchRowMs + 20);
        m.addSample(sample(12, 5));   // 25 frames/s
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.data(m.index(1, PerfHistoryModel::FramesPerS)).toDouble(), 48.0);
        QCOMPARE(m.data(m.index(1, PerfHistoryModel::ItemFramesPerS)).toDouble(), 24.0);
        QCOMPARE(m.data(m.index(1, PerfHistoryModel::Frame)).toInt(), 8);
        QCOMPARE(m.itemsDecoding(1), 2);
        m.addSample(sample(99, 1));   // not a member
        m.addSample(sample(11, 4));   // within kBatchRowMs of the last row: no new row
        QCOMPARE(m.rowCount(), 2);
        m.endRequest(11);             // 4 frames done
        QTest::qWait(PerfHistoryModel::kBatchRowMs + 20);
        m.addSample(sample(12, 6));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.data(m.index(2, PerfHistoryModel::FramesPerS)).toDouble(), 26.0);
        QCOMPARE(m.data(m.index(2, PerfHistoryModel::Frame)).toInt(), 10);
        QCOMPARE(m.itemsDecoding(2), 1);
        m.startRun(5);                // a one-request run ends the batch
        QVERIFY(!m.isBatch());
        QCOMPARE(m.rowCount(), 0);
        m.addSample(sample(12, 7));
        QCOMPARE(m.rowCount(), 0);
    }

    void batchTableShowsTheBatchPoints() {
        BatchTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        BatchPoint one, four, big;
        one.batch = 1, one.ran = true, one.aggregate_frames_per_s = 12.8, one.per_sequence_frames_per_s = 12.8, one.speedup = 1;
        four.batch = 4, four.ran = true, four.aggregate_frames_per_s = 20.1, four.per_sequence_frames_per_s = 5.03,
        four.speedup = 20.1 / 12.8, four.roofline_fraction = 0.41, four.memory.cpu_peak_rss_bytes = int64_t(3) << 30;
        big.batch = 64, big.ran = false, big.error = "the KV caches of 64 sequences need 90 GB";
        m.setPoints({one, four, big});
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.data(m.index(1, BatchTableModel::AggregateFps)).toString(), QStringLiteral("20.1"));
        QCOMPARE(m.data(m.index(1, BatchTableModel::PerSequenceFps)).toString(), QStringLiteral("5.0"));
        QCOMPARE(m.data(m.index(1, BatchTableModel::Speedup)).toString(), QStringLiteral("1.57×"));
        QCOMPARE(m.data(m.index(1, BatchTableModel::Roofline)).toString(), QStringLiteral("41%"));
        QCOMPARE(m.data(m.index(1, BatchTableModel::PeakMemory), BatchTableModel::ValueRole).toLongLong(), int64_t(3) << 30);
        QCOMPARE(m.data(m.index(2, BatchTableModel::AggregateFps)).toString(), QStringLiteral("—"));
        QVERIFY(m.data(m.index(2, BatchTableModel::Status)).toString().contains(QLatin1String("90 GB")));
    }

    void batchSizeSettingIsValidatedAndKept() {
        QTemporaryDir tmp;
        const QString ini = tmp.filePath(QStringLiteral("reef.ini"));
        {
            Settings s(ini);
            QCOMPARE(s.batchSize(), Settings::kDefaultBatchSize);
            QSignalSpy changed(&s, &Settings::batchSizeChanged);
            s.setBatchSize(-1);
            s.setBatchSize(Settings::kMaxBatchSize + 1);
            s.setBatchSize(Settings::kDefaultBatchSize);
            QCOMPARE(changed.count(), 0);
            s.setBatchSize(0);   // auto
            QCOMPARE(changed.count(), 1);
            QCOMPARE(changed.first().first().toInt(), 0);
            s.sync();
        }
        QCOMPARE(Settings(ini).batchSize(), 0);
        {
            QSettings raw(ini, QSettings::IniFormat);
            raw.setValue(QStringLiteral("generation/batch_size"), 99);
        }
        QCOMPARE(Settings(ini).batchSize(), Settings::kDefaultBatchSize);   // invalid stored value: the default
    }

    void aTakeSaysItWasDecodedInABatch() {
        Take t;
        t.metrics.frames = 40;
        QVERIFY(!t.statsSummary().contains(QLatin1String("batch")));
        t.metrics.batch = 3;
        QVERIFY(t.statsSummary().endsWith(QStringLiteral(" · batch of 3")));
    }

    void takesModelKeepsNewestFirst() {
        TakesModel m(3);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int i = 0; i < 5; ++i) {
            Take t;
            t.text = QStringLiteral("take %1").arg(i);
            t.metrics.frames = 10 * i;
            t.metrics.stop_reason = "im_end";
            m.addTake(t);
        }
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.data(m.index(0, TakesModel::Text)).toString(), QStringLiteral("take 4"));
        QCOMPARE(m.data(m.index(0, TakesModel::Number)).toInt(), 5);
        QCOMPARE(m.data(m.index(2, TakesModel::Frames)).toInt(), 20);
        QVERIFY(m.data(m.index(0, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("seed 42")));
        m.removeTake(1);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.data(m.index(0, TakesModel::Loudness)).toString(), QStringLiteral("silent"));   // no audio
        // A 1 kHz sine at amplitude 0.1 (−20 dBFS) is −23.0 LUFS by BS.1770's definition (a full-scale
        // 1 kHz sine reads −3.01 LUFS), whatever meter measures it.
        Take tone;
        tone.audio.resize(kSampleRate * 3);
        for (size_t i = 0; i < tone.audio.size(); ++i)
            tone.audio[i] = 0.1f * float(std::sin(2 * M_PI * 1000.0 * double(i) / kSampleRate));
        m.addTake(tone);
        QVERIFY(std::abs(m.data(m.index(0, TakesModel::Loudness)).toString().toDouble() + 23.0) <= 0.1);
        QCOMPARE(m.headerData(TakesModel::Loudness, Qt::Horizontal).toString(), QStringLiteral("LUFS"));
    }

    void benchTableShowsEveryArm() {
        BenchTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        BenchRequest r;
        r.arms = {BenchArm{}, *parse_bench_arm("eager:math"),
                  *parse_bench_arm("eager:flash")};
        BenchReport report = reef_test::makeFakeBenchReport(r);
        report.read_bandwidth_gbps = 25.0;
        report.reread_bandwidth_gbps = 40.0;
        report.arms[1].bytes_per_frame = 2000000000;
        report.arms[1].roofline_frames_per_s = 12.5;
        report.arms[1].roofline_fraction = 0.83;
        report.arms[1].dram_roofline_fraction = 0.92;
        m.setReport(report);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.data(m.index(1, BenchTableModel::Roofline)).toString(), QStringLiteral("83%"));
        const QString roofTip = m.data(m.index(1, BenchTableModel::Roofline), Qt::ToolTipRole).toString();
        QVERIFY(roofTip.contains(QStringLiteral("25.0 GB/s")));
        QVERIFY(roofTip.contains(QStringLiteral("40.0 GB/s")));
        QVERIFY(roofTip.contains(QStringLiteral("92.0%")));
        QCOMPARE(m.data(m.index(0, BenchTableModel::Roofline)).toString(), QStringLiteral("—"));  // not measured
        QVERIFY(m.data(m.index(0, BenchTableModel::Arm)).toString().contains(QStringLiteral("reference")));
        QCOMPARE(m.data(m.index(1, BenchTableModel::WarmFps), BenchTableModel::ValueRole).toDouble(), 23.0);
        QVERIFY(m.data(m.index(2, BenchTableModel::Status)).toString().contains(QStringLiteral("CUDA")));
        QVERIFY(m.data(m.index(1, BenchTableModel::Backends)).toString().contains(QStringLiteral("fast-decode")));
        QVERIFY(m.data(m.index(1, BenchTableModel::Backends), Qt::ToolTipRole).toString().contains(QStringLiteral("fast-decode")));
        // One backend everywhere reads as one word in the cell.
        const std::vector<BackendUse> same = {{CallSite::SlowPrefill, SdpaBackend::Flash, 1, {}},
                                              {CallSite::SlowDecode, SdpaBackend::Flash, 9, {}}};
        QCOMPARE(compactBackends(same), QStringLiteral("flash at all 2 sites"));
        QVERIFY(compactBackends({}).isEmpty());
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void codesFileRoundTripAndRejectsGarbage() {
        QTemporaryDir dir;
        Codes c;
        c.n_codebooks = 10;
        c.n_frames = 3;
        for (int i = 0; i < 30; ++i)
            c.data.push_back(i * 37);
        const QString path = dir.filePath(QStringLiteral("codes.bin"));
        QString error;
        QVERIFY2(writeCodesFile(path, c, &error), qPrintable(error));
        Codes back;
        QVERIFY(readCodesFile(path, &back, &error));
        QCOMPARE(back.n_codebooks, 10);
        QCOMPARE(back.data, c.data);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("REEFCODE\x01\x00");
        f.close();
        QVERIFY(!readCodesFile(path, &back, &error));
        QVERIFY(error.contains(QStringLiteral("codes.bin")));
    }

    void voiceLibraryAddRenameCodesDelete() {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("voices"));
        const QString clip = writeClip(dir, 22050, 1);
        VoiceListModel m(root);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QString error;
        QVERIFY(m.addVoice(QStringLiteral("x"), dir.filePath(QStringLiteral("missing.wav")), {}, &error).isEmpty());
        QVERIFY(error.contains(QStringLiteral("missing.wav")));
        const QString bob = m.addVoice(QStringLiteral("Bob"), clip, QStringLiteral("Hello there."), &error);
        const QString alice = m.addVoice(QStringLiteral("Alice"), clip, QStringLiteral("Hi."), &error);
        QVERIFY2(!bob.isEmpty() && !alice.isEmpty(), qPrintable(error));
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.data(m.index(0)).toString(), QStringLiteral("Alice"));   // sorted by name
        QVERIFY(m.setData(m.index(m.rowOfId(bob)), QStringLiteral("Robert")));
        Codes c;
        c.n_codebooks = 10;
        c.n_frames = 4;
        c.data.assign(40, 5);
        QVERIFY(m.setCodes(bob, c, &error));
        const ReferenceVoice ref = m.reference(m.rowOfId(bob));
        QCOMPARE(ref.text, std::string("Hello there."));
        QCOMPARE(ref.codes.n_frames, 4);

        VoiceListModel reopened(root);   // everything came back from disk
        QCOMPARE(reopened.rowCount(), 2);
        const int row = reopened.rowOfId(bob);
        QCOMPARE(reopened.voice(row).name, QStringLiteral("Robert"));
        QVERIFY(reopened.voice(row).hasCodes());
        QVERIFY(!reopened.voice(reopened.rowOfId(alice)).hasCodes());
        QVERIFY(QFileInfo::exists(reopened.voice(row).clipPath));

        QVERIFY(m.removeVoice(m.rowOfId(alice), &error));
        QCOMPARE(m.rowCount(), 1);
        m.reload();
        QCOMPARE(m.rowCount(), 1);
    }

    void playbackStreamsChunksAndStartsEarly() {
        PlaybackController p(std::make_unique<ClockSink>());
        QSignalSpy playing(&p, &PlaybackController::playingChanged);
        QSignalSpy streaming(&p, &PlaybackController::streamingChanged);
        p.beginStream(5);
        QVERIFY(p.isStreaming());
        AudioChunk c;
        c.request_id = 4;   // another request: ignored
        c.samples.assign(1000, 0.1f);
        p.appendChunk(c);
        QCOMPARE(p.length(), 0);
        c.request_id = 5;
        c.first_sample = 0;
        c.samples.assign(44100, 0.1f);
        p.appendChunk(c);
        QVERIFY(p.isPlaying());   // autoplay: playback starts with the first chunk
        QCOMPARE(playing.count(), 1);
        c.first_sample = 44100 + 100;   // a gap is filled with silence
        c.samples.assign(100, 0.2f);
        c.last = true;
        p.appendChunk(c);
        QCOMPARE(p.length(), 44100 + 200);
        QVERIFY(!p.isStreaming());
        QCOMPARE(streaming.count(), 2);   // on, then off with the last chunk
        QTRY_VERIFY_WITH_TIMEOUT(p.position() > 0, 2000);
        p.pause();
        const qint64 at = p.position();
        QTest::qWait(50);
        QCOMPARE(p.position(), at);
        p.seek(1000);
        QCOMPARE(p.position(), 1000);
        p.setClip(std::vector<float>(10, 0.0f));
        QCOMPARE(p.length(), 10);
        QCOMPARE(p.position(), 0);
    }
};

QTEST_GUILESS_MAIN(TstModels)
#include "tst_models.moc"
