// Issue #48 in the studio (fake engine, offscreen or Xvfb): a project with chapters and two speakers
// is cast, paused, paced and normalized from the Production dialog and exported as a book with
// chapters and subtitles; the segment editor sets chapters and speed; each take shows its loudness.
// With REEF_SCREENS_DIR set it saves production_dialog.png and project_production.png.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>
#include <cmath>

#include "audio/flac_chapters.h"
#include "audio/loudness.h"
#include "audio/wav_file.h"
#include "fake_window.h"
#include "qt/project.h"
#include "qt/studio_controller.h"
#include "qt/voice_list_model.h"
#include "widgets/main_window.h"
#include "widgets/production_dialog.h"
#include "widgets/project_view.h"

using namespace reef;
using namespace reef::ui;
using reef_test::saveScreen;

namespace {

std::vector<float> tone(size_t n, double hz, float level) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = level * float(0.2 + 0.8 * std::sin(2 * M_PI * hz * double(i) / kSampleRate));
    return out;
}

}  // namespace

class TstProduction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void castPausesLoudnessAndTheBook() {
        reef_test::FakeWindow app;
        MainWindow& w = *app.window;
        ProjectModel& project = w.studio().project();
        // Two voices in the library.
        QTemporaryDir dir;
        const QString clip = dir.filePath(QStringLiteral("clip.wav"));
        audio::write_wav(clip.toStdString(), tone(44100, 180, 0.3f), kSampleRate);
        QString error;
        const QString ann = app.voices.addVoice(QStringLiteral("Ann"), clip, QStringLiteral("A clip."), &error);
        const QString ben = app.voices.addVoice(QStringLiteral("Ben"), clip, QStringLiteral("A clip."), &error);
        QVERIFY2(!ann.isEmpty() && !ben.isEmpty(), qPrintable(error));

        project.newProjectFromChapters(
            QStringLiteral("Reef Tales"),
            {{QStringLiteral("One"), QStringLiteral("One\n\n<|speaker:0|>The tide came in. [pause 1.5s]\n\n"
                                                    "<|speaker:1|>The reef woke, and sang.")},
             {QStringLiteral("Two"), QStringLiteral("Two\n\n<|speaker:0|>Morning light fell on the water.")}},
            SplitMode::Sentences);
        QCOMPARE(project.segmentCount(), 5);
        for (int r = 0; r < project.segmentCount(); ++r) {
            SegmentTake t;
            t.text = project.segment(r).text;
            t.voice = project.effectiveVoice(r);
            t.audio = tone(30000 + 4000 * size_t(r), 150 + 30 * r, 0.05f + 0.1f * float(r));   // uneven levels
            project.addTake(project.segment(r).id, std::move(t));
        }

        // The segment editor: chapter and speed; the take's loudness.
        ProjectView& view = *w.projectView();
        w.findChild<QTabWidget*>()->setCurrentWidget(&view);
        view.selectRow(2);
        QCOMPARE(view.chapterEdit()->text(), QString());
        view.selectRow(3);
        QCOMPARE(view.chapterEdit()->text(), QStringLiteral("Two"));
        view.speedSpin()->setValue(1.25);
        QCOMPARE(project.segment(3).speed, 1.25);
        view.speedSpin()->setValue(view.speedSpin()->minimum());
        QCOMPARE(project.segment(3).speed, 0.0);
        QVERIFY2(view.takeCombo()->currentText().contains(QStringLiteral("LUFS")), qPrintable(view.takeCombo()->currentText()));
        QTest::keyClicks(view.chapterEdit(), QStringLiteral(" (dawn)"));
        QCOMPARE(project.segment(3).chapter, QStringLiteral("Two (dawn)"));

