// Opening text files for synthesis: .txt as it is, .md with its markup removed (a voice should
// read "Chapter one", not "## Chapter one" or the URL of a link). Bounded and checked: a file that
// is too big, binary or not UTF-8 gets a clear reason instead of a screen of garbage.
#pragma once
#include <QString>
#include <optional>

namespace reef::ui {

inline constexpr qint64 kMaxTextFileBytes = 8ll << 20;   // 8 MiB: a long novel is ~1 MB

// The file's text (UTF-8, BOM dropped, CRLF → LF; Markdown flattened for .md/.markdown), or
// nullopt with *error naming the file and the problem.
std::optional<QString> readTextFile(const QString& path, QString* error);

// Markdown to speakable text: headings, emphasis, inline code marks, block quotes, list bullets,
// images and HTML tags go; link text stays and its target goes; fenced code blocks are dropped;
// paragraphs stay separated by blank lines.
QString markdownToPlainText(const QString& markdown);

// Whether a dropped or opened file is one readTextFile takes (by suffix: txt, text, md, markdown).
bool isTextFileName(const QString& path);

}  // namespace reef::ui
