// ProjectModel: splitting, editing, re-generating one segment, rendering with crossfades, and the
// project file (round trip read back from the WAVs themselves, version-1 migration, broken files).
#include <QAbstractItemModelTester>
#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <numbers>

#include "audio/wav_file.h"
#include "qt/project.h"
#include "qt/project_file.h"

using namespace reef;
using namespace reef::ui;

namespace {

std::vector<float> noise(size_t n, quint32 seed) {
    QRandomGenerator rng(seed);
    std::vector<float> out(n);
    for (float& x : out)
        x = float(rng.generateDouble() * 1.6 - 0.8);
    return out;
}

QByteArray bytesOf(const std::vector<float>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

SegmentTake makeTake(const QString& text, std::vector<float> audio) {
    SegmentTake t;
    t.text = text;
    t.voice = QStringLiteral("narrator");
    t.sampling.temperature = 0.65f;
    t.sampling.seed = (quint64(1) << 60) + 7;   // beyond a double's 53 bits
    t.metrics.frames = int(audio.size() / kSamplesPerFrame);
    t.metrics.audio_seconds = double(audio.size()) / kSampleRate;
    t.metrics.warm_frames_per_s = 19.25;
    t.metrics.real_time_factor = 0.375;
    t.audio = std::move(audio);
    return t;
}

// Everything a user could see of a project, to show that a failed load or save changed nothing.
struct Snapshot {
    QString title, voice, path;
    bool modified = false;
    QStringList ids, texts, voices;
    QList<int> current;
    QList<QList<QByteArray>> audio;
    bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const ProjectModel& m) {
    Snapshot s;
    s.title = m.title();
    s.voice = m.defaultVoice();
    s.path = m.filePath();
    s.modified = m.isModified();
    for (int r = 0; r < m.segmentCount(); ++r) {
        const Segment& seg = m.segment(r);
        s.ids << seg.id;
        s.texts << seg.text;
        s.voices << seg.voice;
        s.current << seg.currentTake;
        QList<QByteArray> takes;
        for (const SegmentTake& t : seg.takes)
            takes << bytesOf(t.audio);
        s.audio << takes;
    }
    return s;
}

// Relative path -> SHA-1 of every file under dir.
QMap<QString, QByteArray> filesUnder(const QString& dir) {
    QMap<QString, QByteArray> out;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            out.insert(QDir(dir).relativeFilePath(path),
                       QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1));
    }
    return out;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

const QString kText = QStringLiteral(
    "The first sentence is here. The second one follows! Is this the third? Yes.\n\n"
    "A new paragraph starts. It has two sentences.");

}  // namespace

class TstProject : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newProjectSplitsTheText() {
        ProjectModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy modified(&m, &ProjectModel::modifiedChanged);
        m.newProject(QStringLiteral("Book"), kText, SplitMode::Sentences);
        QCOMPARE(m.title(), QStringLiteral("Book"));
        QCOMPARE(m.segmentCount(), 6);
        QCOMPARE(m.segment(0).text, QStringLiteral("The first sentence is here."));
        QCOMPARE(m.segment(5).text, QStringLiteral("It has two sentences."));
        QCOMPARE(m.data(m.index(2), Qt::DisplayRole).toString(), QStringLiteral("Is this the third?"));
        QSet<QString> ids;
        for (int r = 0; r < m.segmentCount(); ++r) {
            ids.insert(m.segment(r).id);
            QCOMPARE(m.data(m.index(r), ProjectModel::StateRole).toInt(), int(ProjectModel::SegmentState::NoAudio));
        }
        QCOMPARE(ids.size(), 6);
        QVERIFY(!ids.contains(QString()));
        QCOMPARE(m.segmentsNeedingAudio(), (QList<int>{0, 1, 2, 3, 4, 5}));
        QVERIFY(m.isModified());
        QCOMPARE(modified.count(), 1);
        QVERIFY(m.filePath().isEmpty());

