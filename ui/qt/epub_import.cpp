#include "qt/epub_import.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QUrl>
#include <QXmlStreamReader>
#include <zip.h>

#include <memory>

namespace reef::ui {
namespace {

// A translation context for lupdate without a QObject.
struct EpubImport {
    Q_DECLARE_TR_FUNCTIONS(EpubImport)
};

struct ZipCloser {
    void operator()(zip_t* z) const { zip_discard(z); }
};
struct FileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};

// The zip, with the bounds: entries read by name, each at most kMaxEpubEntryBytes and all of them
// together at most kMaxEpubTotalBytes, counted on the bytes really inflated (declared sizes lie).
class Archive {
public:
    bool open(const QByteArray& bytes, QString* why) {
        zip_error_t err;
        zip_error_init(&err);
        zip_source_t* src = zip_source_buffer_create(bytes.constData(), zip_uint64_t(bytes.size()), 0, &err);
        if (!src) {
            *why = QString::fromUtf8(zip_error_strerror(&err));
            zip_error_fini(&err);
            return false;
        }
        m_zip.reset(zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err));
        if (!m_zip) {
            zip_source_free(src);
            *why = EpubImport::tr("not a zip archive (%1)").arg(QString::fromUtf8(zip_error_strerror(&err)));
            zip_error_fini(&err);
            return false;
        }
        zip_error_fini(&err);
        const zip_int64_t n = zip_get_num_entries(m_zip.get(), 0);
        if (n > kMaxEpubEntries) {
            *why = EpubImport::tr("%1 entries in the archive; at most %2 are read").arg(n).arg(kMaxEpubEntries);
            return false;
        }
        for (zip_int64_t i = 0; i < n; ++i) {
            const char* raw = zip_get_name(m_zip.get(), zip_uint64_t(i), ZIP_FL_ENC_GUESS);
            const QString name = raw ? QString::fromUtf8(raw) : QString();
            // Entry names are paths inside the book: anything that climbs out, is absolute or
            // uses backslashes is a crafted archive (zip-slip), not an EPUB.
            if (name.startsWith(u'/') || name.contains(u'\\') || name.contains(QStringLiteral("\0")) ||
                name.split(u'/').contains(QStringLiteral(".."))) {
                *why = EpubImport::tr("the entry \"%1\" points outside the book (path traversal)").arg(name.left(200));
                return false;
            }
            zip_stat_t st;
            if (zip_stat_index(m_zip.get(), zip_uint64_t(i), 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) &&
                (st.valid & ZIP_STAT_COMP_SIZE) && st.size > zip_uint64_t(kMaxEpubEntryBytes) && !name.endsWith(u'/')) {
                // Large entries are allowed (images, audio) as long as they are not read; a large
                // entry squeezed over 100:1 (text manages ~5:1, media ~1:1) is a zip bomb.
                if (st.comp_size == 0 || st.size / std::max<zip_uint64_t>(st.comp_size, 1) > 100) {
                    *why = EpubImport::tr("the entry \"%1\" inflates to %2 MiB from %3 KiB: a zip bomb")
                               .arg(name.left(200)).arg(st.size >> 20).arg(st.comp_size >> 10);
                    return false;
                }
            }
            m_index.insert(name, i);
        }
        return true;
    }

    bool has(const QString& name) const { return m_index.contains(name); }

    // The entry's bytes, or false with *why (missing, too large, broken).
    bool read(const QString& name, QByteArray* out, QString* why) {
        const auto it = m_index.constFind(name);
        if (it == m_index.constEnd()) {
            *why = EpubImport::tr("the book names \"%1\", which is not in the archive").arg(name.left(200));
            return false;
        }
        std::unique_ptr<zip_file_t, FileCloser> f(zip_fopen_index(m_zip.get(), zip_uint64_t(*it), 0));
        if (!f) {
            *why = EpubImport::tr("cannot open \"%1\": %2").arg(name, QString::fromUtf8(zip_strerror(m_zip.get())));
            return false;
        }
        out->clear();
        char buf[1 << 16];
        for (;;) {
            const zip_int64_t got = zip_fread(f.get(), buf, sizeof buf);
            if (got < 0) {
                *why = EpubImport::tr("\"%1\" is damaged: %2").arg(name, QString::fromUtf8(zip_file_strerror(f.get())));
                return false;
            }
            if (got == 0)
                break;
            out->append(buf, qsizetype(got));
            m_total += got;
            if (out->size() > kMaxEpubEntryBytes) {
                *why = EpubImport::tr("\"%1\" is larger than %2 MiB uncompressed").arg(name).arg(kMaxEpubEntryBytes >> 20);
                return false;
            }
            if (m_total > kMaxEpubTotalBytes) {
                *why = EpubImport::tr("the book's text is larger than %1 MiB uncompressed").arg(kMaxEpubTotalBytes >> 20);
                return false;
            }
        }
        return true;
    }

private:
    std::unique_ptr<zip_t, ZipCloser> m_zip;
    QHash<QString, zip_int64_t> m_index;
    qint64 m_total = 0;
};

