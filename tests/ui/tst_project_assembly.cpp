// Issue #48's assembly: pause markup (parsed, kept out of the spoken text, ending segments), the
// pauses between segments exact to the sample, tempo per project and segment, loudness, chapters,
// SRT/WebVTT cues on the assembled timeline, and the version-4 project file round trip.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "audio/loudness.h"
#include "qt/pause_markup.h"
#include "qt/project.h"
#include "qt/project_assembly.h"
#include "qt/subtitles.h"
#include "qt/text_segmenter.h"

using namespace reef;
using namespace reef::ui;

namespace {

// A take that is never silent at its ends (a tone with an offset), so trimming keeps all of it
// unless the test asks for silence.
std::vector<float> tone(size_t n, double hz, float level = 0.3f) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = level * float(0.2 + 0.8 * std::sin(2 * M_PI * hz * double(i) / kSampleRate));
    return out;
}

SegmentTake take(const QString& text, std::vector<float> audio) {
    SegmentTake t;
    t.text = text;
    t.audio = std::move(audio);
    return t;
}

// A project from texts, each segment with a take of the given length.
ProjectModel& withTakes(ProjectModel& m, const QString& text, SplitMode mode, const std::vector<size_t>& lengths) {
    m.newProject(QStringLiteral("Book"), text, mode);
    for (int r = 0; r < m.segmentCount() && size_t(r) < lengths.size(); ++r)
        if (lengths[size_t(r)] > 0)
            m.addTake(m.segment(r).id, take(m.segment(r).text, tone(lengths[size_t(r)], 200.0 + 20 * r)));
    return m;
}

qint64 ms(double v) { return std::llround(v * kSampleRate / 1000.0); }

bool allZero(const std::vector<float>& a, qint64 b, qint64 e) {
    for (qint64 i = b; i < e; ++i)
        if (a[size_t(i)] != 0.0f)
            return false;
    return true;
}

}  // namespace

