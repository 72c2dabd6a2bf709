// Opening text files for synthesis (ui/qt/text_import): .txt as it is, Markdown flattened to what a
// voice should read, and every bad file (missing, binary, not UTF-8, too big, empty) refused with
// its name and the reason.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "qt/text_import.h"

using namespace reef::ui;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

}  // namespace

class TstTextImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainTextKeepsItsWordsAndLines() {
        QTemporaryDir dir;
        // A BOM and Windows line ends, as Notepad writes them; Chinese and Japanese survive as UTF-8.
        const QString path = writeFile(dir, QStringLiteral("a.txt"),
                                       "\xEF\xBB\xBF" "First line.\r\n\r\n第二段。日本語のテキスト。\r\n");
        QString error;
        const auto text = readTextFile(path, &error);
        QVERIFY2(text.has_value(), qPrintable(error));
        QCOMPARE(*text, QStringLiteral("First line.\n\n第二段。日本語のテキスト。\n"));
    }

    void markdownIsFlattenedToSpeakableText() {
        const QString md = QStringLiteral(
            "# Chapter *one* #\n"
            "\n"
            "Some **bold** and _italic_ words, a [link](https://example.com/x) and `code`.\n"
            "A second line of the same paragraph with my_snake_case name.\n"
            "\n"
            "> A quoted line.\n"
            "\n"
            "- first item\n"
            "2. second item\n"
            "\n"
            "```\n"
            "int main() {}\n"
            "```\n"
            "\n"
            "***\n"
            "![a picture](pic.png)Caption <br/> text.\n"
            "\n"
            "[ref]: https://example.com\n");
        QCOMPARE(markdownToPlainText(md),
                 QStringLiteral("Chapter one\n\n"
                                "Some bold and italic words, a link and code. A second line of the same paragraph "
                                "with my_snake_case name.\n\n"
                                "A quoted line.\n\n"
                                "first item\n\n"
                                "second item\n\n"
                                "Caption  text."));
    }

    void markdownFileIsFlattenedOnOpen() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("story.MD"), "## Title\n\nText with **stress**.\n");
        QString error;
        const auto text = readTextFile(path, &error);
        QVERIFY2(text.has_value(), qPrintable(error));
        QCOMPARE(*text, QStringLiteral("Title\n\nText with stress."));
        QVERIFY(isTextFileName(path));
        QVERIFY(isTextFileName(QStringLiteral("/x/notes.txt")));
        QVERIFY(!isTextFileName(QStringLiteral("/x/clip.wav")));
    }

    void badFilesAreRefusedWithTheirNameAndReason_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("binary") << QByteArray("RIFF\0\0\0\0WAVEfmt ", 16) << QStringLiteral("binary data");
        QTest::newRow("latin-1") << QByteArray("caf\xE9 cr\xE8me") << QStringLiteral("not UTF-8");
        QTest::newRow("empty") << QByteArray(" \n\n\t") << QStringLiteral("no text");
    }
    void badFilesAreRefusedWithTheirNameAndReason() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("bad.txt"), bytes);
        QString error;
        QVERIFY(!readTextFile(path, &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("bad.txt")) && error.contains(reason), qPrintable(error));
    }

    void missingAndHugeFilesAreRefused() {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!readTextFile(dir.filePath(QStringLiteral("none.txt")), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("none.txt")) && error.contains(QStringLiteral("does not exist")),
                 qPrintable(error));
        QVERIFY(!readTextFile(dir.path(), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        const QString huge = dir.filePath(QStringLiteral("huge.txt"));
        {
            QFile f(huge);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(kMaxTextFileBytes + 1));   // sparse: no need to write 8 MiB
        }
        QVERIFY(!readTextFile(huge, &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("huge.txt")) && error.contains(QStringLiteral("up to 8 MB")),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TstTextImport)
#include "tst_text_import.moc"