        m.newProject(QStringLiteral("Book"), kText, SplitMode::Paragraphs);
        QCOMPARE(m.segmentCount(), 2);
        QCOMPARE(m.segment(1).text, QStringLiteral("A new paragraph starts. It has two sentences."));
    }

    void editsSplitMergeInsertRemove() {
        ProjectModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.newProject(QStringLiteral("t"), QStringLiteral("One two three. Four five."), SplitMode::Sentences);
        QCOMPARE(m.segmentCount(), 2);
        const QString firstId = m.segment(0).id;
        QVERIFY(m.addTake(firstId, makeTake(m.segment(0).text, noise(5000, 1))));

        QVERIFY(m.splitSegment(0, 3));   // "One| two three."
        QCOMPARE(m.segmentCount(), 3);
        QCOMPARE(m.segment(0).text, QStringLiteral("One"));
        QCOMPARE(m.segment(1).text, QStringLiteral("two three."));
        QCOMPARE(m.segment(0).id, firstId);        // the left part keeps the segment and its takes
        QVERIFY(m.segment(0).isStale());
        QVERIFY(m.segment(1).takes.empty());
        QVERIFY(m.segment(1).id != firstId);
        QVERIFY(!m.splitSegment(0, 0));            // an empty side
        QVERIFY(!m.splitSegment(9, 1));

        QVERIFY(m.mergeWithNext(0));
        QCOMPARE(m.segmentCount(), 2);
        QCOMPARE(m.segment(0).text, QStringLiteral("One two three."));
        QCOMPARE(m.segment(0).id, firstId);
        QVERIFY(!m.segment(0).isStale());          // the text is the take's again
        QVERIFY(!m.mergeWithNext(1));              // no next

        QVERIFY(m.insertSegment(0, QStringLiteral("Zero.")));
        QVERIFY(m.insertSegment(3, QStringLiteral("Six.")));
        QVERIFY(!m.insertSegment(9, QStringLiteral("nowhere")));
        QCOMPARE(m.segmentCount(), 4);
        QCOMPARE(m.segment(0).text, QStringLiteral("Zero."));
        QCOMPARE(m.segment(3).text, QStringLiteral("Six."));
        QCOMPARE(m.rowForId(firstId), 1);

        QVERIFY(m.removeSegment(0));
        QVERIFY(!m.removeSegment(7));
        QCOMPARE(m.rowForId(firstId), 0);
        QCOMPARE(m.segmentCount(), 3);

        // CJK text joins without a space; a split never lands inside a surrogate pair.
        m.newProject(QStringLiteral("t"), QStringLiteral("你好。再见。"), SplitMode::Sentences);
        QVERIFY(m.mergeWithNext(0));
        QCOMPARE(m.segment(0).text, QStringLiteral("你好。再见。"));
        const QString emoji = QStringLiteral("a") + QString::fromUcs4(U"\U0001F600") + QStringLiteral("b");
        QVERIFY(m.setSegmentText(0, emoji));
        QVERIFY(m.splitSegment(0, 2));   // between the two halves of the emoji
        QCOMPARE(m.segment(0).text, QStringLiteral("a"));
        QCOMPARE(m.segment(1).text, QString::fromUcs4(U"\U0001F600") + QStringLiteral("b"));

        // setData edits the text like setSegmentText.
        QVERIFY(m.setData(m.index(1), QStringLiteral("edited")));
        QCOMPARE(m.segment(1).text, QStringLiteral("edited"));
    }

    void regeneratingOneSegmentKeepsTheOthersBitIdentical() {
        QTemporaryDir dir;
        ProjectModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.newProject(QStringLiteral("Book"), kText, SplitMode::Sentences);
        QList<QByteArray> before;
        for (int r = 0; r < m.segmentCount(); ++r) {
            QVERIFY(m.addTake(m.segment(r).id, makeTake(m.segment(r).text, noise(3000 + 100 * size_t(r), quint32(r)))));
            before << bytesOf(m.segmentAudio(r));
        }
        QVERIFY(m.segmentsNeedingAudio().isEmpty());

        QVERIFY(m.setSegmentText(2, QStringLiteral("Is this the third one?")));
        QCOMPARE(m.data(m.index(2), ProjectModel::StateRole).toInt(), int(ProjectModel::SegmentState::Stale));
        QCOMPARE(m.segmentsNeedingAudio(), QList<int>{2});

        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        const std::vector<float> fresh = noise(4000, 99);
        QVERIFY(m.addTake(m.segment(2).id, makeTake(QStringLiteral("Is this the third one?"), fresh)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
        QCOMPARE(changed.first().at(1).toModelIndex().row(), 2);
        QCOMPARE(m.segment(2).takes.size(), size_t(2));
        QCOMPARE(m.segment(2).currentTake, 1);
        QCOMPARE(bytesOf(m.segmentAudio(2)), bytesOf(fresh));
        QVERIFY(m.segmentsNeedingAudio().isEmpty());
        for (int r = 0; r < m.segmentCount(); ++r) {
            if (r == 2)
                continue;
            QCOMPARE(m.segment(r).takes.size(), size_t(1));
            QVERIFY2(bytesOf(m.segmentAudio(r)) == before[r], qPrintable(QStringLiteral("segment %1 changed").arg(r)));
        }
        // The older take is still there and can be made current again (and is stale against the new text).
        QVERIFY(m.setCurrentTake(2, 0));
        QCOMPARE(bytesOf(m.segmentAudio(2)), before[2]);
        QVERIFY(m.segment(2).isStale());
        QVERIFY(m.setCurrentTake(2, 1));

        // The same after a save and a load: the other segments' audio read back is bit-identical.
        const QString path = dir.filePath(QStringLiteral("book.reefproj"));
        QString error;
        QVERIFY2(m.save(path, &error), qPrintable(error));
        ProjectModel loaded;
        QVERIFY2(loaded.load(path, &error), qPrintable(error));
        for (int r = 0; r < loaded.segmentCount(); ++r)
            QCOMPARE(bytesOf(loaded.segmentAudio(r)), r == 2 ? bytesOf(fresh) : before[r]);

        // A take for a segment removed meanwhile is refused, and changes nothing.
        const QString goneId = m.segment(0).id;
        QVERIFY(m.removeSegment(0));
        const Snapshot s = snapshot(m);
        QVERIFY(!m.addTake(goneId, makeTake(QStringLiteral("x"), noise(100, 5))));
        QVERIFY(!m.addTake(m.segment(0).id, makeTake(QStringLiteral("x"), {})));   // no audio
        QVERIFY(snapshot(m) == s);
    }

    void renderCrossfadesTheCurrentTakes() {
        ProjectModel m;
        m.newProject(QStringLiteral("r"), QStringLiteral("A one. B two. C three. D four."), SplitMode::Sentences);
        QCOMPARE(m.segmentCount(), 4);
        const std::vector<std::vector<float>> clips{noise(10000, 11), noise(5000, 12), noise(20000, 13)};
        // Segment 1 stays without audio and is skipped.
        const int rows[3] = {0, 2, 3};
        for (int k = 0; k < 3; ++k)
            QVERIFY(m.addTake(m.segment(rows[k]).id, makeTake(m.segment(rows[k]).text, clips[size_t(k)])));

        const qint64 n = std::llround(0.030 * kSampleRate);   // 1323
        QList<RenderedSpan> spans;
        const std::vector<float> out = m.renderProject(30, 0, &spans);
        QCOMPARE(qint64(out.size()), 10000 + 5000 + 20000 - 2 * n);
        QCOMPARE(spans.size(), 3);
        QCOMPARE(spans[1].row, 2);
        QCOMPARE(spans[1].start, 10000 - n);
        QCOMPARE(spans[2].start, 10000 - n + 5000 - n);

        // Independently: every output sample is the sum of the clips covering it, weighted by
        // sin (fading in) or cos (fading out) of (i + 0.5)/n · π/2 within the n-sample joints.
        const qint64 starts[3] = {0, 10000 - n, 15000 - 2 * n};
        double worst = 0;
        for (qint64 t = 0; t < qint64(out.size()); ++t) {
            double expected = 0;
            for (int k = 0; k < 3; ++k) {
                const qint64 i = t - starts[k], len = qint64(clips[size_t(k)].size());
                if (i < 0 || i >= len)
                    continue;
                double w = 1;
                if (k > 0 && i < n)
                    w = std::sin((double(i) + 0.5) / double(n) * std::numbers::pi / 2);
                if (k < 2 && i >= len - n)
                    w = std::cos((double(i - (len - n)) + 0.5) / double(n) * std::numbers::pi / 2);
                expected += w * clips[size_t(k)][size_t(i)];
            }
            worst = std::max(worst, std::abs(expected - double(out[size_t(t)])));
        }
        QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("max diff %1").arg(worst)));
        // Away from the joints the samples are copied exactly.
        QCOMPARE(std::memcmp(out.data() + n, clips[0].data() + n, sizeof(float) * size_t(10000 - 2 * n)), 0);
        QCOMPARE(std::memcmp(out.data() + starts[2] + n, clips[2].data() + n, sizeof(float) * size_t(20000 - n)), 0);
    }

    void crossfadeIsEqualPowerAndBoundedByShortClips() {
        // Outgoing ones against incoming zeros gives the fade-out gains; the swap the fade-in gains.
        auto joint = [](float a, float b, size_t lenA, size_t lenB, int ms) {
            ProjectModel m;
            m.newProject(QStringLiteral("g"), QStringLiteral("First. Second."), SplitMode::Sentences);
            m.addTake(m.segment(0).id, makeTake(QStringLiteral("First."), std::vector<float>(lenA, a)));
            m.addTake(m.segment(1).id, makeTake(QStringLiteral("Second."), std::vector<float>(lenB, b)));
            return m.renderProject(ms, 0);
        };
        const std::vector<float> out = joint(1.0f, 0.0f, 8000, 8000, 20);
        const std::vector<float> in = joint(0.0f, 1.0f, 8000, 8000, 20);
        const size_t n = size_t(std::llround(0.020 * kSampleRate));   // 882
        QCOMPARE(out.size(), 16000 - n);
        for (size_t j = 0; j < n; ++j) {
            const double g = out[8000 - n + j], h = in[8000 - n + j];
            QVERIFY2(std::abs(g * g + h * h - 1.0) < 1e-5,
                     qPrintable(QStringLiteral("power %1 at %2").arg(g * g + h * h).arg(j)));
            if (j > 0)
                QVERIFY(g < out[8000 - n + j - 1]);
        }
        QCOMPARE(out[7999 - n], 1.0f);   // before the joint
        QCOMPARE(in[8000], 1.0f);        // after it

        // A 1000-sample clip limits the joint to 500 samples.
        QCOMPARE(joint(0.5f, 0.5f, 1000, 8000, 30).size(), size_t(9000 - 500));
        QCOMPARE(joint(0.5f, 0.5f, 8000, 8000, 0).size(), size_t(16000));   // no crossfade: plain concatenation
    }

    void gapsPutSilenceBetweenFadedClips() {
        ProjectModel m;
        m.newProject(QStringLiteral("g"), QStringLiteral("First. Second."), SplitMode::Sentences);
        const std::vector<float> a = noise(6000, 21), b = noise(7000, 22);
        m.addTake(m.segment(0).id, makeTake(QStringLiteral("First."), a));
        m.addTake(m.segment(1).id, makeTake(QStringLiteral("Second."), b));
        const qint64 gap = std::llround(0.250 * kSampleRate), n = std::llround(0.010 * kSampleRate);
        QList<RenderedSpan> spans;
        const std::vector<float> out = m.renderProject(10, 250, &spans);
        QCOMPARE(qint64(out.size()), 6000 + gap + 7000);
        QCOMPARE(spans[1].start, 6000 + gap);
        for (qint64 t = 6000; t < 6000 + gap; ++t)
            QCOMPARE(out[size_t(t)], 0.0f);
        for (qint64 j = 0; j < n; ++j) {
            const double w = (double(j) + 0.5) / double(n) * std::numbers::pi / 2;
            QVERIFY(std::abs(out[size_t(6000 - n + j)] - std::cos(w) * a[size_t(6000 - n + j)]) < 1e-6);
            QVERIFY(std::abs(out[size_t(6000 + gap + j)] - std::sin(w) * b[size_t(j)]) < 1e-6);
        }
        QCOMPARE(std::memcmp(out.data(), a.data(), sizeof(float) * size_t(6000 - n)), 0);
    }

    void saveAndLoadRoundTrip() {
        QTemporaryDir dir;
        ProjectModel m;
        m.newProject(QStringLiteral("Round trip ✓"), kText, SplitMode::Sentences);
        m.setDefaultVoice(QStringLiteral("alice"));
        QVERIFY(m.setSegmentVoice(1, QStringLiteral("bob")));
        SamplingParams custom;
        custom.temperature = 0.3f;
        custom.top_p = 0.95f;
        custom.top_k = 7;
        custom.repetition_penalty = 1.25f;
        custom.max_new_frames = 333;
        custom.chunk_length = 120;
        custom.seed = 18446744073709551615ull;
        QVERIFY(m.setSegmentSampling(3, custom));
        for (int r = 0; r < m.segmentCount(); ++r)
            QVERIFY(m.addTake(m.segment(r).id,
                              makeTake(m.segment(r).text, noise(2048 * size_t(r + 1), quint32(40 + r)))));
        QVERIFY(m.addTake(m.segment(0).id, makeTake(QStringLiteral("an older text"), noise(999, 77))));
        QVERIFY(m.setCurrentTake(0, 0));
        QVERIFY(m.setSegmentText(4, QStringLiteral("Edited after its take.")));   // stale survives too

        const QString path = dir.filePath(QStringLiteral("book.reefproj"));
        QString error;
        QSignalSpy modified(&m, &ProjectModel::modifiedChanged);
        QVERIFY2(m.save(path, &error), qPrintable(error));
        QVERIFY(!m.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(m.filePath(), path);

        // On disk: the current version, and each take's WAV holds exactly its samples (read by libsndfile).
        const QJsonObject root = readJson(path);
        QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("reef-project"));
        QCOMPARE(root.value(QStringLiteral("version")).toInt(), kProjectFormatVersion);
        // the pinned settings under the engine's own names, the 64-bit seed as a decimal string
        const QJsonObject pinned =
            root.value(QStringLiteral("segments")).toArray()[3].toObject().value(QStringLiteral("sampling")).toObject();
        QCOMPARE(pinned.value(QStringLiteral("top_p")).toDouble(), double(custom.top_p));
        QCOMPARE(pinned.value(QStringLiteral("seed")).toString(), QStringLiteral("18446744073709551615"));
        const QDir audioDir(path + QStringLiteral(".d"));
        QCOMPARE(audioDir.entryList({QStringLiteral("*.wav")}, QDir::Files).size(), 7);
        for (int r = 0; r < m.segmentCount(); ++r) {
            for (const SegmentTake& t : m.segment(r).takes) {
                const auto a = audio::read_audio(audioDir.filePath(t.id + QStringLiteral(".wav")).toStdString());
                QCOMPARE(a.sample_rate, kSampleRate);
                QCOMPARE(a.channels, 1);
                QCOMPARE(bytesOf(a.samples), bytesOf(t.audio));
            }
        }

        ProjectModel back;
        QVERIFY2(back.load(path, &error), qPrintable(error));
        QCOMPARE(back.loadedVersion(), kProjectFormatVersion);
        QVERIFY(!back.isModified());
        QVERIFY(snapshot(back).texts == snapshot(m).texts);
        Snapshot expected = snapshot(m);
        QVERIFY(snapshot(back) == expected);
        QCOMPARE(back.defaultVoice(), QStringLiteral("alice"));
        QCOMPARE(back.effectiveVoice(0), QStringLiteral("alice"));
        QCOMPARE(back.effectiveVoice(1), QStringLiteral("bob"));
        QVERIFY(back.segment(4).isStale());
        QVERIFY(!back.segment(0).sampling);
        QVERIFY(back.segment(3).sampling.has_value());
        const SamplingParams& p = *back.segment(3).sampling;
        QCOMPARE(p.temperature, custom.temperature);
        QCOMPARE(p.top_p, custom.top_p);
        QCOMPARE(p.top_k, custom.top_k);
        QCOMPARE(p.repetition_penalty, custom.repetition_penalty);
        QCOMPARE(p.max_new_frames, custom.max_new_frames);
        QCOMPARE(p.chunk_length, custom.chunk_length);
        QCOMPARE(p.seed, custom.seed);
        for (int r = 0; r < m.segmentCount(); ++r) {
            for (size_t k = 0; k < m.segment(r).takes.size(); ++k) {
                const SegmentTake& a = m.segment(r).takes[k];
                const SegmentTake& b = back.segment(r).takes[k];
                QCOMPARE(b.id, a.id);
                QCOMPARE(b.text, a.text);
                QCOMPARE(b.voice, a.voice);
                QCOMPARE(b.created, a.created);
                QCOMPARE(b.sampling.seed, a.sampling.seed);
                QCOMPARE(b.sampling.temperature, a.sampling.temperature);
                QCOMPARE(b.metrics.frames, a.metrics.frames);
                QCOMPARE(b.metrics.audio_seconds, a.metrics.audio_seconds);
                QCOMPARE(b.metrics.warm_frames_per_s, a.metrics.warm_frames_per_s);
                QCOMPARE(b.metrics.real_time_factor, a.metrics.real_time_factor);
            }
        }
    }

    void saveKeepsUnchangedAudioAndRemovesDroppedTakesAfterCommit() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.reefproj"));
        ProjectModel m;
        m.newProject(QStringLiteral("p"), QStringLiteral("One. Two. Three."), SplitMode::Sentences);
        for (int r = 0; r < 3; ++r)
            m.addTake(m.segment(r).id, makeTake(m.segment(r).text, noise(3000, quint32(r))));
        m.addTake(m.segment(1).id, makeTake(m.segment(1).text, noise(3000, 50)));
        QString error;
        QVERIFY2(m.save(path, &error), qPrintable(error));
        const QString audioDir = path + QStringLiteral(".d");
        const QString droppedFile = m.segment(1).takes[0].id + QStringLiteral(".wav");
        QVERIFY(QFileInfo::exists(audioDir + u'/' + droppedFile));
        const QString keptFile = audioDir + u'/' + m.segment(0).takes[0].id + QStringLiteral(".wav");
        const QDateTime keptTime = QFileInfo(keptFile).lastModified();

        // A save that fails on the audio (a folder in the way of the new take's file) leaves the
        // previous file and every file it names as they were, and the model unchanged.
        QVERIFY(m.removeTake(1, 0));
        SegmentTake blocked = makeTake(m.segment(2).text, noise(3000, 60));
        blocked.id = QStringLiteral("blocked-take");
        QVERIFY(m.addTake(m.segment(2).id, blocked));
        QVERIFY(QDir(audioDir).mkdir(QStringLiteral("blocked-take.wav")));
        const auto filesBefore = filesUnder(dir.path());
        const Snapshot modelBefore = snapshot(m);
        QVERIFY(!m.save(path, &error));
        QVERIFY2(error.contains(path) && error.contains(QStringLiteral("blocked-take.wav")), qPrintable(error));
        QCOMPARE(filesUnder(dir.path()), filesBefore);
        QVERIFY(snapshot(m) == modelBefore);
        QVERIFY(m.isModified());
        ProjectModel old;
        QVERIFY2(old.load(path, &error), qPrintable(error));   // still opens, with the dropped take
        QCOMPARE(old.segment(1).takes.size(), size_t(2));

        // Once the way is clear: the new take is written, the dropped take's file removed, and the
        // unchanged takes are not rewritten.
        QVERIFY(QDir(audioDir).rmdir(QStringLiteral("blocked-take.wav")));
        QTest::qWait(20);
        QVERIFY2(m.save(path, &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(audioDir + u'/' + droppedFile));
        QVERIFY(QFileInfo::exists(audioDir + QStringLiteral("/blocked-take.wav")));
        QCOMPARE(QFileInfo(keptFile).lastModified(), keptTime);
        QCOMPARE(QDir(audioDir).entryList({QStringLiteral("*.wav")}, QDir::Files).size(), 4);

        // Save As writes every take into the new project's own folder; the old one is left alone.
        const auto oldFiles = filesUnder(audioDir);
        const QString other = dir.filePath(QStringLiteral("copy.reefproj"));
        QVERIFY2(m.save(other, &error), qPrintable(error));
        QCOMPARE(QDir(other + QStringLiteral(".d")).entryList({QStringLiteral("*.wav")}, QDir::Files).size(), 4);
        QCOMPARE(filesUnder(audioDir), oldFiles);
        ProjectModel copy;
        QVERIFY2(copy.load(other, &error), qPrintable(error));
        QCOMPARE(snapshot(copy).audio, snapshot(m).audio);
    }

    void version1FilesAreMigrated() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.reefproj"));
        QVERIFY(writeFile(path, R"({"format": "reef-project", "version": 1, "title": "Old one",
                                    "segments": ["First sentence.", "Second sentence.", "第三句。"]})"));
        ProjectModel m;
        QString error;
        QVERIFY2(m.load(path, &error), qPrintable(error));
        QCOMPARE(m.loadedVersion(), 1);
        QCOMPARE(m.title(), QStringLiteral("Old one"));
        QCOMPARE(m.segmentCount(), 3);
        QCOMPARE(m.segment(2).text, QStringLiteral("第三句。"));
        QVERIFY(m.segment(0).takes.empty());
        QVERIFY(m.segment(0).id != m.segment(1).id);
        QCOMPARE(m.segmentsNeedingAudio().size(), 3);
        // Saving upgrades it to the current version, which opens again.
        m.addTake(m.segment(0).id, makeTake(m.segment(0).text, noise(1000, 3)));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        QCOMPARE(readJson(path).value(QStringLiteral("version")).toInt(), kProjectFormatVersion);
        ProjectModel again;
        QVERIFY2(again.load(path, &error), qPrintable(error));
        QCOMPARE(again.loadedVersion(), kProjectFormatVersion);
        QCOMPARE(snapshot(again).texts, snapshot(m).texts);
        QCOMPARE(bytesOf(again.segmentAudio(0)), bytesOf(m.segmentAudio(0)));
    }

    // Version 2 wrote the sampling settings in camelCase: read as they were, saved under the
    // engine's keys; a version-2 value outside the engine's range is refused, naming key and range.
    void version2SamplingIsMigrated() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v2.reefproj"));
        const char* v2 = R"({"format": "reef-project", "version": 2, "title": "v2", "audioDir": "v2.reefproj.d",
            "segments": [{"id": "s1", "text": "Hello.", "takes": [], "currentTake": -1,
                          "sampling": {"temperature": 0.5, "topP": 0.9, "topK": 12, "repetitionPenalty": 1.2,
                                       "maxNewFrames": 300, "chunkLength": 150, "seed": "12345678901234567890"}}]})";
        QVERIFY(writeFile(path, v2));
        QVERIFY(QDir().mkpath(path + QStringLiteral(".d")));
        ProjectModel m;
        QString error;
        QVERIFY2(m.load(path, &error), qPrintable(error));
        QCOMPARE(m.loadedVersion(), 2);
        QVERIFY(m.segment(0).sampling.has_value());
        const SamplingParams p = *m.segment(0).sampling;
        QCOMPARE(p.temperature, 0.5f);
        QCOMPARE(p.top_p, 0.9f);
        QCOMPARE(p.top_k, 12);
        QCOMPARE(p.repetition_penalty, 1.2f);
        QCOMPARE(p.max_new_frames, 300);
        QCOMPARE(p.chunk_length, 150);
        QCOMPARE(p.seed, quint64(12345678901234567890ull));
        QVERIFY2(m.save(path, &error), qPrintable(error));
        const QJsonObject saved =
            readJson(path).value(QStringLiteral("segments")).toArray()[0].toObject().value(QStringLiteral("sampling")).toObject();
        QCOMPARE(saved.value(QStringLiteral("top_k")).toInt(), 12);
        QVERIFY(!saved.contains(QStringLiteral("topK")));

        QByteArray tooHot(v2);
        tooHot.replace("\"temperature\": 0.5", "\"temperature\": 7.5");
        QVERIFY(writeFile(path, tooHot));
        ProjectModel refused;
        QVERIFY(!refused.load(path, &error));
        QVERIFY2(error.contains(path) && error.contains(QStringLiteral("\"temperature\" = 7.5")) &&
                     error.contains(QStringLiteral("[0, 2]")),
                 qPrintable(error));
    }

    void brokenFilesFailClearlyAndChangeNothing_data() {
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("expected");   // a phrase the error must contain
        QTest::newRow("truncated JSON") << "truncate" << "not valid JSON";
        QTest::newRow("not JSON") << "garbage" << "not valid JSON";
        QTest::newRow("other format") << "format" << "not a Reef project";
        QTest::newRow("newer version") << "version" << "newer Reef";
        QTest::newRow("sampling out of range") << "samplingrange" << "\"top_p\" = 0 is outside the allowed range [0.01, 1]";
        QTest::newRow("sampling not a number") << "samplingtype" << "\"top_k\" is not a number";
        QTest::newRow("seed not a number") << "seedtext" << "\"seed\" = \"soon\"";
        QTest::newRow("missing segments") << "nosegments" << "\"segments\" is missing";
        QTest::newRow("text not a string") << "texttype" << "\"text\" is not a string";
        QTest::newRow("current take out of range") << "current" << "\"currentTake\"";
        QTest::newRow("path in audio name") << "audiopath" << "must name a .wav file";
        QTest::newRow("audio dir outside") << "audiodir" << "\"audioDir\"";
        QTest::newRow("duplicate ids") << "dupid" << "used twice";
        QTest::newRow("audio missing") << "wavmissing" << "not found";
        QTest::newRow("audio broken") << "wavbroken" << "cannot read";
        QTest::newRow("audio other length") << "wavlength" << "the project expects";
        QTest::newRow("too large") << "huge" << "at most 64 MiB";
        QTest::newRow("too many segments") << "manysegments" << "at most 100000";
        QTest::newRow("text too long") << "longtext" << "characters long";
    }

    void brokenFilesFailClearlyAndChangeNothing() {
        QFETCH(QString, breakage);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        // A good project on disk to break.
        const QString path = dir.filePath(QStringLiteral("broken.reefproj"));
        {
            ProjectModel good;
            good.newProject(QStringLiteral("good"), QStringLiteral("One. Two."), SplitMode::Sentences);
            good.addTake(good.segment(0).id, makeTake(QStringLiteral("One."), noise(4000, 1)));
            good.addTake(good.segment(1).id, makeTake(QStringLiteral("Two."), noise(4000, 2)));
            QString error;
            QVERIFY2(good.save(path, &error), qPrintable(error));
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray json = f.readAll();
        f.close();
        QJsonObject root = QJsonDocument::fromJson(json).object();
        QJsonArray segments = root.value(QStringLiteral("segments")).toArray();
        QJsonObject seg0 = segments[0].toObject();
        const QJsonObject take0 = seg0.value(QStringLiteral("takes")).toArray()[0].toObject();
        const QString wav0 = path + QStringLiteral(".d/") + take0.value(QStringLiteral("audio")).toString();
        auto setSeg0 = [&](const QString& key, const QJsonValue& v) {
            seg0.insert(key, v);
            segments[0] = seg0;
            root.insert(QStringLiteral("segments"), segments);
        };
        auto setTake0 = [&](const QString& key, const QJsonValue& v) {
            QJsonArray takes = seg0.value(QStringLiteral("takes")).toArray();
            QJsonObject t = takes[0].toObject();
            t.insert(key, v);
            takes[0] = t;
            setSeg0(QStringLiteral("takes"), takes);
        };
        QByteArray broken;
        if (breakage == QStringLiteral("truncate")) {
            broken = json.left(json.size() / 2);
        } else if (breakage == QStringLiteral("garbage")) {
            broken = QByteArray("\x00\x01PK garbage", 12);
        } else if (breakage == QStringLiteral("format")) {
            root.insert(QStringLiteral("format"), QStringLiteral("something-else"));
        } else if (breakage == QStringLiteral("version")) {
            root.insert(QStringLiteral("version"), kProjectFormatVersion + 1);
        } else if (breakage == QStringLiteral("samplingrange")) {
            setSeg0(QStringLiteral("sampling"), QJsonObject{{QStringLiteral("top_p"), 0}});
        } else if (breakage == QStringLiteral("samplingtype")) {
            setSeg0(QStringLiteral("sampling"), QJsonObject{{QStringLiteral("top_k"), QStringLiteral("many")}});
        } else if (breakage == QStringLiteral("seedtext")) {
            setSeg0(QStringLiteral("sampling"), QJsonObject{{QStringLiteral("seed"), QStringLiteral("soon")}});
        } else if (breakage == QStringLiteral("nosegments")) {
            root.remove(QStringLiteral("segments"));
        } else if (breakage == QStringLiteral("texttype")) {
            setSeg0(QStringLiteral("text"), 5);
        } else if (breakage == QStringLiteral("current")) {
            setSeg0(QStringLiteral("currentTake"), 4);
        } else if (breakage == QStringLiteral("audiopath")) {
            setTake0(QStringLiteral("audio"), QStringLiteral("../../etc/passwd"));
        } else if (breakage == QStringLiteral("audiodir")) {
            root.insert(QStringLiteral("audioDir"), QStringLiteral(".."));
        } else if (breakage == QStringLiteral("dupid")) {
            QJsonObject seg1 = segments[1].toObject();
            seg1.insert(QStringLiteral("id"), seg0.value(QStringLiteral("id")));
            segments[1] = seg1;
            root.insert(QStringLiteral("segments"), segments);
        } else if (breakage == QStringLiteral("wavmissing")) {
            QVERIFY(QFile::remove(wav0));
        } else if (breakage == QStringLiteral("wavbroken")) {
            QVERIFY(writeFile(wav0, QByteArray(3000, 'x')));
        } else if (breakage == QStringLiteral("wavlength")) {
            QVERIFY(QFile::remove(wav0));
            audio::write_wav(wav0.toStdString(), noise(3999, 1), kSampleRate, 1, audio::WavFormat::Float32);
        } else if (breakage == QStringLiteral("huge")) {
            QFile big(path);
            QVERIFY(big.open(QIODevice::ReadWrite));
            QVERIFY(big.resize(ProjectModel::kMaxFileBytes + 1));   // sparse: cheap on disk
        } else if (breakage == QStringLiteral("manysegments")) {
            QJsonArray many;
            for (int i = 0; i <= ProjectModel::kMaxSegments; ++i)
                many.append(QStringLiteral("a"));
            broken = QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("reef-project")},
                                               {QStringLiteral("version"), 1},
                                               {QStringLiteral("title"), QStringLiteral("many")},
                                               {QStringLiteral("segments"), many}})
                         .toJson(QJsonDocument::Compact);
        } else if (breakage == QStringLiteral("longtext")) {
            setSeg0(QStringLiteral("text"), QString(ProjectModel::kMaxTextChars + 1, u'a'));
        }
        if (broken.isEmpty() && breakage != QStringLiteral("wavmissing") && breakage != QStringLiteral("wavbroken") &&
            breakage != QStringLiteral("wavlength") && breakage != QStringLiteral("huge"))
            broken = QJsonDocument(root).toJson();
        if (!broken.isEmpty())
            QVERIFY(writeFile(path, broken));

        // The model holds another, edited project: a failed load must leave it exactly as it was.
        ProjectModel m;
        m.newProject(QStringLiteral("mine"), QStringLiteral("Keep me. And me."), SplitMode::Sentences);
        m.addTake(m.segment(1).id, makeTake(QStringLiteral("And me."), noise(2500, 9)));
        const Snapshot before = snapshot(m);
        const auto filesBefore = filesUnder(dir.path());
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        QString error;
        QVERIFY(!m.load(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(snapshot(m) == before);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(filesUnder(dir.path()), filesBefore);
    }
};

QTEST_GUILESS_MAIN(TstProject)
#include "tst_project.moc"
