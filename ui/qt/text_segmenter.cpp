#include "qt/text_segmenter.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTextBoundaryFinder>
#include <algorithm>
#include <vector>

#include "qt/pause_markup.h"

namespace reef::ui {
namespace {

struct Span {
    int b = 0, e = 0;   // [b, e) in the normalised text
    int paragraph = 0;
    int size() const { return e - b; }
};

bool isFullWidthEnd(QChar c) {
    switch (c.unicode()) {
    case 0x3002:   // 。
    case 0xFF01:   // ！
    case 0xFF1F:   // ？
    case 0xFF1B:   // ；
    case 0xFF0E:   // ．
    case 0xFF61:   // ｡ (half-width Japanese full stop)
        return true;
    default: return false;
    }
}

bool isLatinEnd(QChar c) { return c == u'.' || c == u'!' || c == u'?' || c == QChar(0x2026); }

bool isCloser(QChar c) {
    static const QString closers = QStringLiteral("\"')]}\u00BB\u201D\u2019\u203A\u300D\u300F\uFF09\u3011\u300B\u3009"
                                                  "\u3015\u3017\u3019\u301B\uFF3D\uFF5D\uFF02\uFF07");
    return closers.contains(c);
}

bool isOpener(QChar c) {
    static const QString openers = QStringLiteral("\"'([{\u00AB\u201C\u2018\u2039\u300C\u300E\uFF08\u3010\u300A\u3008"
                                                  "\u3014\u3016\u3018\u301A\uFF3B\uFF5B");
    return openers.contains(c);
}

// Marks after which a long piece may be cut. The ASCII ones only count when a space follows
// ("1,000" and "3.5" stay whole); the CJK ones need none.
bool isAsciiClauseMark(QChar c) { return c == u',' || c == u';' || c == u':' || isLatinEnd(c); }
bool isCjkClauseMark(QChar c) {
    return c == QChar(0x3001) || c == QChar(0xFF0C) || c == QChar(0xFF1A) || isFullWidthEnd(c);
}

// Lower-cased words that a '.' follows without ending the sentence.
const QSet<QString>& abbreviations() {
    static const QSet<QString> words = {
        QStringLiteral("mr"),   QStringLiteral("mrs"),    QStringLiteral("ms"),   QStringLiteral("mx"),
        QStringLiteral("dr"),   QStringLiteral("prof"),   QStringLiteral("sr"),   QStringLiteral("jr"),
        QStringLiteral("st"),   QStringLiteral("mt"),     QStringLiteral("vs"),   QStringLiteral("cf"),
        QStringLiteral("fig"),  QStringLiteral("figs"),   QStringLiteral("no"),   QStringLiteral("nos"),
        QStringLiteral("nr"),   QStringLiteral("vol"),    QStringLiteral("vols"), QStringLiteral("ch"),
        QStringLiteral("approx"), QStringLiteral("ca"),   QStringLiteral("inc"),  QStringLiteral("ltd"),
        QStringLiteral("co"),   QStringLiteral("corp"),   QStringLiteral("dept"), QStringLiteral("est"),
        QStringLiteral("gen"),  QStringLiteral("gov"),    QStringLiteral("rev"),  QStringLiteral("sgt"),
        QStringLiteral("capt"), QStringLiteral("col"),    QStringLiteral("lt"),   QStringLiteral("pp"),
        QStringLiteral("mme"),  QStringLiteral("mlle"),   QStringLiteral("bzw"),  QStringLiteral("str"),
    };
    return words;
}

// Holds the normalised text and its tags; every position is a UTF-16 index into it.
class Scanner {
public:
    explicit Scanner(QString text) : t(std::move(text)), m_graphemes(QTextBoundaryFinder::Grapheme, t) {
        static const QRegularExpression tag(QStringLiteral(R"(<\|[A-Za-z0-9_:\-]{1,24}\|>)"));
        for (auto it = tag.globalMatch(t); it.hasNext();) {
            const auto m = it.next();
            m_tagEndByStart.insert(int(m.capturedStart()), int(m.capturedEnd()));
            m_tagStartByEnd.insert(int(m.capturedEnd()), int(m.capturedStart()));
        }
    }

