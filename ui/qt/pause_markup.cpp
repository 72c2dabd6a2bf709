#include "qt/pause_markup.h"

#include <QRegularExpression>

namespace reef::ui {
namespace {

const QRegularExpression& markPattern() {
    static const QRegularExpression re(QStringLiteral(R"(\[\s*pause\s+(\d{1,5}(?:\.\d{1,3})?)\s*(ms|s)?\s*\])"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

bool onlySpace(const QString& text, int b, int e) {
    for (int i = b; i < e; ++i)
        if (!text[i].isSpace())
            return false;
    return true;
}

}  // namespace

QList<PauseMark> findPauses(const QString& text) {
    QList<PauseMark> out;
    for (auto it = markPattern().globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        double seconds = m.captured(1).toDouble();
        if (m.captured(2).compare(QLatin1String("ms"), Qt::CaseInsensitive) == 0)
            seconds /= 1000.0;
        if (seconds > kMaxPauseSeconds)
            continue;
        out.append({int(m.capturedStart()), int(m.capturedEnd()), seconds});
    }
    return out;
}

QString spokenText(const QString& text) {
    const QList<PauseMark> marks = findPauses(text);
    if (marks.isEmpty())
        return text.trimmed();
    QString out;
    int at = 0;
    for (const PauseMark& m : marks) {
        out += text.mid(at, m.start - at);
        out += u' ';
        at = m.end;
    }
    out += text.mid(at);
    // The spaces on either side of a mark become one.
    static const QRegularExpression spaces(QStringLiteral(R"([ \t]{2,})"));
    return out.replace(spaces, QStringLiteral(" ")).trimmed();
}

std::optional<double> trailingPause(const QString& text) {
    std::optional<double> sum;
    int end = int(text.size());
    const QList<PauseMark> marks = findPauses(text);
    for (auto m = marks.crbegin(); m != marks.crend() && onlySpace(text, m->end, end); ++m) {
        sum = sum.value_or(0.0) + m->seconds;
        end = m->start;
    }
    return sum;
}

std::optional<double> leadingPause(const QString& text) {
    std::optional<double> sum;
    int begin = 0;
    for (const PauseMark& m : findPauses(text)) {
        if (!onlySpace(text, begin, m.start))
            break;
        sum = sum.value_or(0.0) + m.seconds;
        begin = m.end;
    }
    return sum;
}

QList<int> innerPauseCuts(const QString& text) {
    QList<int> cuts;
    const QList<PauseMark> marks = findPauses(text);
    bool spokenBefore = false;
    int prevEnd = 0;
    for (qsizetype k = 0; k < marks.size(); ++k) {
        const PauseMark& m = marks[k];
        spokenBefore = spokenBefore || !onlySpace(text, prevEnd, m.start);
        prevEnd = m.end;
        // Cut after the last mark of a run, where spoken text follows it.
        const int next = k + 1 < marks.size() ? marks[k + 1].start : int(text.size());
        if (spokenBefore && !onlySpace(text, m.end, next))
            cuts << m.end;
    }
    return cuts;
}

}  // namespace reef::ui
