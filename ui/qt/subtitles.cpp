#include "qt/subtitles.h"

#include <QRegularExpression>
#include <cmath>

#include "qt/pause_markup.h"
#include "qt/text_segmenter.h"

namespace reef::ui {
namespace {

QString timestamp(qint64 samples, QChar fraction) {
    const qint64 ms = std::llround(double(samples) * 1000.0 / double(kSampleRate));
    return QStringLiteral("%1:%2:%3%4%5")
        .arg(ms / 3600000, 2, 10, QLatin1Char('0'))
        .arg(ms / 60000 % 60, 2, 10, QLatin1Char('0'))
        .arg(ms / 1000 % 60, 2, 10, QLatin1Char('0'))
        .arg(fraction)
        .arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

}  // namespace

QString cueText(const QString& segmentText) {
    static const QRegularExpression tag(QStringLiteral(R"(<\|[^|<>]{0,64}\|>)"));
    return spokenText(segmentText).remove(tag).simplified();
}

QList<SubtitleCue> subtitleCues(const ProjectData& doc, const AssembledProject& assembled, int maxChars) {
    QList<SubtitleCue> cues;
    for (const RenderedSpan& span : assembled.spans) {
        const QString text = cueText(doc.segments[size_t(span.row)].text);
        if (text.isEmpty())
            continue;
        // Sentences first, then clause marks or spaces for a sentence still too long for one cue.
        const QStringList parts = text.size() > maxChars ? splitIntoSegments(text, SplitMode::Sentences, maxChars)
                                                         : QStringList{text};
        qint64 total = 0;
        for (const QString& p : parts)
            total += p.size();
        qint64 chars = 0;
        for (const QString& p : parts) {
            const qint64 b = span.start + span.length * chars / std::max<qint64>(total, 1);
            chars += p.size();
            const qint64 e = span.start + span.length * chars / std::max<qint64>(total, 1);
            cues.append({b, e, p});
        }
    }
    return cues;
}

QString toSrt(const QList<SubtitleCue>& cues) {
    QString out;
    for (qsizetype k = 0; k < cues.size(); ++k)
        out += QStringLiteral("%1\n%2 --> %3\n%4\n\n")
                   .arg(k + 1)
                   .arg(timestamp(cues[k].start, u','), timestamp(cues[k].end, u','), cues[k].text);
    return out;
}

QString toWebVtt(const QList<SubtitleCue>& cues) {
    QString out = QStringLiteral("WEBVTT\n\n");
    for (const SubtitleCue& c : cues) {
        // "-->" may not appear in a cue's text; "&" and "<" are markup in WebVTT.
        QString text = c.text;
        text.replace(u'&', QStringLiteral("&amp;")).replace(u'<', QStringLiteral("&lt;")).replace(u'>', QStringLiteral("&gt;"));
        out += QStringLiteral("%1 --> %2\n%3\n\n").arg(timestamp(c.start, u'.'), timestamp(c.end, u'.'), text);
    }
    return out;
}

}  // namespace reef::ui