// HTML's named entities that EPUB XHTML uses without declaring them (QXmlStreamReader knows only
// XML's five): rewritten as character references before parsing.
QByteArray withHtmlEntities(QByteArray x) {
    static const std::pair<const char*, const char*> entities[] = {
        {"&nbsp;", "&#160;"},   {"&mdash;", "&#8212;"}, {"&ndash;", "&#8211;"}, {"&hellip;", "&#8230;"},
        {"&lsquo;", "&#8216;"}, {"&rsquo;", "&#8217;"}, {"&ldquo;", "&#8220;"}, {"&rdquo;", "&#8221;"},
        {"&copy;", "&#169;"},   {"&eacute;", "&#233;"}, {"&egrave;", "&#232;"}, {"&agrave;", "&#224;"},
        {"&uuml;", "&#252;"},   {"&ouml;", "&#246;"},   {"&auml;", "&#228;"},   {"&szlig;", "&#223;"},
        {"&laquo;", "&#171;"},  {"&raquo;", "&#187;"},  {"&shy;", ""},          {"&thinsp;", "&#8201;"},
    };
    for (const auto& [name, ref] : entities)
        x.replace(name, ref);
    return x;
}

bool isBlock(QStringView tag) {
    static const QStringList blocks = {
        QStringLiteral("p"),  QStringLiteral("div"), QStringLiteral("li"), QStringLiteral("blockquote"),
        QStringLiteral("h1"), QStringLiteral("h2"),  QStringLiteral("h3"), QStringLiteral("h4"),
        QStringLiteral("h5"), QStringLiteral("h6"),  QStringLiteral("tr"), QStringLiteral("section"),
        QStringLiteral("dd"), QStringLiteral("dt"),  QStringLiteral("pre"), QStringLiteral("figcaption"),
        QStringLiteral("article"), QStringLiteral("aside"), QStringLiteral("table"), QStringLiteral("ul"),
        QStringLiteral("ol"), QStringLiteral("hr"),
    };
    return blocks.contains(tag.toString());
}
bool isHeading(QStringView tag) {
    return tag.size() == 2 && tag[0] == u'h' && tag[1] >= u'1' && tag[1] <= u'6';
}

// Resolves an href inside the OPF's folder to an archive entry name (percent-decoded, no fragment).
QString resolve(const QString& baseDir, const QString& href) {
    QString h = href.section(u'#', 0, 0);
    h = QUrl::fromPercentEncoding(h.toUtf8());
    const QString joined = baseDir.isEmpty() ? h : baseDir + u'/' + h;
    return QDir::cleanPath(joined);
}

}  // namespace

