// EPUB import (ui/qt/epub_import.cpp): the zip through libzip with its bounds, container.xml, the
// package document, and each spine document through the XHTML reader. The first byte picks the
// mode: even, the rest is a whole .epub; odd, one XHTML document alone. A refusal is a false
// return with a message; a crash, a sanitizer report, a hang or a runaway allocation is a finding.
#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "qt/epub_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const QByteArray bytes(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    QString error;
    if (data[0] % 2 == 0) {
        reef::ui::EpubBook book;
        const bool ok = reef::ui::readEpubBytes(bytes, QStringLiteral("fuzz.epub"), &book, &error);
        if (!ok && error.isEmpty()) {
            std::fprintf(stderr, "\n*** fuzz finding: a refused EPUB without a reason\n");
            std::abort();
        }
        if (ok && book.chapters.isEmpty()) {
            std::fprintf(stderr, "\n*** fuzz finding: an accepted EPUB without chapters\n");
            std::abort();
        }
    } else {
        QStringList paragraphs;
        QString heading;
        (void)reef::ui::xhtmlToParagraphs(bytes, &paragraphs, &heading, &error);
    }
    return 0;
}
