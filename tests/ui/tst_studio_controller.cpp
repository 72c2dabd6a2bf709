// StudioController without a window: requests it builds (checked where the backend receives them,
// not by asking the controller), takes and segment takes it files, settings reuse, the project
// file, exports read back with libsndfile, the data folder across a restart, the voices' encoding
// and its errors as values.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <mutex>

#include "audio/wav_file.h"
#include "fake_backend.h"
#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/pronunciation_dictionary.h"
#include "qt/settings.h"
#include "qt/studio_controller.h"
#include "qt/synthesis_queue.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"

using namespace reef;
using namespace reef::ui;
using reef_test::FakeBackend;
using reef_test::FakeScript;

namespace {

// What the engine thread was handed, recorded by the backend itself: the independent side of
// every request assertion.
struct Received {
    std::mutex mutex;
    std::vector<SynthesisRequest> requests;
    std::vector<SynthesisRequest> all() {
        std::lock_guard lock(mutex);
        return requests;
    }
};

class RecordingBackend : public FakeBackend {
public:
    RecordingBackend(std::shared_ptr<FakeScript> script, std::shared_ptr<Received> received)
        : FakeBackend(std::move(script)), m_received(std::move(received)) {}
    Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) override {
        {
            std::lock_guard lock(m_received->mutex);
            m_received->requests.push_back(request);
        }
        return FakeBackend::synthesize(request, callbacks);
    }

private:
    std::shared_ptr<Received> m_received;
};

struct Rig {
    QTemporaryDir dir;
    std::shared_ptr<FakeScript> script = std::make_shared<FakeScript>();
    std::shared_ptr<Received> received = std::make_shared<Received>();
    Settings settings{dir.filePath(QStringLiteral("reef.ini"))};
    VoiceListModel voices{dir.filePath(QStringLiteral("voices"))};
    EngineController engine{std::make_unique<RecordingBackend>(script, received)};
    PlaybackController playback{std::make_unique<ClockSink>()};
    std::unique_ptr<StudioController> studio;

    Rig() {
        script->frames = 12;
        script->frame_delay_ms = 1;
        settings.setModelDir(dir.path());
        studio = std::make_unique<StudioController>(engine, settings, playback, voices);
    }
    QString path(const QString& name) const { return dir.filePath(name); }
    bool load() {
        QString error;
        if (!studio->loadModel(&error))
            return false;
        return QTest::qWaitFor([&] { return engine.state() == EngineState::Ready; }, 3000);
    }
    bool waitIdle() {
        QSignalSpy idle(&studio->queue(), &SynthesisQueue::idle);
        return studio->queue().pendingCount() == 0 || idle.wait(5000);
    }
    QString addVoice(const QString& name, const QString& transcript) {
        const QString clip = path(name + QStringLiteral(".wav"));
        QString error;
        if (!exportAudioFile(clip, reef_test::fakeTone(0, 22050), audio::ExportFormat::WavPcm16, {}, &error))
            qFatal("cannot write the clip: %s", qPrintable(error));
        const QString id = voices.addVoice(name, clip, transcript, &error);
        if (id.isEmpty())
            qFatal("cannot add the voice: %s", qPrintable(error));
        return id;
    }
};

SamplingParams unusualSampling() {
    SamplingParams s;
    s.temperature = 0.55f;
    s.top_p = 0.61f;
    s.top_k = 23;
    s.repetition_penalty = 1.07f;
    s.max_new_frames = 300;
    s.seed = 18446744073709551557ULL;   // needs all 64 bits
    return s;
}

}  // namespace

class TestStudioController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aTakeIsBuiltFromTheDictionaryTheVoiceAndTheSettings() {
        Rig rig;
        QVERIFY(rig.load());
        rig.settings.setSampling(unusualSampling());
        rig.studio->dictionary().addEntry(QStringLiteral("SQL"), QStringLiteral("sequel"));
        const QString alice = rig.addVoice(QStringLiteral("Alice"), QStringLiteral("Hello, I am Alice."));
        QSignalSpy finished(rig.studio.get(), &StudioController::jobFinished);
        QSignalSpy status(rig.studio.get(), &StudioController::statusMessage);