bool xhtmlToParagraphs(const QByteArray& xhtml, QStringList* paragraphs, QString* firstHeading, QString* error) {
    QXmlStreamReader xml(withHtmlEntities(xhtml));
    QString current;
    int skip = 0;            // inside script/style/head
    int heading = 0;         // inside h1..h6
    QString headingText;
    auto flush = [&] {
        const QString p = current.simplified();
        if (!p.isEmpty())
            *paragraphs << p;
        current.clear();
    };
    while (!xml.atEnd()) {
        switch (xml.readNext()) {
        case QXmlStreamReader::StartElement: {
            const QStringView tag = xml.name();
            if (tag == u"script" || tag == u"style" || tag == u"head")
                ++skip;
            else if (tag == u"br")
                current += u'\n';
            else if (isBlock(tag))
                flush();
            if (isHeading(tag))
                ++heading;
            break;
        }
        case QXmlStreamReader::EndElement: {
            const QStringView tag = xml.name();
            if (tag == u"script" || tag == u"style" || tag == u"head")
                --skip;
            else if (isBlock(tag))
                flush();
            if (isHeading(tag) && --heading == 0 && firstHeading->isEmpty())
                *firstHeading = headingText.simplified();
            break;
        }
        case QXmlStreamReader::Characters:
            if (skip == 0) {
                current += xml.text();
                if (heading > 0)
                    headingText += xml.text();
            }
            break;
        default: break;
        }
    }
    if (xml.hasError()) {
        *error = EpubImport::tr("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
        return false;
    }
    flush();
    return true;
}

bool readEpubBytes(const QByteArray& bytes, const QString& name, EpubBook* out, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(name, why);
        return false;
    };
    Archive zip;
    QString why;
    if (!zip.open(bytes, &why))
        return fail(why);
    // The container names the package document (OPF).
    QByteArray container;
    if (!zip.has(QStringLiteral("META-INF/container.xml")))
        return fail(EpubImport::tr("not an EPUB (no META-INF/container.xml)"));
    if (!zip.read(QStringLiteral("META-INF/container.xml"), &container, &why))
        return fail(why);
    QString opfPath;
    for (QXmlStreamReader xml(container); !xml.atEnd();)
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"rootfile") {
            opfPath = xml.attributes().value(QStringLiteral("full-path")).toString();
            break;
        }
    if (opfPath.isEmpty())
        return fail(EpubImport::tr("META-INF/container.xml names no package document"));
    opfPath = QDir::cleanPath(opfPath);
    QByteArray opf;
    if (!zip.read(opfPath, &opf, &why))
        return fail(why);
    const QString baseDir = opfPath.contains(u'/') ? opfPath.section(u'/', 0, -2) : QString();

    // Package: metadata, manifest (id -> href), spine (reading order).
    EpubBook book;
    QHash<QString, QString> manifest, mediaTypes;
    QStringList spine;
    QXmlStreamReader xml(opf);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QStringView tag = xml.name();
        if (tag == u"title" && book.title.isEmpty())
            book.title = xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        else if (tag == u"creator" && book.author.isEmpty())
            book.author = xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        else if (tag == u"item") {
            const QString id = xml.attributes().value(QStringLiteral("id")).toString();
            manifest.insert(id, xml.attributes().value(QStringLiteral("href")).toString());
            mediaTypes.insert(id, xml.attributes().value(QStringLiteral("media-type")).toString());
        } else if (tag == u"itemref" && xml.attributes().value(QStringLiteral("linear")) != u"no") {
            spine << xml.attributes().value(QStringLiteral("idref")).toString();
        }
    }
    if (xml.hasError())
        return fail(EpubImport::tr("%1: line %2: %3").arg(opfPath).arg(xml.lineNumber()).arg(xml.errorString()));
    if (spine.isEmpty())
        return fail(EpubImport::tr("the package document %1 has an empty spine: no text to read").arg(opfPath));

    for (const QString& idref : spine) {
        if (!manifest.contains(idref))
            return fail(EpubImport::tr("the spine names \"%1\", which the manifest lacks").arg(idref.left(200)));
        const QString type = mediaTypes.value(idref);
        if (!type.contains(QStringLiteral("html")))
            continue;   // an image or SVG page in the reading order: nothing to say
        const QString entry = resolve(baseDir, manifest.value(idref));
        if (entry.startsWith(QStringLiteral("..")) || entry.startsWith(u'/'))
            return fail(EpubImport::tr("the manifest item \"%1\" points outside the book (path traversal)").arg(idref));
        QByteArray doc;
        if (!zip.read(entry, &doc, &why))
            return fail(why);
        QStringList paragraphs;
        QString heading, xmlWhy;
        if (!xhtmlToParagraphs(doc, &paragraphs, &heading, &xmlWhy))
            return fail(EpubImport::tr("%1 is not well-formed XHTML (%2)").arg(entry, xmlWhy));
        if (paragraphs.isEmpty())
            continue;
        EpubChapter c;
        c.title = heading.isEmpty() ? EpubImport::tr("Chapter %1").arg(book.chapters.size() + 1) : heading;
        c.text = paragraphs.join(QStringLiteral("\n\n"));
        book.chapters << c;
    }
    if (book.chapters.isEmpty())
        return fail(EpubImport::tr("the book has no text in its reading order"));
    *out = std::move(book);
    return true;
}

bool readEpub(const QString& path, EpubBook* out, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    if (f.size() > kMaxEpubFileBytes) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, EpubImport::tr("the file is %1 MiB; an EPUB is read up to %2 MiB")
                                                            .arg(f.size() >> 20).arg(kMaxEpubFileBytes >> 20));
        return false;
    }
    return readEpubBytes(f.readAll(), path, out, error);
}

bool isEpubFileName(const QString& path) { return QFileInfo(path).suffix().compare(QLatin1String("epub"), Qt::CaseInsensitive) == 0; }

}  // namespace reef::ui