    const QString t;

    QList<Span> paragraphs() const;
    QList<Span> sentences(const Span& paragraph) const;
    void attachTags(QList<Span>& spans) const;
    QList<Span> packParagraphs(const QList<Span>& sentences, int maxChars) const;
    void cutLong(const Span& span, int maxChars, QList<Span>& out) const;

private:
    Span trimmed(Span s) const {
        while (s.b < s.e && t[s.b].isSpace())
            ++s.b;
        while (s.e > s.b && t[s.e - 1].isSpace())
            --s.e;
        return s;
    }
    int tagEndAt(int i) const { return m_tagEndByStart.value(i, -1); }
    bool insideTag(int q) const;
    bool endsWithTag(const Span& s) const { return s.size() > 0 && m_tagStartByEnd.value(s.e, -1) >= s.b; }
    bool tagsOnly(Span s) const;
    char32_t codePointBefore(int i) const;
    bool isSentenceEnd(int runStart, int afterClosers, bool closersSeen, int limit) const;
    bool isAbbreviationBefore(int dot) const;
    bool nextWordIsLower(int i, int limit) const;
    bool cutAllowed(int b, int q) const;
    bool isClauseCut(int q, int e) const;
    bool isGraphemeBoundary(int q) const {
        m_graphemes.setPosition(q);
        return m_graphemes.isAtBoundary();
    }

