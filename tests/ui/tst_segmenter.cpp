// splitIntoSegments: sentence and paragraph boundaries in Latin and CJK text, speaker tags, and
// the cutting of over-long pieces (never inside a surrogate pair or a tag).
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <limits>

#include "qt/text_segmenter.h"

using namespace reef::ui;

namespace {

QString noSpace(QString s) {
    s.remove(QRegularExpression(QStringLiteral("\\s")));
    return s;
}

// What every split must satisfy: pieces are trimmed and non-empty, no longer than the limit, and
// together are the text (whitespace aside) in order.
void checkPartition(const QString& text, const QStringList& pieces, int maxChars) {
    for (const QString& p : pieces) {
        QVERIFY2(!p.isEmpty(), "an empty piece");
        QVERIFY2(p == p.trimmed(), qPrintable(QStringLiteral("untrimmed piece: [%1]").arg(p)));
        QVERIFY2(p.size() <= std::max(maxChars, kMinSegmentChars),
                 qPrintable(QStringLiteral("%1 chars: %2").arg(p.size()).arg(p)));
        QVERIFY2(!p.front().isLowSurrogate(), "a piece starts with half a surrogate pair");
        QVERIFY2(!p.back().isHighSurrogate(), "a piece ends with half a surrogate pair");
    }
    QCOMPARE(noSpace(pieces.join(QString())), noSpace(text));
}

}  // namespace

