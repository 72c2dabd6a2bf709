// Export formats through libsndfile: every format this libsndfile can write, read back with
// libsndfile (samples and metadata); format choice from a save dialog's answer; failures.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "audio/wav_file.h"
#include "qt/file_export.h"
#include "reef/engine_types.h"

using namespace reef;
using namespace reef::ui;
using audio::ExportFormat;

Q_DECLARE_METATYPE(reef::audio::ExportFormat)

namespace {

// A voice-like test signal: two partials with a slow amplitude swell, within [-1, 1].
std::vector<float> signal(int n) {
    std::vector<float> s(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / kSampleRate;
        s[size_t(i)] = float((0.5 + 0.3 * std::sin(2 * M_PI * 3 * t)) *
                             (0.6 * std::sin(2 * M_PI * 220 * t) + 0.3 * std::sin(2 * M_PI * 1330 * t)));
    }
    return s;
}

double rms(const std::vector<float>& s) {
    double sum = 0;
    for (float v : s)
        sum += double(v) * v;
    return std::sqrt(sum / double(std::max<size_t>(1, s.size())));
}

// Best correlation over small shifts: lossy codecs may add a few samples of delay.
double bestCorrelation(const std::vector<float>& a, const std::vector<float>& b) {
    double best = -1;
    for (int k = 0; k <= 4096; ++k) {
        const int shift = k % 2 ? (k + 1) / 2 : -(k / 2);   // 0, 1, -1, 2, -2, ...
        double ab = 0, aa = 0, bb = 0;
        for (size_t i = 4096; i + 4096 < a.size(); ++i) {
            const long j = long(i) + shift;
            if (j < 0 || size_t(j) >= b.size())
                continue;
            ab += double(a[i]) * b[size_t(j)];
            aa += double(a[i]) * a[i];
            bb += double(b[size_t(j)]) * b[size_t(j)];
        }
        if (aa > 0 && bb > 0)
            best = std::max(best, ab / std::sqrt(aa * bb));
        if (best > 0.99)
            break;
    }
    return best;
}

QStringList filesIn(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot); }

}  // namespace

class TstFileExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFormat_data() {
        QTest::addColumn<ExportFormat>("format");
        QTest::addColumn<double>("maxError");   // < 0: lossy, compared by correlation and level
        QTest::newRow("wav-pcm16") << ExportFormat::WavPcm16 << 2.0 / 32768;
        QTest::newRow("wav-float") << ExportFormat::WavFloat << 0.0;
        QTest::newRow("flac") << ExportFormat::Flac << 2.0 / 8388608;
        QTest::newRow("ogg-vorbis") << ExportFormat::OggVorbis << -1.0;
        QTest::newRow("mp3") << ExportFormat::Mp3 << -1.0;
    }

    void everyFormat() {
        QFETCH(ExportFormat, format);
        QFETCH(double, maxError);
        const bool available = availableExportFormats().contains(format);
        if (format == ExportFormat::Mp3 && !available)
            QSKIP("this libsndfile cannot write MP3 (built without LAME / mpg123)");
        // The rest are what the issue promises; a libsndfile without them is a broken install.
        QVERIFY2(available, "libsndfile cannot write this format");

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("take.") + exportFormatSuffix(format));
        const std::vector<float> in = signal(kSampleRate * 2);
        AudioExportMeta meta;
        meta.title = QStringLiteral("Chapter 1 — 東京");
        meta.text = QStringLiteral("Hello from the reef. これはテストです。");
        meta.model = QStringLiteral("S2-Pro");
        meta.settings = QStringLiteral("cpu · fp32 · eager · auto · T 0.70");
        meta.seed = 1234567890123ULL;
        QString error;
        QVERIFY2(exportAudioFile(path, in, format, meta, &error), qPrintable(error));
        QCOMPARE(filesIn(dir.path()), QStringList{QFileInfo(path).fileName()});   // no temp file left

        const audio::AudioData back = audio::read_audio(path.toStdString());
        QCOMPARE(back.sample_rate, kSampleRate);
        QCOMPARE(back.channels, 1);
        if (maxError >= 0) {
            QCOMPARE(back.samples.size(), in.size());
            double worst = 0;
            for (size_t i = 0; i < in.size(); ++i)
                worst = std::max(worst, double(std::fabs(back.samples[i] - in[i])));
            QVERIFY2(worst <= maxError, qPrintable(QStringLiteral("max error %1").arg(worst)));
        } else {
            QVERIFY(std::llabs((long long)back.samples.size() - (long long)in.size()) < kSampleRate / 10);
            const double corr = bestCorrelation(in, back.samples);
            QVERIFY2(corr > 0.98, qPrintable(QStringLiteral("correlation %1").arg(corr)));
            const double ratio = rms(back.samples) / rms(in);
            QVERIFY2(ratio > 0.9 && ratio < 1.1, qPrintable(QStringLiteral("level ratio %1").arg(ratio)));
        }

        const audio::AudioMetadata m = audio::read_metadata(path.toStdString());
        QCOMPARE(QString::fromStdString(m.title), meta.title);
        const QString comment = QString::fromStdString(m.comment);
        QVERIFY2(comment.startsWith(meta.text), qPrintable(comment));
        QVERIFY2(comment.contains(QStringLiteral("model: S2-Pro")), qPrintable(comment));
        QVERIFY2(comment.contains(QStringLiteral("settings: ") + meta.settings), qPrintable(comment));
        QVERIFY2(comment.contains(QStringLiteral("seed: 1234567890123")), qPrintable(comment));
        QCOMPARE(QString::fromStdString(m.artist), meta.model);
        QVERIFY(!m.date.empty());
        // Every character kept in every format: MP3's "·" and CJK once came back as '?'
        QVERIFY2(comment.contains(QStringLiteral("cpu · fp32 · eager")), qPrintable(comment));
        if (format != ExportFormat::Mp3)   // libsndfile does not read ID3's software field (TSSE) back
            QVERIFY2(QString::fromStdString(m.software).startsWith(QStringLiteral("Reef ")), m.software.c_str());
    }

    void titleDefaultsToTheText() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.flac"));
        AudioExportMeta meta;
        meta.text = QStringLiteral("A line\nand another");
        QString error;
        QVERIFY2(exportAudioFile(path, signal(4410), ExportFormat::Flac, meta, &error), qPrintable(error));
        const audio::AudioMetadata m = audio::read_metadata(path.toStdString());
        QCOMPARE(QString::fromStdString(m.title), QStringLiteral("A line and another"));
        QCOMPARE(QString::fromStdString(m.comment), meta.text);   // no model: no take lines
    }

    void unwritableFolderLeavesNothing() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/take.flac"));
        QString error;
        QVERIFY(!exportAudioFile(missing, signal(4410), ExportFormat::Flac, {}, &error));
        QVERIFY2(error.contains(missing) && error.contains(QStringLiteral("does not exist")), qPrintable(error));
        // A file where the folder should be.
        const QString file = dir.filePath(QStringLiteral("plain"));
        QFile(file).open(QIODevice::WriteOnly);
        error.clear();
        QVERIFY(!exportAudioFile(file + QStringLiteral("/take.wav"), signal(4410), ExportFormat::WavPcm16, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("is not a folder")), qPrintable(error));
        QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("plain")});
        // A read-only folder: libsndfile cannot create the temp file.
        const QString ro = dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(ro));
        QVERIFY(QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        if (QFileInfo(ro).isWritable())
            QSKIP("running as root: a read-only folder is writable");
        const QString target = QDir(ro).filePath(QStringLiteral("take.ogg"));
        error.clear();
        QVERIFY(!exportAudioFile(target, signal(4410), ExportFormat::OggVorbis, {}, &error));
        QVERIFY2(error.contains(target), qPrintable(error));
        QVERIFY(filesIn(ro).isEmpty());
        QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    void nothingToExport() {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!exportAudioFile(dir.filePath(QStringLiteral("e.wav")), {}, ExportFormat::WavPcm16, {}, &error));
        QVERIFY(error.contains(QStringLiteral("no audio")));
        QVERIFY(filesIn(dir.path()).isEmpty());
    }

    void existingFileIsReplacedWhole() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.wav"));
        QString error;
        QVERIFY(exportAudioFile(path, signal(44100), ExportFormat::WavFloat, {}, &error));
        QVERIFY(exportAudioFile(path, signal(4410), ExportFormat::WavPcm16, {}, &error));
        QCOMPARE(audio::read_audio(path.toStdString()).frames(), 4410LL);
        QCOMPARE(filesIn(dir.path()).size(), 1);
    }

    void formatFromDialogAnswer() {
        const QString filter = exportFileFilter();
        const QStringList entries = filter.split(QStringLiteral(";;"));
        QCOMPARE(entries.size(), availableExportFormats().size());
        for (ExportFormat f : availableExportFormats()) {
            const QString entry = *std::find_if(entries.begin(), entries.end(),
                                                [&](const QString& e) { return e.startsWith(exportFormatName(f) + QStringLiteral(" (")); });
            QVERIFY2(entry.contains(QStringLiteral("*.") + exportFormatSuffix(f)), qPrintable(entry));
            // The selected filter decides for a path without a suffix and between the two WAVs.
            QCOMPARE(exportFormatForPath(QStringLiteral("/x/take"), entry), std::optional<ExportFormat>(f));
            QCOMPARE(exportFormatForPath(QStringLiteral("/x/take.") + exportFormatSuffix(f), entry),
                     std::optional<ExportFormat>(f));
        }
        // A typed suffix wins over a filter of another suffix.
        const QString floatEntry = entries[availableExportFormats().indexOf(ExportFormat::WavFloat)];
        QCOMPARE(exportFormatForPath(QStringLiteral("a.FLAC"), floatEntry), std::optional<ExportFormat>(ExportFormat::Flac));
        QCOMPARE(exportFormatForPath(QStringLiteral("a.wav")), std::optional<ExportFormat>(ExportFormat::WavPcm16));
        QCOMPARE(exportFormatForPath(QStringLiteral("a.oga")), std::optional<ExportFormat>(ExportFormat::OggVorbis));
        QCOMPARE(exportFormatForPath(QStringLiteral("a.mp3")), std::optional<ExportFormat>(ExportFormat::Mp3));
        QVERIFY(!exportFormatForPath(QStringLiteral("a.txt")).has_value());
        QVERIFY(!exportFormatForPath(QStringLiteral("a")).has_value());
    }

    void legacyExportWavStillWorks() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.wav"));
        QString error;
        QVERIFY2(exportWav(path, signal(4410), QStringLiteral("Title"), QStringLiteral("a comment"), &error),
                 qPrintable(error));
        const audio::AudioMetadata m = audio::read_metadata(path.toStdString());
        QCOMPARE(m.title, std::string("Title"));
        QCOMPARE(m.comment, std::string("a comment"));
        QCOMPARE(audio::read_audio(path.toStdString()).frames(), 4410LL);
    }
};

QTEST_GUILESS_MAIN(TstFileExport)
#include "tst_file_export.moc"
