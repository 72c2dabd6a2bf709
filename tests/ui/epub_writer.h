// Test helper: zip archives (EPUBs, hostile ones) written with libzip, an entry either from bytes
// or as a stream of zero bytes made on demand (a 1 GiB entry never sits in memory).
#pragma once
#include <QByteArray>
#include <QList>
#include <QString>
#include <zip.h>

#include <algorithm>
#include <cstring>

namespace reef_test {

struct Entry {
    QByteArray name, data;
    qint64 zeros = 0;   // > 0: this many zero bytes streamed in instead of data
};

// A zip source of `n` zero bytes made on demand, so a 1 GiB entry never sits in memory.
inline zip_int64_t zerosSource(void* state, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    auto* left = static_cast<qint64*>(state);
    switch (cmd) {
    case ZIP_SOURCE_OPEN: return 0;
    case ZIP_SOURCE_READ: {
        const zip_uint64_t n = std::min<zip_uint64_t>(len, zip_uint64_t(left[0]));
        std::memset(data, 0, n);
        left[0] -= qint64(n);
        return zip_int64_t(n);
    }
    case ZIP_SOURCE_CLOSE: return 0;
    case ZIP_SOURCE_STAT: {
        auto* st = static_cast<zip_stat_t*>(data);
        zip_stat_init(st);
        st->size = zip_uint64_t(left[1]);
        st->valid |= ZIP_STAT_SIZE;
        return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR: return 0;
    case ZIP_SOURCE_FREE: delete[] left; return 0;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                                              ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    default: return -1;
    }
}

inline bool writeZip(const QString& path, const QList<Entry>& entries) {
    int err = 0;
    zip_t* z = zip_open(path.toUtf8().constData(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z)
        return false;
    for (const Entry& e : entries) {
        zip_source_t* src = nullptr;
        if (e.zeros > 0) {
            auto* state = new qint64[2]{e.zeros, e.zeros};
            src = zip_source_function(z, zerosSource, state);
        } else {
            src = zip_source_buffer(z, e.data.constData(), zip_uint64_t(e.data.size()), 0);
        }
        const zip_int64_t i = zip_file_add(z, e.name.constData(), src, ZIP_FL_ENC_UTF_8);
        if (i < 0)
            return false;
        if (e.name == "mimetype")
            zip_set_file_compression(z, zip_uint64_t(i), ZIP_CM_STORE, 0);
        else
            zip_set_file_compression(z, zip_uint64_t(i), ZIP_CM_DEFLATE, 1);
    }
    return zip_close(z) == 0;
}

// A small EPUB 3: container, package (title, one XHTML item per chapter, in spine order) and the
// chapters' bodies wrapped in XHTML.
inline bool writeEpub(const QString& path, const QString& title, const QList<QByteArray>& bodies) {
    QByteArray items, refs;
    QList<Entry> entries{{"mimetype", "application/epub+zip"},
                         {"META-INF/container.xml",
                          R"(<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">)"
                          R"(<rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>)"}};
    for (int k = 0; k < bodies.size(); ++k) {
        items += QStringLiteral(R"(<item id="c%1" href="c%1.xhtml" media-type="application/xhtml+xml"/>)").arg(k).toUtf8();
        refs += QStringLiteral(R"(<itemref idref="c%1"/>)").arg(k).toUtf8();
        entries.append({QStringLiteral("OPS/c%1.xhtml").arg(k).toUtf8(),
                        R"(<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body>)" +
                            bodies[k] + "</body></html>"});
    }
    entries.append({"OPS/book.opf",
                    R"(<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>)" +
                        title.toUtf8() + "</dc:title></metadata><manifest>" + items + "</manifest><spine>" + refs +
                        "</spine></package>"});
    return writeZip(path, entries);
}

}  // namespace reef_test
