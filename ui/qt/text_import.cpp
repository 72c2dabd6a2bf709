#include "qt/text_import.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringConverter>
#include <QStringDecoder>

namespace reef::ui {
namespace {

// A translation context for lupdate ("TextImport") without a QObject.
struct TextImport {
    Q_DECLARE_TR_FUNCTIONS(TextImport)
};

bool isMarkdownName(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("md") || s == QLatin1String("markdown");
}

// One line of Markdown without its block markers and inline markup.
QString flattenLine(QString line) {
    static const QRegularExpression heading(QStringLiteral("^\\s{0,3}#{1,6}\\s+"));
    static const QRegularExpression headingTail(QStringLiteral("\\s+#+\\s*$"));
    static const QRegularExpression quote(QStringLiteral("^\\s{0,3}(>\\s?)+"));
    static const QRegularExpression bullet(QStringLiteral("^\\s*([-*+]|\\d{1,9}[.)])\\s+"));
    static const QRegularExpression image(QStringLiteral("!\\[([^\\]]*)\\]\\([^)]*\\)"));
    static const QRegularExpression link(QStringLiteral("\\[([^\\]]*)\\]\\([^)]*\\)"));
    static const QRegularExpression refLink(QStringLiteral("\\[([^\\]]*)\\]\\[[^\\]]*\\]"));
    static const QRegularExpression html(QStringLiteral("<[A-Za-z/!][^>]*>"));
    static const QRegularExpression emphasis(QStringLiteral("(\\*{1,3}|~~)(?=\\S)(.+?)(?<=\\S)\\1"));
    // Underscores only at word edges: snake_case names keep theirs.
    static const QRegularExpression underscores(QStringLiteral("(?<!\\w)(_{1,3})(?=\\S)(.+?)(?<=\\S)\\1(?!\\w)"));
    static const QRegularExpression code(QStringLiteral("`+([^`]*)`+"));
    if (line.contains(heading)) {
        line.remove(heading);
        line.remove(headingTail);
    }
    line.remove(quote);
    line.remove(bullet);
    line.replace(image, QString());
    line.replace(link, QStringLiteral("\\1"));
    line.replace(refLink, QStringLiteral("\\1"));
    line.remove(html);
    line.replace(code, QStringLiteral("\\1"));
    // Two passes: nested emphasis (*italic* inside **bold**) peels one layer per pass.
    for (int pass = 0; pass < 2; ++pass) {
        line.replace(emphasis, QStringLiteral("\\2"));
        line.replace(underscores, QStringLiteral("\\2"));
    }
    return line.trimmed();
}

}  // namespace

bool isTextFileName(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("txt") || s == QLatin1String("text") || isMarkdownName(path);
}

QString markdownToPlainText(const QString& markdown) {
    static const QRegularExpression fence(QStringLiteral("^\\s{0,3}(```|~~~)"));
    static const QRegularExpression rule(QStringLiteral("^\\s{0,3}([-*_]\\s*){3,}$"));
    static const QRegularExpression linkDefinition(QStringLiteral("^\\s{0,3}\\[[^\\]]+\\]:\\s+\\S+"));
    static const QRegularExpression setextUnderline(QStringLiteral("^\\s{0,3}(=+|-+)\\s*$"));
    QStringList paragraphs;
    QString current;
    bool inFence = false;
    auto endParagraph = [&] {
        if (!current.isEmpty())
            paragraphs << current;
        current.clear();
    };
    for (const QString& raw : markdown.split(QLatin1Char('\n'))) {
        if (raw.contains(fence)) {
            inFence = !inFence;
            endParagraph();
            continue;
        }
        if (inFence || raw.contains(linkDefinition))
            continue;
        if (raw.trimmed().isEmpty() || raw.contains(rule) || (raw.contains(setextUnderline) && !current.isEmpty())) {
            endParagraph();
            continue;
        }
        const QString line = flattenLine(raw);
        if (line.isEmpty())
            continue;
        // A heading or list item is a paragraph of its own; other lines wrap into their paragraph.
        const bool block = raw.trimmed().startsWith(QLatin1Char('#')) ||
                           raw.contains(QRegularExpression(QStringLiteral("^\\s*([-*+]|\\d{1,9}[.)])\\s+")));
        if (block)
            endParagraph();
        current += (current.isEmpty() ? QString() : QStringLiteral(" ")) + line;
        if (block)
            endParagraph();
    }
    endParagraph();
    return paragraphs.join(QStringLiteral("\n\n"));
}

std::optional<QString> readTextFile(const QString& path, QString* error) {
    auto fail = [&](const QString& why) -> std::optional<QString> {
        if (error)
            *error = TextImport::tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), why);
        return std::nullopt;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return fail(TextImport::tr("the file does not exist."));
    if (!info.isFile())
        return fail(TextImport::tr("it is not a regular file."));
    if (info.size() > kMaxTextFileBytes)
        return fail(TextImport::tr("it is %1 MB; Reef opens text files up to %2 MB (split it into chapters).")
                        .arg(double(info.size()) / (1 << 20), 0, 'f', 1)
                        .arg(kMaxTextFileBytes >> 20));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(f.errorString());
    const QByteArray bytes = f.read(kMaxTextFileBytes + 1);
    if (bytes.contains('\0'))
        return fail(TextImport::tr("it is not a text file (it contains binary data)."));
    QStringDecoder utf8(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
    QString text = utf8(bytes);
    if (utf8.hasError())
        return fail(TextImport::tr("it is not UTF-8 text. Save it as UTF-8 and open it again."));
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n")).replace(QLatin1Char('\r'), QLatin1Char('\n'));
    if (isMarkdownName(path))
        text = markdownToPlainText(text);
    if (text.trimmed().isEmpty())
        return fail(TextImport::tr("it holds no text."));
    return text;
}

}  // namespace reef::ui