    mutable QTextBoundaryFinder m_graphemes;   // only its position changes
    QHash<int, int> m_tagEndByStart;
    QHash<int, int> m_tagStartByEnd;
};

char32_t Scanner::codePointBefore(int i) const {
    if (i <= 0)
        return 0;
    const QChar c = t[i - 1];
    if (c.isLowSurrogate() && i >= 2 && t[i - 2].isHighSurrogate())
        return QChar::surrogateToUcs4(t[i - 2], c);
    return c.unicode();
}

bool Scanner::insideTag(int q) const {
    // Tags are at most 28 units long, so looking back that far finds any tag around q.
    for (int b = std::max(0, q - 32); b < q; ++b) {
        const int e = tagEndAt(b);
        if (e > q)
            return true;
    }
    return false;
}

bool Scanner::tagsOnly(Span s) const {
    s = trimmed(s);
    while (s.size() > 0) {
        const int e = tagEndAt(s.b);
        if (e < 0 || e > s.e)
            return false;
        s.b = e;
        s = trimmed(s);
    }
    return true;
}

QList<Span> Scanner::paragraphs() const {
    static const QRegularExpression blankLine(QStringLiteral(R"(\n(?:[^\S\n]*\n)+)"));
    QList<Span> out;
    int start = 0, index = 0;
    auto push = [&](int b, int e) {
        const Span s = trimmed({b, e, index});
        if (s.size() > 0) {
            out << s;
            ++index;
        }
    };
    for (auto it = blankLine.globalMatch(t); it.hasNext();) {
        const auto m = it.next();
        push(start, int(m.capturedStart()));
        start = int(m.capturedEnd());
    }
    push(start, int(t.size()));
    return out;
}

bool Scanner::isAbbreviationBefore(int dot) const {
    int b = dot;
    while (b > 0 && (t[b - 1].isLetter() || t[b - 1] == u'.'))
        --b;
    const QString word = t.mid(b, dot - b);
    if (word.isEmpty() || !word[0].isLetter())
        return false;   // "1990." or ")." end sentences
    if (word.contains(u'.'))
        return true;    // e.g. i.e. U.S. z.B.
    if (word.size() == 1)
        return word != QStringLiteral("I");   // an initial, as in "J. Smith"; "I." ends one
    return abbreviations().contains(word.toLower());
}

bool Scanner::nextWordIsLower(int i, int limit) const {
    while (i < limit && (t[i].isSpace() || isOpener(t[i])))
        ++i;
    return i < limit && t[i].isLower();
}

bool Scanner::isSentenceEnd(int runStart, int afterClosers, bool closersSeen, int limit) const {
    bool fullWidth = false;
    for (int k = runStart; k < afterClosers; ++k)
        fullWidth = fullWidth || isFullWidthEnd(t[k]);
    if (fullWidth || isCjkCodePoint(codePointBefore(runStart))) {
        if (!closersSeen || afterClosers >= limit)
            return true;
        // 「やめて！」と言った / “快跑！”他喊道: a quote closed mid-sentence continues it.
        const QChar next = t[afterClosers];
        return next.isSpace() || isOpener(next) || tagEndAt(afterClosers) >= 0;
    }
    if (afterClosers < limit && !t[afterClosers].isSpace())
        return false;   // "3.5", "example.com", "Hi!there"
    const int runEnd = [&] {
        int k = runStart;
        while (k < afterClosers && isLatinEnd(t[k]))
            ++k;
        return k;
    }();
    if (runEnd - runStart == 1 && t[runStart] == u'.' && isAbbreviationBefore(runStart))
        return false;
    return !nextWordIsLower(afterClosers, limit);
}

QList<Span> Scanner::sentences(const Span& p) const {
    QList<Span> out;
    int start = p.b;
    auto push = [&](int e) {
        const Span s = trimmed({start, e, p.paragraph});
        if (s.size() > 0)
            out << s;
        start = e;
    };
    int i = p.b;
    while (i < p.e) {
        const int tagEnd = tagEndAt(i);
        if (tagEnd > 0) {
            if (trimmed({start, i}).size() > 0)
                push(i);   // a speaker tag opens a new segment
            i = tagEnd;
            continue;
        }
        if (!isLatinEnd(t[i]) && !isFullWidthEnd(t[i])) {
            ++i;
            continue;
        }
        int j = i;
        while (j < p.e && (isLatinEnd(t[j]) || isFullWidthEnd(t[j])))
            ++j;
        const int runEnd = j;
        while (j < p.e && isCloser(t[j]))
            ++j;
        if (j < p.e && isSentenceEnd(i, j, j > runEnd, p.e))
            push(j);
        i = j;
    }
    push(p.e);
    return out;
}

// A tag ending a piece moves to the start of the next one; a piece of tags only joins the next
// (or, at the very end, the previous) piece.
void Scanner::attachTags(QList<Span>& spans) const {
    for (int k = 0; k + 1 < spans.size(); ++k) {
        Span& s = spans[k];
        while (endsWithTag(s)) {
            const int tagStart = m_tagStartByEnd.value(s.e);
            spans[k + 1].b = tagStart;
            s.e = tagStart;
            s = trimmed(s);
        }
    }
    spans.removeIf([](const Span& s) { return s.size() <= 0; });
    if (spans.size() >= 2 && tagsOnly(spans.last())) {
        spans[spans.size() - 2].e = spans.last().e;
        spans.removeLast();
    }
}

QList<Span> Scanner::packParagraphs(const QList<Span>& sentences, int maxChars) const {
    QList<Span> out;
    for (const Span& s : sentences) {
        if (!out.isEmpty() && out.last().paragraph == s.paragraph && s.e - out.last().b <= maxChars)
            out.last().e = s.e;
        else
            out << s;
    }
    return out;
}

bool Scanner::cutAllowed(int b, int q) const {
    if (q <= b || q >= t.size())
        return false;
    if (t[q].isLowSurrogate() && t[q - 1].isHighSurrogate())
        return false;
    if (insideTag(q))
        return false;
    const Span piece = trimmed({b, q});
    return piece.size() > 0 && !endsWithTag(piece) && !tagsOnly(piece);
}

bool Scanner::isClauseCut(int q, int e) const {
    if (tagEndAt(q) >= 0)
        return true;   // before a speaker tag
    int k = q;
    while (k > 0 && isCloser(t[k - 1]))
        --k;
    if (k == 0)
        return false;
    const QChar mark = t[k - 1];
    if (isCjkClauseMark(mark))
        return true;
    return isAsciiClauseMark(mark) && q < e && t[q].isSpace();
}

// Cuts a piece longer than maxChars into pieces that fit, at the best boundary in reach.
void Scanner::cutLong(const Span& span, int maxChars, QList<Span>& out) const {
    Span rest = span;
    while (rest.size() > maxChars) {
        const int b = rest.b, limit = b + maxChars, half = b + maxChars / 2;
        int cut = -1;
        auto search = [&](int hi, int lo, auto&& accept) {
            for (int q = hi; q > lo && cut < 0; --q)
                if (accept(q) && cutAllowed(b, q))
                    cut = q;
        };
        auto clause = [&](int q) { return isClauseCut(q, rest.e); };
        auto space = [&](int q) { return t[q].isSpace(); };
        search(limit, half, clause);
        search(limit, half, space);
        search(half, b, clause);
        search(half, b, space);
        search(limit, b, [&](int q) { return isGraphemeBoundary(q); });
        search(limit, b, [](int) { return true; });
        if (cut < 0)
            cut = t[limit].isLowSurrogate() ? limit - 1 : limit;   // unreachable with sane tags
        const Span piece = trimmed({b, cut, span.paragraph});
        if (piece.size() > 0)
            out << piece;
        rest = trimmed({cut, rest.e, span.paragraph});
    }
    if (rest.size() > 0)
        out << rest;
}

QString normalised(const QString& text) {
    QString t = text;
    t.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    t.replace(u'\r', u'\n');
    t.replace(QChar(QChar::ParagraphSeparator), QStringLiteral("\n\n"));
    t.replace(QChar(QChar::LineSeparator), u'\n');
    return t;
}

}  // namespace

bool isCjkCodePoint(char32_t c) {
    return (c >= 0x3000 && c <= 0x30FF)      // CJK punctuation, hiragana, katakana
           || (c >= 0x3400 && c <= 0x4DBF)   // extension A
           || (c >= 0x4E00 && c <= 0x9FFF)   // unified ideographs
           || (c >= 0xF900 && c <= 0xFAFF)   // compatibility ideographs
           || (c >= 0xFF00 && c <= 0xFFEF)   // full-width and half-width forms
           || (c >= 0x20000 && c <= 0x3134F);  // extensions B–G (surrogate pairs in UTF-16)
}

QList<TextPiece> splitIntoPieces(const QString& text, SplitMode mode, int maxChars) {
    maxChars = std::max(maxChars, kMinSegmentChars);
    const Scanner scan(normalised(text));
    QList<Span> spans;
    for (const Span& p : scan.paragraphs())
        spans << scan.sentences(p);
    scan.attachTags(spans);
    if (mode == SplitMode::Paragraphs)
        spans = scan.packParagraphs(spans, maxChars);
    QList<Span> pieces;
    for (const Span& s : spans)
        scan.cutLong(s, maxChars, pieces);
    QList<TextPiece> out;
    for (qsizetype k = 0; k < pieces.size(); ++k) {
        const bool endsParagraph = k + 1 == pieces.size() || pieces[k + 1].paragraph != pieces[k].paragraph;
        const QString piece = scan.t.mid(pieces[k].b, pieces[k].size());
        // Cut after each pause mark that spoken text follows; a piece of marks only joins its
        // neighbour (the one before, or the next at the very start).
        int at = 0;
        for (int cut : innerPauseCuts(piece)) {
            out.append({piece.mid(at, cut - at).trimmed(), false});
            at = cut;
        }
        const QString rest = piece.mid(at).trimmed();
        if (spokenText(rest).isEmpty() && !out.isEmpty()) {
            out.back().text += u' ' + rest;
            out.back().endsParagraph = endsParagraph;
            continue;
        }
        if (!out.isEmpty() && spokenText(out.back().text).isEmpty()) {   // marks only, at the start
            out.back().text += u' ' + rest;
            out.back().endsParagraph = endsParagraph;
            continue;
        }
        out.append({rest, endsParagraph});
    }
    return out;
}

QStringList splitIntoSegments(const QString& text, SplitMode mode, int maxChars) {
    QStringList out;
    for (const TextPiece& p : splitIntoPieces(text, mode, maxChars))
        out << p.text;
    return out;
}

}  // namespace reef::ui
