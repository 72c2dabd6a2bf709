// EPUB import (issue #48): a 3-chapter book made here with libzip becomes a project whose chapters,
// headings, speakers and pause markup survive; hostile books (a zip bomb, path traversal, a 1 GiB
// entry, broken XHTML, a missing container) are refused with the file and the reason.
#include <QTemporaryDir>
#include <QtTest>
#include <zip.h>

#include <cstring>

#include "qt/epub_import.h"
#include "qt/pause_markup.h"
#include "qt/project.h"
#include "epub_writer.h"

using namespace reef::ui;
using reef_test::Entry;
using reef_test::writeZip;

namespace {

QByteArray container(const char* opf = "OEBPS/content.opf") {
    return QByteArray(R"(<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">)"
                      R"(<rootfiles><rootfile full-path=")") +
           opf + R"(" media-type="application/oebps-package+xml"/></rootfiles></container>)";
}

QByteArray opf(const QStringList& hrefs) {
    QByteArray items, refs;
    for (int k = 0; k < hrefs.size(); ++k) {
        items += QStringLiteral(R"(<item id="c%1" href="%2" media-type="application/xhtml+xml"/>)").arg(k).arg(hrefs[k]).toUtf8();
        refs += QStringLiteral(R"(<itemref idref="c%1"/>)").arg(k).toUtf8();
    }
    return R"(<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">)"
           R"(<dc:title>Reef Tales</dc:title><dc:creator>A. Writer</dc:creator></metadata><manifest>)" +
           items + R"(<item id="img" href="cover.png" media-type="image/png"/></manifest><spine>)" + refs +
           "</spine></package>";
}

QByteArray xhtml(const QByteArray& body) {
    return R"(<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>)"
           R"(<style>p { color: red }</style></head><body>)" +
           body + "</body></html>";
}

QList<Entry> goodBook() {
    return {
        {"mimetype", "application/epub+zip"},
        {"META-INF/container.xml", container()},
        {"OEBPS/content.opf", opf({QStringLiteral("text/one.xhtml"), QStringLiteral("text/two%20b.xhtml"),
                                   QStringLiteral("text/three.xhtml")})},
        {"OEBPS/text/one.xhtml",
         xhtml("<h1>Chapter <em>One</em></h1><p>&lt;|speaker:0|&gt;The tide came in&nbsp;slowly. [pause 1.5s]</p>"
               "<p>&lt;|speaker:1|&gt;Then the reef <b>woke</b> up&mdash;and sang.</p><script>alert(1)</script>")},
        {"OEBPS/text/two b.xhtml", xhtml("<h2>Two</h2><div><p>Morning light.<br/>A new line.</p></div>")},
        {"OEBPS/text/three.xhtml", xhtml("<section><h1>Three</h1><ul><li>First item</li><li>Second item</li></ul></section>")},
    };
}

}  // namespace

class TestEpubImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bookBecomesChaptersAndSegments() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("book.epub"));
        QVERIFY(writeZip(path, goodBook()));
        EpubBook book;
        QString error;
        QVERIFY2(readEpub(path, &book, &error), qPrintable(error));
        QCOMPARE(book.title, QStringLiteral("Reef Tales"));
        QCOMPARE(book.author, QStringLiteral("A. Writer"));
        QCOMPARE(book.chapters.size(), 3);
        QCOMPARE(book.chapters[0].title, QStringLiteral("Chapter One"));
        QCOMPARE(book.chapters[1].title, QStringLiteral("Two"));
        QCOMPARE(book.chapters[0].text,
                 QStringLiteral("Chapter One\n\n<|speaker:0|>The tide came in slowly. [pause 1.5s]\n\n"
                                "<|speaker:1|>Then the reef woke up\u2014and sang."));
        QVERIFY(book.chapters[1].text.contains(QStringLiteral("Morning light. A new line.")));
        QCOMPARE(book.chapters[2].text, QStringLiteral("Three\n\nFirst item\n\nSecond item"));

        ProjectModel m;
        m.newProjectFromChapters(book.title, book.chapters, SplitMode::Sentences);
        QStringList chapters;
        for (int r = 0; r < m.segmentCount(); ++r)
            if (!m.segment(r).chapter.isEmpty())
                chapters << m.segment(r).chapter;
        QCOMPARE(chapters, (QStringList{QStringLiteral("Chapter One"), QStringLiteral("Two"), QStringLiteral("Three")}));
        QCOMPARE(m.segment(0).text, QStringLiteral("Chapter One"));   // the heading is read
        QVERIFY(m.segment(0).paragraphEnd);
        QCOMPARE(m.speakers(), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
        QCOMPARE(trailingPause(m.segment(1).text).value_or(0), 1.5);
    }

    void hostileBooksAreRefused_data() {
        QTest::addColumn<QList<Entry>>("entries");
        QTest::addColumn<QString>("reason");
        QList<Entry> traversal = goodBook();
        traversal << Entry{"../../evil.sh", "rm -rf"};
        QTest::newRow("traversal entry") << traversal << QStringLiteral("path traversal");
        QList<Entry> traversalHref = goodBook();
        traversalHref[2].data = opf({QStringLiteral("../../etc/passwd")});
        QTest::newRow("traversal href") << traversalHref << QStringLiteral("path traversal");
        QList<Entry> bomb = goodBook();
        bomb[3] = {"OEBPS/text/one.xhtml", {}, 1ll << 30};   // 1 GiB of zeros, ~1 MiB compressed
        QTest::newRow("zip bomb / 1 GiB entry") << bomb << QStringLiteral("zip bomb");
        QList<Entry> big = goodBook();
        QByteArray text(20 << 20, 'a');   // honest text (random letters, ~1.7:1), but over the bound
        quint32 x = 1;
        for (char& c : text)
            c = char('a' + (x = x * 1664525u + 1013904223u) % 26);
        big[3] = {"OEBPS/text/one.xhtml", text};
        QTest::newRow("20 MiB entry") << big << QStringLiteral("larger than 16 MiB");
        QList<Entry> broken = goodBook();
        broken[4].data = xhtml("<p>unclosed <b>bold</p>");
        QTest::newRow("broken xhtml") << broken << QStringLiteral("not well-formed");
        QList<Entry> noContainer = goodBook();
        noContainer.removeAt(1);
        QTest::newRow("no container") << noContainer << QStringLiteral("META-INF/container.xml");
        QList<Entry> missing = goodBook();
        missing.removeAt(5);
        QTest::newRow("missing chapter") << missing << QStringLiteral("not in the archive");
    }

    void hostileBooksAreRefused() {
        QFETCH(QList<Entry>, entries);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.epub"));
        QVERIFY(writeZip(path, entries));
        EpubBook book;
        book.title = QStringLiteral("untouched");
        QString error;
        QVERIFY(!readEpub(path, &book, &error));
        QVERIFY2(error.startsWith(path) && error.contains(reason), qPrintable(error));
        QCOMPARE(book.title, QStringLiteral("untouched"));
        // Nothing was written beside it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 1);
    }

    void notAZip() {
        EpubBook book;
        QString error;
        QVERIFY(!readEpubBytes(QByteArray("PK\x03\x04 this is not really a zip"), QStringLiteral("x.epub"), &book, &error));
        QVERIFY2(error.contains(QStringLiteral("not a zip")), qPrintable(error));
        QVERIFY(!readEpubBytes({}, QStringLiteral("empty.epub"), &book, &error));
    }
};

QTEST_GUILESS_MAIN(TestEpubImport)
#include "tst_epub_import.moc"