        rig.studio->generateText(QStringLiteral("SQL is fun."), alice);
        QVERIFY(rig.waitIdle());

        const std::vector<SynthesisRequest> got = rig.received->all();
        QCOMPARE(int(got.size()), 1);
        QCOMPARE(QString::fromStdString(got[0].text), QStringLiteral("sequel is fun."));   // the spoken form
        QCOMPARE(got[0].sampling.seed, 18446744073709551557ULL);
        QCOMPARE(got[0].sampling.top_k, 23);
        QCOMPARE(got[0].sampling.max_new_frames, 300);
        QCOMPARE(int(got[0].references.size()), 1);
        QCOMPARE(QString::fromStdString(got[0].references[0].text), QStringLiteral("Hello, I am Alice."));
        QCOMPARE(got[0].stream_chunk_frames, rig.settings.streamChunkFrames());

        QCOMPARE(rig.studio->takes().rowCount(), 1);
        const Take& take = rig.studio->takes().take(0);
        QCOMPARE(take.text, QStringLiteral("SQL is fun."));   // as written
        QCOMPARE(take.voice, QStringLiteral("Alice"));
        QCOMPARE(take.modelName, QStringLiteral("fake model"));
        QCOMPARE(take.sampling.seed, 18446744073709551557ULL);
        QCOMPARE(qint64(take.audio.size()), qint64(rig.script->frames) * kSamplesPerFrame);
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished.at(0).at(0).toString().startsWith(QStringLiteral("Done")));
        bool toldSpoken = false;
        for (const QList<QVariant>& s : status)
            toldSpoken |= s.at(0).toString().contains(QStringLiteral("sequel is fun."));
        QVERIFY(toldSpoken);
        // The player streamed it: what plays is what the take holds.
        QCOMPARE(rig.playback.samples().size(), take.audio.size());
    }

    void segmentsGetTheirOwnTakesAndPinnedSettings() {
        Rig rig;
        QVERIFY(rig.load());
        rig.settings.setSampling(unusualSampling());
        ProjectModel& p = rig.studio->project();
        p.newProject(QStringLiteral("Book"), QStringLiteral("One. Two. Three."), SplitMode::Sentences);
        QCOMPARE(p.segmentCount(), 3);
        SamplingParams pinned = unusualSampling();
        pinned.seed = 7;
        p.setSegmentSampling(1, pinned);

        const QList<quint64> ids = rig.studio->generateSegments({2, 1, 99, -1});
        QCOMPARE(ids.size(), 2);   // the rows out of range are skipped
        QVERIFY(rig.waitIdle());

        const std::vector<SynthesisRequest> got = rig.received->all();
        QCOMPARE(int(got.size()), 2);
        QCOMPARE(QString::fromStdString(got[0].text), p.segment(2).text);   // in the order asked
        QCOMPARE(got[0].sampling.seed, 18446744073709551557ULL);            // the current settings
        QCOMPARE(QString::fromStdString(got[1].text), p.segment(1).text);
        QCOMPARE(got[1].sampling.seed, quint64(7));                         // the segment's own
        QVERIFY(!p.segment(0).hasAudio());
        QVERIFY(p.segment(1).hasAudio());
        QVERIFY(p.segment(2).hasAudio());
        QCOMPARE(p.segment(1).takes[0].sampling.seed, quint64(7));
        QCOMPARE(rig.studio->takes().rowCount(), 0);   // segment takes are not Synthesis-tab takes
    }

    void aSegmentDeletedWhileGeneratingDropsItsAudio() {
        Rig rig;
        rig.script->frames = 200;
        rig.script->frame_delay_ms = 2;
        QVERIFY(rig.load());
        ProjectModel& p = rig.studio->project();
        p.newProject(QString(), QStringLiteral("Keep me. Delete me."), SplitMode::Sentences);
        QSignalSpy status(rig.studio.get(), &StudioController::statusMessage);
        rig.studio->generateSegments({1});
        QTRY_VERIFY_WITH_TIMEOUT(rig.engine.state() == EngineState::Generating, 3000);
        QVERIFY(p.removeSegment(1));
        QVERIFY(rig.waitIdle());
        QCOMPARE(p.segmentCount(), 1);
        QVERIFY(!p.segment(0).hasAudio());
        bool told = false;
        for (const QList<QVariant>& s : status)
            told |= s.at(0).toString().contains(QStringLiteral("deleted while it was being generated"));
        QVERIFY(told);
    }

    // A dialogue segment with joint speakers on: one request, each speaker's clip as a reference
    // tagged with its speaker, the take recording both voices; an S1 model gets the first voice.
    void jointSpeakersMakeOneRequestWithEveryVoice() {
        for (const bool s2 : {true, false}) {
            Rig rig;
            if (!s2)
                rig.script->info.model_type = "dual_ar";
            QVERIFY(rig.load());
            const QString ann = rig.addVoice(QStringLiteral("Ann"), QStringLiteral("Ann's clip."));
            const QString ben = rig.addVoice(QStringLiteral("Ben"), QStringLiteral("Ben's clip."));
            ProjectModel& project = rig.studio->project();
            project.newProject(QStringLiteral("t"), QStringLiteral("x"), SplitMode::Sentences);
            QVERIFY(project.setSegmentText(0, QStringLiteral("<|speaker:1|>Hi, Ann. <|speaker:0|>Hello, Ben.")));
            project.setCastVoice(QStringLiteral("0"), ann);
            project.setCastVoice(QStringLiteral("1"), ben);
            project.setJointSpeakers(true);
            rig.studio->generateSegments({0});
            QVERIFY(rig.waitIdle());
            const std::vector<SynthesisRequest> got = rig.received->all();
            QCOMPARE(int(got.size()), 1);
            QCOMPARE(QString::fromStdString(got[0].text), QStringLiteral("<|speaker:1|>Hi, Ann. <|speaker:0|>Hello, Ben."));
            QStringList refs;
            for (const ReferenceVoice& r : got[0].references)
                refs << QString::fromStdString(r.text);
            const SegmentTake& take = project.segment(0).takes.at(0);
            if (s2) {
                QCOMPARE(refs, (QStringList{QStringLiteral("<|speaker:0|>Ann's clip."), QStringLiteral("<|speaker:1|>Ben's clip.")}));
                QCOMPARE(take.castVoices, (QMap<QString, QString>{{QStringLiteral("0"), ann}, {QStringLiteral("1"), ben}}));
            } else {
                QCOMPARE(refs, QStringList{QStringLiteral("Ben's clip.")});   // the speaker it starts with
                QVERIFY(take.castVoices.isEmpty());
                QCOMPARE(take.voice, ben);
            }
            QVERIFY(!project.isStale(0));
            QVERIFY(project.segmentsNeedingAudio().isEmpty());
        }
    }

    void reusingATakeRestoresItsSettingsAndVoice() {
        Rig rig;
        QVERIFY(rig.load());
        const QString bob = rig.addVoice(QStringLiteral("Bob"), QStringLiteral("Bob here."));
        rig.settings.setSampling(unusualSampling());
        rig.studio->generateText(QStringLiteral("First."), bob);
        QVERIFY(rig.waitIdle());
        rig.settings.setSampling(SamplingParams{});
        QCOMPARE(rig.settings.sampling().seed, SamplingParams{}.seed);

        const std::optional<QString> voice = rig.studio->reuseTakeSettings(0);
        QVERIFY(voice.has_value() && *voice == bob);
        QCOMPARE(rig.settings.sampling().seed, 18446744073709551557ULL);
        QCOMPARE(rig.settings.sampling().top_k, 23);
        // Its voice gone from the library: the settings still apply, no voice to select.
        QVERIFY(rig.voices.removeVoice(rig.voices.rowOfId(bob)));
        QVERIFY(!rig.studio->reuseTakeSettings(0).has_value());
        QVERIFY(!rig.studio->reuseTakeSettings(5).has_value());   // no such take
    }

    void theProjectFileRoundTripsAndNamesTheDocument() {
        Rig rig;
        QVERIFY(rig.load());
        QSignalSpy changed(rig.studio.get(), &StudioController::documentChanged);
        QCOMPARE(rig.studio->documentName(), QString());   // no project at all
        rig.studio->project().newProject(QString(), QStringLiteral("Alpha. Beta."), SplitMode::Sentences);
        QCOMPARE(rig.studio->documentName(), QStringLiteral("Untitled project"));
        rig.studio->project().setTitle(QStringLiteral("Chapter"));
        QCOMPARE(rig.studio->suggestedProjectFileName(), QStringLiteral("Chapter.reefproj"));
        rig.studio->generateSegments({0});
        QVERIFY(rig.waitIdle());
        QVERIFY(rig.studio->isModified());

        const QString file = rig.path(QStringLiteral("saved.reefproj"));
        QString error;
        QVERIFY2(rig.studio->saveProject(file, &error), qPrintable(error));
        QVERIFY(!rig.studio->isModified());
        QCOMPARE(rig.studio->documentName(), QStringLiteral("saved"));
        QVERIFY(changed.count() >= 1);

        Rig other;
        QVERIFY2(other.studio->openProject(file, &error), qPrintable(error));
        QCOMPARE(other.studio->project().segmentCount(), 2);
        QCOMPARE(other.studio->project().title(), QStringLiteral("Chapter"));
        QCOMPARE(other.studio->project().segment(0).takes[0].audio.size(),
                 rig.studio->project().segment(0).takes[0].audio.size());
        QCOMPARE(other.studio->project().segment(0).takes[0].madeWith, QStringLiteral("fake model"));   // the backend's name

        // A broken file: refused with a reason as a value and a status line; the open project stays.
        const QString bad = rig.path(QStringLiteral("bad.reefproj"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        QSignalSpy status(other.studio.get(), &StudioController::statusMessage);
        error.clear();
        QVERIFY(!other.studio->openProject(bad, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(status.count(), 1);
        QCOMPARE(status.at(0).at(0).toString(), error);
        QCOMPARE(other.studio->project().segmentCount(), 2);
        // Unwritable target: nothing claims it was saved.
        QVERIFY(!other.studio->saveProject(rig.path(QStringLiteral("no/such/dir/x.reefproj")), &error));
        QVERIFY(error.contains(QStringLiteral("not saved")));
    }

    void exportsReadBackAndFailuresLeaveNothing() {
        Rig rig;
        QVERIFY(rig.load());
        rig.studio->generateText(QStringLiteral("Export me."), {});
        QVERIFY(rig.waitIdle());
        const Take& take = rig.studio->takes().take(0);
        QString error;
        const QString wav = rig.path(QStringLiteral("take.wav"));
        QVERIFY2(rig.studio->exportTo(0, wav, &error), qPrintable(error));
        const audio::AudioData back = audio::read_audio(wav.toStdString());
        QCOMPARE(back.sample_rate, kSampleRate);
        QCOMPARE(back.frames(), qint64(take.audio.size()));
        QVERIFY(std::abs(back.samples[500] - take.audio[500]) < 1e-3f);
        // The player's clip (row -1).
        const QString clip = rig.path(QStringLiteral("clip.flac"));
        QVERIFY2(rig.studio->exportTo(-1, clip, &error, {}, QStringLiteral("Export me.")), qPrintable(error));
        QCOMPARE(audio::read_audio(clip.toStdString()).frames(), qint64(rig.playback.samples().size()));

        const QStringList before = QDir(rig.dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        QVERIFY(!rig.studio->exportTo(0, rig.path(QStringLiteral("no/such/dir/x.wav")), &error));
        QVERIFY2(error.contains(QStringLiteral("Nothing was written")), qPrintable(error));
        QVERIFY(!rig.studio->exportTo(0, rig.path(QStringLiteral("x.unknown")), &error));
        QVERIFY2(error.contains(QStringLiteral("unknown audio format")), qPrintable(error));
        QVERIFY(!rig.studio->exportTo(3, rig.path(QStringLiteral("y.wav")), &error));
        QVERIFY2(error.contains(QStringLiteral("no take at row 3")), qPrintable(error));
        QCOMPARE(QDir(rig.dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);

        const QStringList files = rig.studio->exportAllTakesTo(rig.path(QStringLiteral("all")), audio::ExportFormat::WavPcm16, &error);
        QCOMPARE(files.size(), 1);
        QVERIFY(QFileInfo::exists(files[0]));
        // A project without audio exports nothing and says why.
        rig.studio->project().newProject(QString(), QStringLiteral("Silent."), SplitMode::Sentences);
        QVERIFY(rig.studio->exportSegmentsTo(rig.path(QStringLiteral("segs")), audio::ExportFormat::Flac, &error).isEmpty());
        QVERIFY(!error.isEmpty());
        QVERIFY(!rig.studio->exportProjectTo(rig.path(QStringLiteral("p.wav")), audio::ExportFormat::WavPcm16, 50, &error));
        QVERIFY(!QFileInfo::exists(rig.path(QStringLiteral("p.wav"))));
    }

    void theDataFolderSurvivesARestart() {
        QTemporaryDir data;
        quint64 seed = 0;
        {
            Rig rig;
            rig.studio->openDataDir(data.path());
            QVERIFY(rig.load());
            rig.settings.setSampling(unusualSampling());
            rig.studio->dictionary().addEntry(QStringLiteral("Reef"), QStringLiteral("Rief"));
            rig.studio->generateText(QStringLiteral("Remember me."), {});
            QVERIFY(rig.waitIdle());
            seed = rig.studio->takes().take(0).sampling.seed;
        }
        Rig again;
        QSignalSpy unreadable(again.studio.get(), &StudioController::historyUnreadable);
        again.studio->openDataDir(data.path());
        QCOMPARE(unreadable.count(), 0);
        QCOMPARE(again.studio->takes().rowCount(), 1);
        QCOMPARE(again.studio->takes().take(0).text, QStringLiteral("Remember me."));
        QCOMPARE(again.studio->takes().take(0).sampling.seed, seed);
        QCOMPARE(again.studio->dictionary().apply(QStringLiteral("Reef")), QStringLiteral("Rief"));

        // A damaged index is news for the window (a banner), not a crash or a silent reset.
        QTemporaryDir broken;
        QVERIFY(QDir().mkpath(broken.filePath(QStringLiteral("history"))));
        QFile index(broken.filePath(QStringLiteral("history/history.json")));
        QVERIFY(index.open(QIODevice::WriteOnly));
        index.write("[[[");
        index.close();
        Rig third;
        QSignalSpy bad(third.studio.get(), &StudioController::historyUnreadable);
        third.studio->openDataDir(broken.path());
        QCOMPARE(bad.count(), 1);
        QVERIFY(!bad.at(0).at(0).toString().isEmpty());
    }

    void modelPreparationAndItsErrors() {
        Rig rig;
        rig.settings.setModelDir(QString());
        QString error;
        QVERIFY(!rig.studio->loadModel(&error));
        QVERIFY(error.contains(QStringLiteral("model folder")));
        // No model configured: the demo model is made in the data folder and becomes the configured one.
        const QString data = rig.path(QStringLiteral("data"));
        QVERIFY2(rig.studio->prepareModel(data, &error), qPrintable(error));
        QVERIFY(rig.settings.modelDir().startsWith(data));
        QVERIFY(QFileInfo::exists(QDir(rig.settings.modelDir()).filePath(QStringLiteral("config.json"))));
        // A data folder that cannot be made: false with the reason, no model configured.
        Rig blocked;
        blocked.settings.setModelDir(QString());
        QFile file(blocked.path(QStringLiteral("a-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        error.clear();
        QVERIFY(!blocked.studio->prepareModel(blocked.path(QStringLiteral("a-file/data")), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(blocked.settings.modelDir().isEmpty());
    }

    void voicesAreEncodedOnceAModelIsLoaded() {
        Rig rig;
        const QString carol = rig.addVoice(QStringLiteral("Carol"), QStringLiteral("Carol speaking."));
        rig.studio->encodeVoice(carol);   // no model yet: waits
        QTest::qWait(50);
        QCOMPARE(rig.script->encodes.load(), 0);
        QVERIFY(rig.load());
        QTRY_VERIFY_WITH_TIMEOUT(rig.voices.voice(rig.voices.rowOfId(carol)).hasCodes(), 3000);
        QCOMPARE(rig.script->encodes.load(), 1);
        // A voice whose clip vanished says so as a status line.
        const QString dave = rig.addVoice(QStringLiteral("Dave"), QStringLiteral("Dave."));
        QVERIFY(QFile::remove(rig.voices.voice(rig.voices.rowOfId(dave)).clipPath));
        QSignalSpy status(rig.studio.get(), &StudioController::statusMessage);
        rig.studio->encodeVoice(dave);
        QCOMPARE(status.count(), 1);
        QVERIFY(status.at(0).at(0).toString().contains(QStringLiteral("reference clip")));
    }

    void serverKeysNeverReachTheSettingsFile() {
        Rig rig;
        QSignalSpy notSaved(rig.studio.get(), &StudioController::serverKeyNotSaved);
        ServerProfile p;
        p.url = "http://127.0.0.1:9";
        rig.settings.setServerProfile(p);
        rig.settings.setUseServer(true);
        rig.settings.setServerKey(QStringLiteral("top-secret-key"));
        // The desktop's store takes it, or (a session without one, as in CI) Reef says the key is
        // only kept until it quits. Either way the settings file never holds it.
        notSaved.wait(10000);
        if (!notSaved.isEmpty())
            qInfo("no secret store here: %s", qPrintable(notSaved.at(0).at(0).toString()));
        rig.settings.sync();
        QFile ini(rig.path(QStringLiteral("reef.ini")));
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray stored = ini.readAll();
        QVERIFY(stored.contains("127.0.0.1:9"));
        QVERIFY(!stored.contains("top-secret-key"));
        // A fresh start reads the key back from the store when there is one, and goes on either way.
        Rig again;
        again.settings.setServerProfile(p);
        bool went_on = false;
        again.studio->restoreServerKey([&] { went_on = true; });
        QTRY_VERIFY_WITH_TIMEOUT(went_on, 10000);
        if (notSaved.isEmpty())   // the store took it: it comes back
            QCOMPARE(again.settings.serverKey(), QStringLiteral("top-secret-key"));
        else
            QVERIFY(again.settings.serverKey().isEmpty());
    }

    void playingNothingSaysSo() {
        Rig rig;
        QSignalSpy status(rig.studio.get(), &StudioController::statusMessage);
        QVERIFY(!rig.studio->playClip({}));
        QCOMPARE(status.count(), 1);
        rig.studio->playSegment(0);   // no project: nothing to play, no crash
        QCOMPARE(status.count(), 2);
        QVERIFY(!rig.playback.isPlaying());
    }
};

QTEST_MAIN(TestStudioController)
#include "tst_studio_controller.moc"