class TstSegmenter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void latinSentences() {
        const QString text = QStringLiteral("Hello world. How are you? I am fine! Thanks\u2026 Bye");
        const QStringList got = splitIntoSegments(text, SplitMode::Sentences);
        QCOMPARE(got, (QStringList{QStringLiteral("Hello world."), QStringLiteral("How are you?"),
                                   QStringLiteral("I am fine!"), QStringLiteral("Thanks\u2026"),
                                   QStringLiteral("Bye")}));
    }

    void abbreviationsDecimalsAndInitialsDoNotSplit() {
        QCOMPARE(splitIntoSegments(QStringLiteral("Mr. Smith met Dr. Jones at 3.5 p.m. yesterday. They talked, e.g. "
                                                  "about cats, i.e. Siamese ones."),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("Mr. Smith met Dr. Jones at 3.5 p.m. yesterday."),
                              QStringLiteral("They talked, e.g. about cats, i.e. Siamese ones.")}));
        QCOMPARE(splitIntoSegments(QStringLiteral("J. R. R. Tolkien wrote books. So did I. Version 1.2.3 of "
                                                  "example.com costs approx. five dollars. The end."),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("J. R. R. Tolkien wrote books."), QStringLiteral("So did I."),
                              QStringLiteral("Version 1.2.3 of example.com costs approx. five dollars."),
                              QStringLiteral("The end.")}));
        // A year ends a sentence; so does a run like "?!" or "...".
        QCOMPARE(splitIntoSegments(QStringLiteral("It was 1990. Really?! Yes... Fine."), SplitMode::Sentences),
                 (QStringList{QStringLiteral("It was 1990."), QStringLiteral("Really?!"), QStringLiteral("Yes..."),
                              QStringLiteral("Fine.")}));
    }

    void closingQuotesAndBracketsStayWithTheSentence() {
        QCOMPARE(splitIntoSegments(QStringLiteral("He said \"Stop.\" Then he left. (This is a note.) Next one."),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("He said \"Stop.\""), QStringLiteral("Then he left."),
                              QStringLiteral("(This is a note.)"), QStringLiteral("Next one.")}));
        // Dialogue attribution in lower case continues the sentence.
        QCOMPARE(splitIntoSegments(QStringLiteral("\u201CHelp!\u201D he cried. \u201CRun!\u201D She ran."),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("\u201CHelp!\u201D he cried."), QStringLiteral("\u201CRun!\u201D"),
                              QStringLiteral("She ran.")}));
    }

    void cjkSentencesNeedNoSpace() {
        QCOMPARE(splitIntoSegments(QStringLiteral("你好。今天天气很好！我们去公园吧？好的；走吧"), SplitMode::Sentences),
                 (QStringList{QStringLiteral("你好。"), QStringLiteral("今天天气很好！"), QStringLiteral("我们去公园吧？"),
                              QStringLiteral("好的；"), QStringLiteral("走吧")}));
        // A quote closed mid-sentence continues it (と, 他喊道); a closed quote followed by a new one ends it.
        QCOMPARE(splitIntoSegments(QStringLiteral("こんにちは。「やめて！」と彼は言った。「はい。」「いいえ。」"),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("こんにちは。"), QStringLiteral("「やめて！」と彼は言った。"),
                              QStringLiteral("「はい。」"), QStringLiteral("「いいえ。」")}));
        QCOMPARE(splitIntoSegments(QStringLiteral("他说：\u201C快跑！\u201D他喊道。他想了想\u2026\u2026然后走了。"),
                                   SplitMode::Sentences),
                 (QStringList{QStringLiteral("他说：\u201C快跑！\u201D他喊道。"), QStringLiteral("他想了想\u2026\u2026"),
                              QStringLiteral("然后走了。")}));
        // Half-width marks right after CJK text end a sentence too; full-width full stop ．
        QCOMPARE(splitIntoSegments(QStringLiteral("你好!我很好.谢谢．再见"), SplitMode::Sentences),
                 (QStringList{QStringLiteral("你好!"), QStringLiteral("我很好."), QStringLiteral("谢谢．"),
                              QStringLiteral("再见")}));
    }

    void paragraphsSplitAtBlankLinesOnly() {
        const QString text = QStringLiteral("Para one. Still one.\r\n\r\nPara two line one\nline two.\n \t\n\n"
                                            "Para three.\u2029Para four.");
        QCOMPARE(splitIntoSegments(text, SplitMode::Paragraphs),
                 (QStringList{QStringLiteral("Para one. Still one."), QStringLiteral("Para two line one\nline two."),
                              QStringLiteral("Para three."), QStringLiteral("Para four.")}));
        QCOMPARE(splitIntoSegments(text, SplitMode::Sentences),
                 (QStringList{QStringLiteral("Para one."), QStringLiteral("Still one."),
                              QStringLiteral("Para two line one\nline two."), QStringLiteral("Para three."),
                              QStringLiteral("Para four.")}));
    }

    void whitespaceAndEmptyPiecesAreDropped() {
        QCOMPARE(splitIntoSegments(QStringLiteral("   \n\n  Hello.   \n\n\n   "), SplitMode::Sentences),
                 QStringList{QStringLiteral("Hello.")});
        QCOMPARE(splitIntoSegments(QString(), SplitMode::Sentences), QStringList());
        QCOMPARE(splitIntoSegments(QStringLiteral(" \n\t\u3000 "), SplitMode::Paragraphs), QStringList());
    }

    void speakerTagsStayWithTheirText() {
        const QString dialogue =
            QStringLiteral("<|speaker:0|>Hello there. How are you?<|speaker:1|>I'm fine. Thanks.");
        QCOMPARE(splitIntoSegments(dialogue, SplitMode::Sentences),
                 (QStringList{QStringLiteral("<|speaker:0|>Hello there."), QStringLiteral("How are you?"),
                              QStringLiteral("<|speaker:1|>I'm fine."), QStringLiteral("Thanks.")}));
        QCOMPARE(splitIntoSegments(dialogue, SplitMode::Paragraphs), QStringList{dialogue});
        // A tag on its own paragraph, or at a paragraph's end, joins the text after it.
        const QStringList lone =
            splitIntoSegments(QStringLiteral("<|speaker:0|>\n\nHello. Bye."), SplitMode::Sentences);
        QCOMPARE(lone.size(), 2);
        QVERIFY(lone[0].startsWith(QStringLiteral("<|speaker:0|>")) && lone[0].endsWith(QStringLiteral("Hello.")));
        const QStringList trailing =
            splitIntoSegments(QStringLiteral("Hello. <|speaker:1|>\n\nWorld."), SplitMode::Paragraphs);
        QCOMPARE(trailing.size(), 2);
        QCOMPARE(trailing[0], QStringLiteral("Hello."));
        QVERIFY(trailing[1].startsWith(QStringLiteral("<|speaker:1|>")));
        QVERIFY(trailing[1].endsWith(QStringLiteral("World.")));
        // Tags only: nothing to attach to, kept rather than lost.
        QCOMPARE(splitIntoSegments(QStringLiteral("<|speaker:0|>"), SplitMode::Sentences),
                 QStringList{QStringLiteral("<|speaker:0|>")});
    }

    void longSentencesCutAtClauseMarksThenSpaces() {
        QStringList clauses;
        for (int i = 0; i < 12; ++i)
            clauses << QStringLiteral("clause number %1 of this sentence").arg(i);
        const QString withCommas = clauses.join(QStringLiteral(", ")) + u'.';
        const QStringList got = splitIntoSegments(withCommas, SplitMode::Sentences, 80);
        checkPartition(withCommas, got, 80);
        QVERIFY(got.size() >= 6);
        for (int i = 0; i + 1 < got.size(); ++i)
            QVERIFY2(got[i].endsWith(u','), qPrintable(got[i]));

        const QString words = QStringLiteral("word ").repeated(60).trimmed();
        const QStringList byWord = splitIntoSegments(words, SplitMode::Sentences, 50);
        checkPartition(words, byWord, 50);
        const QRegularExpression wholeWords(QStringLiteral("^word( word)*$"));
        for (const QString& p : byWord)
            QVERIFY2(wholeWords.match(p).hasMatch(), qPrintable(p));
        // CJK commas 、，are cut points without spaces.
        const QString cjk = QStringLiteral("我们今天去了公园和博物馆，").repeated(10) + QStringLiteral("很开心。");
        const QStringList cjkGot = splitIntoSegments(cjk, SplitMode::Sentences, 45);
        checkPartition(cjk, cjkGot, 45);
        for (int i = 0; i + 1 < cjkGot.size(); ++i)
            QVERIFY2(cjkGot[i].endsWith(QChar(0xFF0C)), qPrintable(cjkGot[i]));
        // "1,000" is no cut point: an ASCII comma needs a space after it.
        const QString numbers = QStringLiteral("1,000,000 ").repeated(10).trimmed();
        for (const QString& p : splitIntoSegments(numbers, SplitMode::Sentences, 40))
            QVERIFY2(!p.endsWith(u',') && !p.startsWith(u','), qPrintable(p));
    }

    void hardCutsNeverSplitSurrogatePairsOrTags() {
        const QString emoji = QString::fromUcs4(U"\U0001F600").repeated(100);   // 200 UTF-16 units
        for (int limit : {41, 43, 57}) {
            const QStringList got = splitIntoSegments(emoji, SplitMode::Sentences, limit);
            checkPartition(emoji, got, limit);
            QCOMPARE(got.join(QString()), emoji);
        }
        // CJK extension B (surrogate pairs) mixed with BMP ideographs, no punctuation at all.
        const QString mixed = (QString::fromUcs4(U"\U00020000") + QStringLiteral("汉字")).repeated(50);
        const QStringList mixedGot = splitIntoSegments(mixed, SplitMode::Paragraphs, 41);
        checkPartition(mixed, mixedGot, 41);
        QCOMPARE(mixedGot.join(QString()), mixed);

        const QString tagged = QStringLiteral("<|speaker:0|>") + QString(100, u'a') + QStringLiteral("<|speaker:1|>") +
                               QString(100, u'b');
        const QStringList got = splitIntoSegments(tagged, SplitMode::Paragraphs, 40);
        checkPartition(tagged, got, 40);
        const QRegularExpression tag(QStringLiteral("<\\|speaker:\\d\\|>"));
        int tags = 0;
        for (const QString& p : got) {
            QString rest = p;
            tags += int(rest.remove(tag).size() != p.size());
            QVERIFY2(!rest.contains(u'<') && !rest.contains(u'|') && !rest.contains(u'>'),
                     qPrintable(QStringLiteral("a tag was cut: %1").arg(p)));
            QVERIFY2(!p.endsWith(u'>'), qPrintable(QStringLiteral("a piece ends with a tag: %1").arg(p)));
        }
        QCOMPARE(tags, 2);
        QVERIFY(got.first().startsWith(QStringLiteral("<|speaker:0|>a")));
    }

    void paragraphModePacksWholeSentences() {
        QStringList sentences;
        for (int i = 0; i < 10; ++i)
            sentences << QStringLiteral("This is sentence number %1 here.").arg(i);   // 31-32 chars
        const QString para = sentences.join(u' ');
        const QStringList got = splitIntoSegments(para, SplitMode::Paragraphs, 100);
        checkPartition(para, got, 100);
        QCOMPARE(got.size(), 4);   // 3 + 3 + 3 + 1 sentences: a fourth never fits in 100
        for (const QString& p : got)
            QVERIFY2(p.startsWith(QStringLiteral("This")) && p.endsWith(QStringLiteral("here.")), qPrintable(p));
        QCOMPARE(got.first(), sentences.mid(0, 3).join(u' '));
    }

    void tinyLimitsAreRaisedToTheMinimum() {
        const QStringList got = splitIntoSegments(QString(100, u'x'), SplitMode::Sentences, 3);
        QCOMPARE(got.size(), 3);
        QCOMPARE(got[0].size(), kMinSegmentChars);
    }

    // A novel-sized text (1.7 M characters) splits in linear time: a quadratic scan would take minutes.
    // Measured as a ratio in this run, not against a clock figure: the cost per character of the
    // whole novel against that of an eighth of it, each the fastest of a few runs (a busy moment on
    // the machine does not count). Linear splitting gives about 1, a quadratic scan about 8 (8× the
    // text, 64× the time); the bound, 4, lies between.
    void aNovelSplitsQuickly() {
        const QString paragraph = QStringLiteral("It was a bright cold day in April, and the clocks were striking "
                                                 "thirteen. Mr. Smith walked home. 他走回家了。我们很高兴！\n\n");
        auto novelOf = [&](int paragraphs, int run) {   // and one huge run
            return paragraph.repeated(paragraphs) + QString(run, QChar(0x6C49));
        };
        const QString novel = novelOf(15000, 20000);
        const QString eighth = novelOf(15000 / 8, 20000 / 8);
        QElapsedTimer timer;
        timer.start();
        const QStringList sentences = splitIntoSegments(novel, SplitMode::Sentences);
        const QStringList paragraphs = splitIntoSegments(novel, SplitMode::Paragraphs);
        qint64 wholeNs = timer.nsecsElapsed();
        QCOMPARE(sentences.size(), 15000 * 4 + 50);
        QCOMPARE(paragraphs.size(), 15000 + 50);
        auto fastestNs = [](const QString& text, int runs) {
            qint64 best = std::numeric_limits<qint64>::max();
            for (int i = 0; i < runs; ++i) {
                QElapsedTimer t;
                t.start();
                (void)splitIntoSegments(text, SplitMode::Sentences);
                (void)splitIntoSegments(text, SplitMode::Paragraphs);
                best = std::min(best, t.nsecsElapsed());
            }
            return best;
        };
        wholeNs = std::min(wholeNs, fastestNs(novel, 1));
        const qint64 eighthNs = std::max<qint64>(1, fastestNs(eighth, 5));
        const double perCharRatio = (double(wholeNs) / double(novel.size())) / (double(eighthNs) / double(eighth.size()));
        QVERIFY2(perCharRatio < 4.0, qPrintable(QStringLiteral("%1 ms for %2 characters, %3 ms for %4: %5× the cost per character")
                                                    .arg(wholeNs / 1e6).arg(novel.size()).arg(eighthNs / 1e6)
                                                    .arg(eighth.size()).arg(perCharRatio)));
        qInfo("%.0f ms for %lld characters, %.1f ms for an eighth: %.2f× the cost per character", wholeNs / 1e6,
              qlonglong(novel.size()), eighthNs / 1e6, perCharRatio);
    }

    // A random mix of everything above: the partition holds whatever the text.
    void randomTextsArePartitioned() {
        const QStringList atoms{QStringLiteral("Hello"), QStringLiteral("world"), QStringLiteral("."),
                                QStringLiteral("!"), QStringLiteral("?"), QStringLiteral(", "), QStringLiteral(" "),
                                QStringLiteral("\n"), QStringLiteral("\n\n"), QStringLiteral("Mr."),
                                QStringLiteral("3.5"), QStringLiteral("你好"), QStringLiteral("。"), QStringLiteral("，"),
                                QStringLiteral("\u201D"), QStringLiteral("\""), QStringLiteral("<|speaker:1|>"),
                                QString::fromUcs4(U"\U0001F600"), QStringLiteral("\u2026"), QStringLiteral("a")};
        QRandomGenerator rng(1234);
        for (int round = 0; round < 300; ++round) {
            QString text;
            const int n = int(rng.bounded(1, 200));
            for (int i = 0; i < n; ++i)
                text += atoms[int(rng.bounded(int(atoms.size())))];
            for (SplitMode mode : {SplitMode::Sentences, SplitMode::Paragraphs}) {
                const int limit = int(rng.bounded(40, 120));
                checkPartition(text, splitIntoSegments(text, mode, limit), limit);
                if (QTest::currentTestFailed()) {
                    qWarning() << "text:" << text << "limit" << limit;
                    return;
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstSegmenter)
#include "tst_segmenter.moc"