        // The Production dialog.
        ProductionDialog d(project, app.voices, &w);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        // "Name:" lines: none in this text, so the same two speakers either way.
        d.findChild<QCheckBox*>(QStringLiteral("nameLinesCheck"))->setChecked(true);
        d.findChild<QCheckBox*>(QStringLiteral("nameLinesCheck"))->setChecked(false);
        QTest::qWait(20);   // the rebuilt rows are shown from the event loop
        QVERIFY(d.findChild<QComboBox*>(QStringLiteral("castVoice_1"))->isVisible());
        auto* cast0 = d.findChild<QComboBox*>(QStringLiteral("castVoice_0"));
        auto* cast1 = d.findChild<QComboBox*>(QStringLiteral("castVoice_1"));
        QVERIFY(cast0 && cast1);
        cast0->setCurrentIndex(cast0->findData(ann));
        cast1->setCurrentIndex(cast1->findData(ben));
        auto* joint = d.findChild<QCheckBox*>(QStringLiteral("jointSpeakersCheck"));
        QVERIFY(joint && joint->isVisible() && !joint->isChecked());
        joint->setChecked(true);
        d.findChild<QSpinBox*>(QStringLiteral("sentencePause"))->setValue(600);
        d.findChild<QDoubleSpinBox*>(QStringLiteral("paceSpin"))->setValue(1.1);
        auto* preset = d.findChild<QComboBox*>(QStringLiteral("loudnessPreset"));
        preset->setCurrentIndex(1);   // audiobook: −18 LUFS, −3 dBTP
        Q_EMIT preset->activated(1);
        QVERIFY(d.findChild<QCheckBox*>(QStringLiteral("normalizeCheck"))->isChecked());
        QCOMPARE(d.settings().targetLufs, -18.0);
        QCOMPARE(d.settings().ceilingDbtp, -3.0);
        std::vector<float> played;
        QObject::connect(&d, &ProductionDialog::playRequested, [&](const std::vector<float>& s) { played = s; });
        QTest::mouseClick(d.findChild<QPushButton*>(QStringLiteral("playBookButton")), Qt::LeftButton);
        QCOMPARE(played.size(), d.assembled().size());
        QVERIFY(!played.empty());
        d.measure();
        QVERIFY2(d.measureText().contains(QStringLiteral("-18.0 LUFS")), qPrintable(d.measureText()));
        d.findChild<QCheckBox*>(QStringLiteral("perChapterCheck"))->setChecked(true);
        d.findChild<QCheckBox*>(QStringLiteral("srtCheck"))->setChecked(true);
        d.findChild<QCheckBox*>(QStringLiteral("vttCheck"))->setChecked(true);
        saveScreen(&d, "production_dialog.png");
        QStringList files;
        QVERIFY2(d.exportTo(dir.path(), &files, &error), qPrintable(error));
        QCOMPARE(files.size(), 9);   // the book, two chapters, and SRT and VTT for the book and each chapter
        const QString flac = dir.filePath(QStringLiteral("Reef Tales.flac"));
        QVERIFY(files.contains(flac));
        const std::vector<audio::ChapterMark> marks = audio::read_flac_chapters(flac.toStdString());
        QCOMPARE(int(marks.size()), 2);
        QCOMPARE(QString::fromStdString(marks[1].title), QStringLiteral("Two (dawn)"));
        const audio::Loudness l = audio::measure_loudness(audio::read_audio(flac.toStdString()).samples, kSampleRate);
        QVERIFY2(std::abs(l.integrated_lufs + 18.0) < 0.5 && l.true_peak_dbtp <= -2.9,
                 qPrintable(QStringLiteral("%1 LUFS, %2 dBTP").arg(l.integrated_lufs).arg(l.true_peak_dbtp)));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("Reef Tales.srt"))));

        // OK: into the project; the cast's voices differ from the takes', so speaker 1's takes are stale.
        d.apply();
        QCOMPARE(project.assembly().sentencePauseMs, 600);
        QCOMPARE(project.assembly().speed, 1.1);
        QVERIFY(project.assembly().normalize);
        QCOMPARE(project.cast().value(QStringLiteral("1")), ben);
        QCOMPARE(project.effectiveVoice(2), ben);
        QVERIFY(project.jointSpeakers());   // no segment here has two speakers: nothing else changes
        QCOMPARE(project.segmentsNeedingAudio(), (QList<int>{1, 2, 4}));   // speaker 0 and 1 rows; "One"/"Two" have no speaker
        d.close();
        view.selectRow(2);
        saveScreen(&w, "project_production.png");

        // A file that is not an EPUB: refused with the reason, the project untouched.
        const QString junk = reef_test::writeFile(dir, QStringLiteral("junk.epub"), QByteArray("not a zip at all"));
        QVERIFY(!w.importEpub(junk, &error));
        QVERIFY2(error.contains(QStringLiteral("not a zip")), qPrintable(error));
        QCOMPARE(project.segmentCount(), 5);
    }
};

QTEST_MAIN(TstProduction)
#include "tst_production.moc"
