// EPUB import for audiobook projects: the book's spine becomes chapters (each with its heading),
// their XHTML becomes paragraphs of plain text. Read through libzip from memory, with bounds on
// what a hostile file can make it do: a zip bomb (huge declared or actual sizes, extreme ratios),
// path traversal in entry names, too many entries, and broken XML are refused with the file and
// the reason. Nothing is written anywhere.
#pragma once
#include <QByteArray>
#include <QList>
#include <QString>

namespace reef::ui {

inline constexpr qint64 kMaxEpubFileBytes = 256ll << 20;    // the .epub itself
inline constexpr qint64 kMaxEpubEntryBytes = 16ll << 20;    // one uncompressed entry we read
inline constexpr qint64 kMaxEpubTotalBytes = 128ll << 20;   // everything we read, uncompressed
inline constexpr int kMaxEpubEntries = 20000;

struct EpubChapter {
    QString title;   // the first heading, else the table of contents' label, else "Chapter N"
    QString text;    // paragraphs separated by blank lines; the heading is the first paragraph
};

struct EpubBook {
    QString title;    // dc:title
    QString author;   // dc:creator
    QList<EpubChapter> chapters;   // spine order; documents without text (a cover image) left out
};

// false with *error "<file>: <problem>" when the file is not a readable EPUB or breaks a bound.
bool readEpub(const QString& path, EpubBook* out, QString* error);
// The same from bytes in memory (the fuzz harness); name is what messages call it.
bool readEpubBytes(const QByteArray& bytes, const QString& name, EpubBook* out, QString* error);

// XHTML to text paragraphs (what readEpub does per document): block elements end paragraphs,
// <br> ends a line, script/style/head are dropped, HTML's named entities are understood.
// false with *error (the XML error and its line) for markup that is not well-formed.
bool xhtmlToParagraphs(const QByteArray& xhtml, QStringList* paragraphs, QString* firstHeading, QString* error);

bool isEpubFileName(const QString& path);

}  // namespace reef::ui
