// The pronunciation dictionary: whole-word matching (Latin and CJK), case, longest-first without
// re-replacement, editing as a table, and its JSON file (round trip, corrupt files).
#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "qt/pronunciation_dictionary.h"

using namespace reef::ui;

namespace {

QByteArray slurp(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void spit(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

}  // namespace

class TstPronunciationDictionary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wholeWordsOnly() {
        PronunciationDictionary d;
        d.addEntry(QStringLiteral("Reef"), QStringLiteral("Rief"));
        QCOMPARE(d.apply(QStringLiteral("Reef, reef! REEF.")), QStringLiteral("Rief, Rief! Rief."));
        // Letters, digits, '_' and combining marks continue a word; punctuation and '-' do not.
        QCOMPARE(d.apply(QStringLiteral("Reefs reef2 reef_x xreef")), QStringLiteral("Reefs reef2 reef_x xreef"));
        QCOMPARE(d.apply(QStringLiteral("coral-reef (reef) \"Reef\"")), QStringLiteral("coral-Rief (Rief) \"Rief\""));
        QCOMPARE(d.apply(QStringLiteral("Reef\u0301")), QStringLiteral("Reef\u0301"));
        QCOMPARE(d.apply(QStringLiteral("Reef")), QStringLiteral("Rief"));   // text edges are boundaries
        QCOMPARE(d.apply(QStringLiteral("Éreef reefé")), QStringLiteral("Éreef reefé"));   // non-ASCII letters count
    }

    void punctuationAtTheWordsEdges() {
        PronunciationDictionary d;
        d.addEntry(QStringLiteral("C++"), QStringLiteral("C plus plus"));
        d.addEntry(QStringLiteral(".NET"), QStringLiteral("dot net"));
        QCOMPARE(d.apply(QStringLiteral("C++ and .NET, not C++x.")), QStringLiteral("C plus plus and dot net, not C++x."));
    }

    void caseSensitivity() {
        PronunciationDictionary d;
        QSignalSpy changed(&d, &PronunciationDictionary::changed);
        d.addEntry(QStringLiteral("SQL"), QStringLiteral("sequel"));
        QCOMPARE(d.apply(QStringLiteral("sql Sql SQL")), QStringLiteral("sequel sequel sequel"));
        d.setCaseSensitive(true);
        QCOMPARE(d.apply(QStringLiteral("sql Sql SQL")), QStringLiteral("sql Sql sequel"));
        QCOMPARE(changed.count(), 2);
        // Adding the same word again (as matching sees it) updates it instead of adding a row.
        d.setCaseSensitive(false);
        QCOMPARE(d.addEntry(QStringLiteral("sql"), QStringLiteral("S Q L")), 0);
        QCOMPARE(d.rowCount(), 1);
        QCOMPARE(d.apply(QStringLiteral("SQL")), QStringLiteral("S Q L"));
    }

    void cjkNeedsNoSpaces() {
        PronunciationDictionary d;
        d.addEntry(QStringLiteral("東京"), QStringLiteral("とうきょう"));
        d.addEntry(QStringLiteral("AI"), QStringLiteral("エーアイ"));
        d.addEntry(QStringLiteral("서울"), QStringLiteral("Seoul"));
        d.addEntry(QStringLiteral("𠀋"), QStringLiteral("X"));   // outside the BMP (a surrogate pair)
        QCOMPARE(d.apply(QStringLiteral("東京都に行く")), QStringLiteral("とうきょう都に行く"));
        QCOMPARE(d.apply(QStringLiteral("서울에서")), QStringLiteral("Seoul에서"));
        // A Latin word in CJK text: CJK characters are letters, so "AI" inside "AIは" is not whole...
        QCOMPARE(d.apply(QStringLiteral("AIは便利")), QStringLiteral("AIは便利"));
        // ...but with a space or punctuation around it, it is.
        QCOMPARE(d.apply(QStringLiteral("これは AI です。「AI」")), QStringLiteral("これは エーアイ です。「エーアイ」"));
        QCOMPARE(d.apply(QStringLiteral("a𠀋b")), QStringLiteral("aXb"));
        // A CJK word still needs a boundary on a non-CJK side.
        d.addEntry(QStringLiteral("漢A"), QStringLiteral("kanA"));
        QCOMPARE(d.apply(QStringLiteral("日漢A 漢AB")), QStringLiteral("日kanA 漢AB"));
    }

    void longestFirstAndNoReReplacement() {
        PronunciationDictionary d;
        d.addEntry(QStringLiteral("New"), QStringLiteral("Noo"));
        d.addEntry(QStringLiteral("New York"), QStringLiteral("Nu Yawk"));
        d.addEntry(QStringLiteral("York"), QStringLiteral("New"));   // its replacement is itself a word
        d.addEntry(QStringLiteral("Noo"), QStringLiteral("never"));
        QCOMPARE(d.apply(QStringLiteral("New York, New, York")), QStringLiteral("Nu Yawk, Noo, New"));
    }

    void editingAsATable() {
        PronunciationDictionary d;
        QAbstractItemModelTester tester(&d, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&d, &PronunciationDictionary::changed);
        QCOMPARE(d.addEntry(QStringLiteral("  "), QStringLiteral("x")), -1);
        QCOMPARE(d.addEntry(QStringLiteral(" Reef "), QStringLiteral("Rief")), 0);
        QCOMPARE(d.addEntry(QStringLiteral("Qt"), QStringLiteral("cute")), 1);
        QCOMPARE(d.data(d.index(0, PronunciationDictionary::Word)).toString(), QStringLiteral("Reef"));
        QVERIFY(d.flags(d.index(1, PronunciationDictionary::Replacement)) & Qt::ItemIsEditable);
        QVERIFY(d.setData(d.index(1, PronunciationDictionary::Replacement), QStringLiteral("kyoot")));
        QVERIFY(!d.setData(d.index(1, PronunciationDictionary::Word), QStringLiteral("")));
        QVERIFY(!d.setData(d.index(1, PronunciationDictionary::Word), QStringLiteral("REEF")));   // a duplicate
        QVERIFY(d.setData(d.index(0, PronunciationDictionary::Word), QStringLiteral("Coral")));
        QCOMPARE(d.apply(QStringLiteral("Coral Qt Reef")), QStringLiteral("Rief kyoot Reef"));
        d.removeEntry(0);
        d.removeEntry(5);   // out of range: nothing
        QCOMPARE(d.rowCount(), 1);
        QCOMPARE(d.apply(QStringLiteral("Coral Qt")), QStringLiteral("Coral kyoot"));
        QCOMPARE(changed.count(), 5);   // two adds, two edits, one removal
    }

    void saveLoadRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dict.json"));
        PronunciationDictionary a;
        a.addEntry(QStringLiteral("Reef"), QStringLiteral("Rief"));
        a.addEntry(QStringLiteral("東京"), QStringLiteral("とうきょう"));
        a.addEntry(QStringLiteral("um"), QString());
        a.setCaseSensitive(true);
        QString error;
        QVERIFY2(a.save(path, &error), qPrintable(error));
        PronunciationDictionary b;
        QSignalSpy reset(&b, &QAbstractItemModel::modelReset);
        QVERIFY2(b.load(path, &error), qPrintable(error));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(b.rowCount(), 3);
        QVERIFY(b.caseSensitive());
        for (int r = 0; r < 3; ++r) {
            QCOMPARE(b.word(r), a.word(r));
            QCOMPARE(b.replacement(r), a.replacement(r));
        }
        const QString text = QStringLiteral("Reef reef, um, 東京で");
        QCOMPARE(b.apply(text), a.apply(text));
        QCOMPARE(b.apply(text), QStringLiteral("Rief reef, , とうきょうで"));
        QVERIFY(!a.save(dir.filePath(QStringLiteral("missing/dict.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing/dict.json")), qPrintable(error));
    }

    void corruptFilesChangeNothing_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");   // in the error text
        QTest::newRow("not json") << QByteArray("{\"format\": \"reef-pronunciation-dictionary\", ") << QStringLiteral("not valid JSON");
        QTest::newRow("other file") << QByteArray("{\"takes\": []}") << QStringLiteral("not a Reef pronunciation dictionary");
        QTest::newRow("newer") << QByteArray(R"({"format": "reef-pronunciation-dictionary", "version": 9, "entries": []})")
                               << QStringLiteral("newer Reef");
        QTest::newRow("bad entry")
            << QByteArray(R"({"format": "reef-pronunciation-dictionary", "version": 1, "entries": [{"word": "a", "replacement": "b"}, {"word": 3}]})")
            << QStringLiteral("entry 2");
        QTest::newRow("duplicate")
            << QByteArray(R"({"format": "reef-pronunciation-dictionary", "version": 1, "entries": [{"word": "a", "replacement": "b"}, {"word": "A", "replacement": "c"}]})")
            << QStringLiteral("already listed");
    }

    void corruptFilesChangeNothing() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dict.json"));
        spit(path, content);
        PronunciationDictionary d;
        d.addEntry(QStringLiteral("keep"), QStringLiteral("kept"));
        QSignalSpy changed(&d, &PronunciationDictionary::changed);
        QString error;
        QVERIFY(!d.load(path, &error));
        QVERIFY2(error.contains(path) && error.contains(expected), qPrintable(error));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(d.rowCount(), 1);
        QCOMPARE(d.apply(QStringLiteral("keep")), QStringLiteral("kept"));
        QCOMPARE(slurp(path), content);   // the file is left as it was
        QVERIFY(!d.load(dir.filePath(QStringLiteral("none.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("none.json")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TstPronunciationDictionary)
#include "tst_pronunciation_dictionary.moc"