class TestProjectAssembly : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void markupIsParsedAndNotSpoken() {
        const QString t = QStringLiteral("Wait [pause 1.5s] for it. [PAUSE 250ms][pause 2]");
        const QList<PauseMark> marks = findPauses(t);
        QCOMPARE(marks.size(), 3);
        QCOMPARE(marks[0].seconds, 1.5);
        QCOMPARE(marks[1].seconds, 0.25);
        QCOMPARE(marks[2].seconds, 2.0);
        QCOMPARE(spokenText(t), QStringLiteral("Wait for it."));
        QCOMPARE(trailingPause(t).value(), 2.25);
        QVERIFY(!leadingPause(t));
        QCOMPARE(leadingPause(QStringLiteral(" [pause 3s] Go.")).value(), 3.0);
        // Not marks: over the limit, no number, no closing bracket. They stay text.
        for (const QString& s : {QStringLiteral("[pause 61s]"), QStringLiteral("[pause x]"), QStringLiteral("[pause 2s")})
            QVERIFY2(findPauses(s).isEmpty(), qPrintable(s));
        QCOMPARE(innerPauseCuts(t), QList<int>{17});
    }

    void segmenterCutsAtPausesAndKeepsParagraphs() {
        const QString text = QStringLiteral("One, two [pause 1s] three. Four.\n\nFive [pause 0.5s]\n\n[pause 3s]\n\nSix.");
        const QList<TextPiece> p = splitIntoPieces(text, SplitMode::Sentences);
        QStringList texts;
        for (const TextPiece& x : p)
            texts << x.text;
        QCOMPARE(texts, (QStringList{QStringLiteral("One, two [pause 1s]"), QStringLiteral("three."),
                                     QStringLiteral("Four."), QStringLiteral("Five [pause 0.5s] [pause 3s]"),
                                     QStringLiteral("Six.")}));
        QCOMPARE(p[2].endsParagraph, true);
        QCOMPARE(p[1].endsParagraph, false);
        QCOMPARE(p[3].endsParagraph, true);
        // An edit that puts a mark inside a segment splits it there.
        ProjectModel m;
        m.newProject(QStringLiteral("t"), QStringLiteral("Hello there."), SplitMode::Sentences);
        QVERIFY(m.setSegmentText(0, QStringLiteral("Hello [pause 2s] there [pause 1s] you.")));
        QCOMPARE(m.segmentCount(), 3);
        QCOMPARE(m.segment(0).text, QStringLiteral("Hello [pause 2s]"));
        QCOMPARE(m.segment(2).text, QStringLiteral("you."));
        // A segment of marks only needs no audio.
        m.newProject(QStringLiteral("t"), QStringLiteral("[pause 2s]"), SplitMode::Sentences);
        QVERIFY(m.segmentsNeedingAudio().isEmpty());
    }

    void pausesAreExactToTheSample() {
        ProjectModel m;
        // Joints: clause, sentence (then a paragraph break), a mark of 1.25 s, word (a cut with no
        // punctuation), then a chapter heading on the last segment.
        withTakes(m,
                  QStringLiteral("Alpha, beta gamma.\n\nDelta [pause 1.25s] epsilon zeta and "
                                 "then [pause 0ms] eta.\n\nTheta."),
                  SplitMode::Sentences, {4410, 5000, 6000, 7000, 3000});
        QCOMPARE(m.segmentCount(), 5);
        m.setSegmentChapter(4, QStringLiteral("Two"));
        AssemblySettings a;
        a.sentencePauseMs = 400;
        a.clausePauseMs = 150;
        a.paragraphPauseMs = 800;
        a.chapterPauseMs = 2000;
        m.setAssembly(a);
        // Segment 0 "Alpha, beta gamma." ends a paragraph: 800 ms; 1 "Delta [pause 1.25s]": 1.25 s;
        // 2 "epsilon zeta and then [pause 0ms]": a mark of 0: 0; 3 "eta.": chapter: 2000 ms.
        QCOMPARE(m.segment(1).text, QStringLiteral("Delta [pause 1.25s]"));
        const AssembledProject out = assembleProject(m.document());
        QCOMPARE(out.spans.size(), 5);
        const std::vector<qint64> want = {ms(800), ms(1250), 0, ms(2000)};
        for (qsizetype k = 0; k + 1 < out.spans.size(); ++k) {
            const qint64 gapStart = out.spans[k].start + out.spans[k].length;
            const qint64 gap = out.spans[k + 1].start - gapStart;
            QCOMPARE(gap, want[size_t(k)]);
            QVERIFY(allZero(out.audio, gapStart, out.spans[k + 1].start));
            // The take's own samples are there unchanged (no trimming: the tone never falls silent).
            const Segment& s = m.segment(out.spans[k].row);
            const std::vector<float>& src = s.takes[0].audio;
            QCOMPARE(out.spans[k].length, qint64(src.size()));
            QVERIFY(std::equal(src.begin(), src.end(), out.audio.begin() + out.spans[k].start));
        }
        // Chapters: the untitled start (the project's title) and "Two", meeting halfway in the pause.
        QCOMPARE(out.chapters.size(), 2);
        QCOMPARE(out.chapters[0].title, QStringLiteral("Book"));
        QCOMPARE(out.chapters[1].title, QStringLiteral("Two"));
        const RenderedSpan& last = out.spans.back();
        QCOMPARE(out.chapters[1].start, last.start - ms(2000) / 2);
        QCOMPARE(out.chapters[0].end, out.chapters[1].start);
        QCOMPARE(out.chapters[1].end, qint64(out.audio.size()));
    }

    void silenceIsTrimmedBeforeThePause() {
        ProjectModel m;
        m.newProject(QStringLiteral("t"), QStringLiteral("One. Two."), SplitMode::Sentences);
        std::vector<float> padded(44100, 0.0f);
        const std::vector<float> body = tone(10000, 300.0);
        std::copy(body.begin(), body.end(), padded.begin() + 20000);
        m.addTake(m.segment(0).id, take(QStringLiteral("One."), padded));
        m.addTake(m.segment(1).id, take(QStringLiteral("Two."), tone(5000, 250.0)));
        const AssembledProject out = assembleProject(m.document());
        // 10 ms kept on each side of the sound.
        QCOMPARE(out.spans[0].length, qint64(10000 + 2 * ms(10)));
        QCOMPARE(out.spans[1].start - (out.spans[0].start + out.spans[0].length), ms(450));
        AssemblySettings keep;
        keep.trimSilence = false;
        m.setAssembly(keep);
        QCOMPARE(assembleProject(m.document()).spans[0].length, qint64(44100));
    }

    void tempoChangesLengthNotPauses() {
        ProjectModel m;
        withTakes(m, QStringLiteral("One. Two. Three."), SplitMode::Sentences, {44100, 44100, 44100});
        AssemblySettings a;
        a.speed = 1.25;
        m.setAssembly(a);
        QVERIFY(m.setSegmentSpeed(2, 0.5));
        QVERIFY(!m.setSegmentSpeed(2, 3.0));
        const AssembledProject out = assembleProject(m.document());
        QCOMPARE(out.spans[0].length, qint64(std::llround(44100 / 1.25)));
        QCOMPARE(out.spans[2].length, qint64(88200));
        QCOMPARE(out.spans[1].start - out.spans[0].start - out.spans[0].length, ms(450));
        // Speed 1.25 with the project: 0.8× the duration of the original takes, to the sample.
        const double ratio = double(out.spans[0].length + out.spans[1].length) / (2 * 44100.0);
        QVERIFY(std::abs(ratio - 0.8) < 1e-4);
    }

    void loudnessIsNormalizedAndPausesStaySilent() {
        ProjectModel m;
        withTakes(m, QStringLiteral("One. Two. Three."), SplitMode::Sentences, {88200, 88200, 88200});
        AssemblySettings a;
        a.normalize = true;
        a.targetLufs = -20.0;
        a.ceilingDbtp = -3.0;
        m.setAssembly(a);
        const AssembledProject out = assembleProject(m.document());
        QVERIFY(out.normalized);
        const audio::Loudness l = audio::measure_loudness(out.audio, kSampleRate);
        QVERIFY2(std::abs(l.integrated_lufs + 20.0) < 0.5, qPrintable(QString::number(l.integrated_lufs)));
        QVERIFY(l.true_peak_dbtp <= -3.0);
        const qint64 gap = out.spans[0].start + out.spans[0].length;
        QVERIFY(allZero(out.audio, gap, out.spans[1].start));
    }

    void subtitlesFollowTheTimeline() {
        ProjectModel m;
        const QString longText = QStringLiteral(
            "<|speaker:1|>The first sentence of a long segment is here. And the second one follows it right "
            "away. A third closes it.");
        m.newProject(QStringLiteral("t"), QStringLiteral("Hi [pause 1s]"), SplitMode::Paragraphs);
        m.insertSegment(1, longText);
        m.addTake(m.segment(0).id, take(QStringLiteral("Hi"), tone(22050, 200)));
        m.addTake(m.segment(1).id, take(longText, tone(441000, 220)));
        const AssembledProject out = assembleProject(m.document());
        const QList<SubtitleCue> cues = subtitleCues(m.document(), out, 84);
        QCOMPARE(cues.size(), 4);
        QCOMPARE(cues[0].text, QStringLiteral("Hi"));
        QCOMPARE(cues[0].start, out.spans[0].start);
        QCOMPARE(cues[0].end, out.spans[0].start + out.spans[0].length);
        QCOMPARE(cues[1].text, QStringLiteral("The first sentence of a long segment is here."));
        QCOMPARE(cues[1].start, out.spans[1].start);
        QCOMPARE(cues[3].end, out.spans[1].start + out.spans[1].length);
        for (qsizetype k = 2; k < cues.size(); ++k)
            QCOMPARE(cues[k].start, cues[k - 1].end);
        const QString srt = toSrt(cues);
        QVERIFY(srt.startsWith(QStringLiteral("1\n00:00:00,000 --> 00:00:00,500\nHi\n\n2\n00:00:01,500 --> ")));
        const QString vtt = toWebVtt(cues);
        QVERIFY(vtt.startsWith(QStringLiteral("WEBVTT\n\n00:00:00.000 --> 00:00:00.500\nHi\n\n00:00:01.500 --> ")));
        QVERIFY(toWebVtt({{0, 44100, QStringLiteral("a <b> & c")}}).contains(QStringLiteral("a &lt;b&gt; &amp; c")));
    }

    void castGivesSpeakersTheirVoices() {
        ProjectModel m;
        m.newProject(QStringLiteral("t"),
                     QStringLiteral("<|speaker:0|>Hello there. How are you?\n\n<|speaker:1|>Fine. [pause 1s] Thanks."),
                     SplitMode::Sentences);
        // The mark goes with the sentence before it: the pause after "Fine.".
        QCOMPARE(m.segmentCount(), 4);
        QCOMPARE(m.segment(2).text, QStringLiteral("<|speaker:1|>Fine. [pause 1s]"));
        QCOMPARE(m.speakers(), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
        QCOMPARE(m.speakerOf(1), QStringLiteral("0"));   // the turn goes on without a tag
        QCOMPARE(m.speakerOf(3), QStringLiteral("1"));
        m.setDefaultVoice(QStringLiteral("narrator"));
        m.setCastVoice(QStringLiteral("1"), QStringLiteral("bob"));
        QCOMPARE(m.effectiveVoice(0), QStringLiteral("narrator"));
        QCOMPARE(m.effectiveVoice(2), QStringLiteral("bob"));
        m.setSegmentVoice(3, QStringLiteral("carol"));   // a segment's own voice wins
        QCOMPARE(m.effectiveVoice(3), QStringLiteral("carol"));
        // Takes made with the cast's voice are current; a new cast voice makes them stale, and only
        // those of that speaker that follow the cast.
        for (int r = 0; r < m.segmentCount(); ++r) {
            SegmentTake t = take(m.segment(r).text, tone(1000, 200));
            t.voice = m.effectiveVoice(r);
            m.addTake(m.segment(r).id, std::move(t));
        }
        QVERIFY(m.segmentsNeedingAudio().isEmpty());
        m.setCastVoice(QStringLiteral("1"), QStringLiteral("dave"));
        QCOMPARE(m.segmentsNeedingAudio(), QList<int>{2});
        QCOMPARE(m.data(m.index(2), ProjectModel::StateRole).toInt(), int(ProjectModel::SegmentState::Stale));
        QCOMPARE(m.data(m.index(2), ProjectModel::SpeakerRole).toString(), QStringLiteral("1"));
        // Saved and read back.
        QTemporaryDir dir;
        QString error;
        QVERIFY2(m.save(dir.filePath(QStringLiteral("c.reefproj")), &error), qPrintable(error));
        ProjectModel back;
        QVERIFY2(back.load(dir.filePath(QStringLiteral("c.reefproj")), &error), qPrintable(error));
        QCOMPARE(back.cast().value(QStringLiteral("1")), QStringLiteral("dave"));
        QCOMPARE(back.segmentsNeedingAudio(), QList<int>{2});
    }

    void nameLinesNameSpeakers() {
        ProjectModel m;
        m.newProject(QStringLiteral("t"),
                     QStringLiteral("Ann: Hello there. How are you?\n\nBen: Fine, thanks.\n\nThe narrator: It rained.\n\n"
                                    "<|speaker:3|>Tagged."),
                     SplitMode::Sentences);
        QCOMPARE(m.speakers(), QStringList{QStringLiteral("3")});   // off: only tags
        QCOMPARE(m.spokenTextOf(0), QStringLiteral("Ann: Hello there."));
        m.setNameLines(true);
        QVERIFY(m.isModified());
        QCOMPARE(m.speakers(), (QStringList{QStringLiteral("Ann"), QStringLiteral("Ben"), QStringLiteral("The narrator"),
                                            QStringLiteral("3")}));
        QCOMPARE(m.speakerOf(1), QStringLiteral("Ann"));   // "How are you?" goes on with Ann
        QCOMPARE(m.spokenTextOf(0), QStringLiteral("Hello there."));
        QCOMPARE(m.spokenTextOf(1), QStringLiteral("How are you?"));
        QCOMPARE(m.spokenTextOf(2), QStringLiteral("Fine, thanks."));
        m.setCastVoice(QStringLiteral("Ben"), QStringLiteral("bob"));
        QCOMPARE(m.effectiveVoice(2), QStringLiteral("bob"));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(m.save(dir.filePath(QStringLiteral("n.reefproj")), &error), qPrintable(error));
        ProjectModel back;
        QVERIFY2(back.load(dir.filePath(QStringLiteral("n.reefproj")), &error), qPrintable(error));
        QVERIFY(back.nameLines());
        QCOMPARE(back.effectiveVoice(2), QStringLiteral("bob"));
        QCOMPARE(back.cast().value(QStringLiteral("Ben")), QStringLiteral("bob"));
    }

    // Several speakers in one segment, spoken together when asked (fish-speech's several references):
    // which voices, when their takes go stale, what an S1 model changes, and the file.
    void jointSpeakersSpeakWithEachCastVoice() {
        QCOMPARE(taggedSpeakers(QStringLiteral("<|speaker:2|>Hi. <|speaker:10|>Yo. <|speaker:2|>Bye <|speaker:x|>")),
                 (QStringList{QStringLiteral("2"), QStringLiteral("10")}));   // digits only: the model's tags
        ReferenceVoice ref;
        ref.text = "A clip.";
        QCOMPARE(QString::fromStdString(speakerReference(ref, QStringLiteral("10")).text),
                 QStringLiteral("<|speaker:10|>A clip."));
        ModelInfo s1, s2;
        s1.model_type = "dual_ar";
        s2.model_type = "fish_qwen3_omni";
        QVERIFY(!speaksSeveralVoices(s1) && speaksSeveralVoices(s2));

        ProjectModel m;
        m.newProject(QStringLiteral("t"), QStringLiteral("Narration."), SplitMode::Sentences);
        const QString dialogue = QStringLiteral("<|speaker:0|>Hi, Ben. <|speaker:1|>Hello, Ann.");
        QVERIFY(m.setSegmentText(0, dialogue));
        QCOMPARE(m.segmentCount(), 1);
        m.setCastVoice(QStringLiteral("0"), QStringLiteral("ann"));
        QVERIFY(m.jointVoices(0).isEmpty());   // not asked
        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("j.reefproj"));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        QVERIFY(!m.isModified());
        m.setJointSpeakers(true);
        QVERIFY(m.isModified());
        QVERIFY(m.jointVoices(0).isEmpty());   // one speaker with a voice is no dialogue
        m.setCastVoice(QStringLiteral("1"), QStringLiteral("ben"));
        const QMap<QString, QString> both{{QStringLiteral("0"), QStringLiteral("ann")}, {QStringLiteral("1"), QStringLiteral("ben")}};
        QCOMPARE(m.jointVoices(0), both);

        // A take made by both voices is current; another voice for one of them, or joint off, is not.
        SegmentTake t = take(dialogue, tone(4096, 200));
        t.voice = QStringLiteral("ann");
        t.castVoices = both;
        m.addTake(m.segment(0).id, t);
        QVERIFY(!m.isStale(0));
        m.setCastVoice(QStringLiteral("1"), QStringLiteral("carl"));
        QVERIFY(m.isStale(0));
        m.setCastVoice(QStringLiteral("1"), QStringLiteral("ben"));
        QVERIFY(!m.isStale(0));
        m.setJointSpeakers(false);
        QVERIFY(m.isStale(0));
        m.setJointSpeakers(true);
        // A take made by Ann alone is stale while the loaded model speaks both; not for an S1 model.
        SegmentTake alone = take(dialogue, tone(4096, 300));
        alone.voice = QStringLiteral("ann");
        m.addTake(m.segment(0).id, alone);
        QVERIFY(m.isStale(0));
        m.setModelSpeaksSeveralVoices(false);
        QVERIFY(m.jointVoices(0).isEmpty());
        QVERIFY(!m.isStale(0));
        m.setModelSpeaksSeveralVoices(true);
        // The segment's own voice wins over the cast.
        m.setSegmentVoice(0, QStringLiteral("dora"));
        QVERIFY(m.jointVoices(0).isEmpty());
        m.setSegmentVoice(0, QString());

        QVERIFY(m.setCurrentTake(0, 0));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        ProjectModel back;
        QVERIFY2(back.load(path, &error), qPrintable(error));
        QVERIFY(back.jointSpeakers());
        QCOMPARE(back.segment(0).takes[0].castVoices, both);
        QVERIFY(back.segment(0).takes[1].castVoices.isEmpty());
        QVERIFY(!back.isStale(0));

        // A file whose take names its speakers' voices wrongly is refused, with where and why.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonArray segments = root.value(QStringLiteral("segments")).toArray();
        QJsonObject seg = segments[0].toObject();
        QJsonArray takes = seg.value(QStringLiteral("takes")).toArray();
        QJsonObject first = takes[0].toObject();
        first.insert(QStringLiteral("castVoices"), QJsonObject{{QStringLiteral("0"), 5}});
        takes[0] = first;
        seg.insert(QStringLiteral("takes"), takes);
        segments[0] = seg;
        root.insert(QStringLiteral("segments"), segments);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(root).toJson());
        f.close();
        ProjectModel hostile;
        QVERIFY(!hostile.load(path, &error));
        QVERIFY2(error.contains(QStringLiteral("voice of speaker \"0\"")), qPrintable(error));
    }

    void takesKeepCodesAndModel() {
        QTemporaryDir dir;
        ProjectModel m;
        m.newProject(QStringLiteral("t"), QStringLiteral("One."), SplitMode::Sentences);
        SegmentTake t = take(QStringLiteral("One."), tone(4096, 200));
        t.codes.n_codebooks = 2;
        t.codes.n_frames = 3;
        t.codes.data = {1, 2, 3, 4, 5, 6};
        t.modelHash = QStringLiteral("sha256:abc");
        m.addTake(m.segment(0).id, t);
        QString error;
        const QString path = dir.filePath(QStringLiteral("k.reefproj"));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        ProjectModel back;
        QVERIFY2(back.load(path, &error), qPrintable(error));
        QCOMPARE(back.segment(0).takes[0].codes.data, t.codes.data);
        QCOMPARE(back.segment(0).takes[0].modelHash, t.modelHash);
        back.setCurrentModelHash(QStringLiteral("sha256:abc"));
        QVERIFY(!back.data(back.index(0), ProjectModel::OtherModelRole).toBool());
        back.setCurrentModelHash(QStringLiteral("sha256:def"));
        QVERIFY(back.data(back.index(0), ProjectModel::OtherModelRole).toBool());
        // A missing codes file is a clear error naming it.
        QVERIFY(QFile::remove(path + QStringLiteral(".d/") + t.id + QStringLiteral(".codes")) ||
                QDir(path + QStringLiteral(".d")).entryList({QStringLiteral("*.codes")}).size() == 1);
        for (const QString& f : QDir(path + QStringLiteral(".d")).entryList({QStringLiteral("*.codes")}))
            QFile::remove(path + QStringLiteral(".d/") + f);
        QVERIFY(!back.load(path, &error));
        QVERIFY2(error.contains(QStringLiteral(".codes")), qPrintable(error));
    }

    void fileRoundTripKeepsAssembly() {
        QTemporaryDir dir;
        ProjectModel m;
        withTakes(m, QStringLiteral("One.\n\nTwo [pause 2s]"), SplitMode::Sentences, {1000, 1000});
        AssemblySettings a;
        a.sentencePauseMs = 321;
        a.speed = 1.5;
        a.normalize = true;
        a.targetLufs = -23;
        a.ceilingDbtp = -1;
        a.trimSilence = false;
        m.setAssembly(a);
        m.setSegmentChapter(1, QStringLiteral("Chapter 2"));
        m.setSegmentSpeed(0, 0.75);
        QString error;
        const QString path = dir.filePath(QStringLiteral("p.reefproj"));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        ProjectModel back;
        QVERIFY2(back.load(path, &error), qPrintable(error));
        QCOMPARE(back.loadedVersion(), 4);
        QVERIFY(back.assembly() == a);
        QCOMPARE(back.segment(0).paragraphEnd, true);
        QCOMPARE(back.segment(0).speed, 0.75);
        QCOMPARE(back.segment(1).chapter, QStringLiteral("Chapter 2"));
        QCOMPARE(back.segment(1).speed, 0.0);
        // Out of range values are refused with the field named.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray json = f.readAll();
        f.close();
        json.replace("\"speed\": 1.5", "\"speed\": 7");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(json);
        f.close();
        QVERIFY(!back.load(path, &error));
        QVERIFY2(error.contains(QStringLiteral("assembly")) && error.contains(QStringLiteral("speed")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestProjectAssembly)
#include "tst_project_assembly.moc"
