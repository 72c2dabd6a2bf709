#include "qt/project_assembly.h"

#include <algorithm>
#include <cmath>

#include "audio/time_stretch.h"
#include "qt/pause_markup.h"
#include "qt/text_segmenter.h"

namespace reef::ui {
namespace {

qint64 msToSamples(double ms) { return std::llround(ms * double(kSampleRate) / 1000.0); }

// The last character that says how the text ends: pause marks, closing quotes and brackets and
// trailing fish-speech tags are skipped.
QChar lastMeaningful(const QString& text) {
    static const QString closers = QStringLiteral("\"')]}»”’」』）】");
    const QString spoken = spokenText(text);
    for (qsizetype i = spoken.size() - 1; i >= 0; --i) {
        const QChar c = spoken[i];
        if (c.isSpace() || closers.contains(c))
            continue;
        if (c == u'>' && spoken.left(i + 1).endsWith(QStringLiteral("|>"))) {   // a control tag
            const qsizetype open = spoken.lastIndexOf(QStringLiteral("<|"), i);
            if (open >= 0) {
                i = open;
                continue;
            }
        }
        return c;
    }
    return {};
}

}  // namespace

Joint jointAfter(const ProjectData& doc, int row) {
    const size_t r = size_t(row);
    if (r + 1 < doc.segments.size() && !doc.segments[r + 1].chapter.isEmpty())
        return Joint::Chapter;
    const Segment& s = doc.segments[r];
    if (s.paragraphEnd)
        return Joint::Paragraph;
    static const QString sentenceEnds = QStringLiteral(".!?…。！？；｡");
    static const QString clauseEnds = QStringLiteral(",;:、，：—–-");
    const QChar c = lastMeaningful(s.text);
    if (sentenceEnds.contains(c))
        return Joint::Sentence;
    if (clauseEnds.contains(c))
        return Joint::Clause;
    return Joint::Word;
}

qint64 pauseSamples(const ProjectData& doc, int row, int next) {
    std::optional<double> marked = trailingPause(doc.segments[size_t(row)].text);
    // Segments of pause marks only, between the two, are their pauses.
    for (int r = row + 1; r < next; ++r)
        if (const QString& t = doc.segments[size_t(r)].text; spokenText(t).isEmpty())
            if (const std::optional<double> p = leadingPause(t))
                marked = marked.value_or(0.0) + *p;
    if (const std::optional<double> before = leadingPause(doc.segments[size_t(next)].text))
        marked = marked.value_or(0.0) + *before;
    if (marked)
        return std::llround(*marked * kSampleRate);
    const AssemblySettings& a = doc.assembly;
    // The joint is the one after the last row before `next` (rows without audio in between are
    // skipped, but a chapter heading or paragraph end on them still counts).
    Joint joint = jointAfter(doc, next - 1);
    for (int r = row; r < next - 1; ++r)
        joint = std::max(joint, jointAfter(doc, r));
    switch (joint) {
    case Joint::Chapter: return msToSamples(a.chapterPauseMs);
    case Joint::Paragraph: return msToSamples(a.paragraphPauseMs);
    case Joint::Sentence: return msToSamples(a.sentencePauseMs);
    case Joint::Clause: return msToSamples(a.clausePauseMs);
    case Joint::Word: break;
    }
    return 0;
}

audio::Loudness assembledLoudness(const AssembledProject& book) {
    return book.normalized ? book.loudness.after : audio::measure_loudness(book.audio, kSampleRate);
}

std::vector<float> trimmedTake(const std::vector<float>& audio) {
    constexpr float kThreshold = 0.00316f;   // −50 dBFS
    const qint64 margin = msToSamples(10.0);
    const auto loud = [](float v) { return std::abs(v) > kThreshold; };
    const auto first = std::find_if(audio.begin(), audio.end(), loud);
    if (first == audio.end())
        return audio;
    const auto last = std::find_if(audio.rbegin(), audio.rend(), loud);
    const qint64 b = std::max<qint64>(0, qint64(first - audio.begin()) - margin);
    const qint64 e = std::min<qint64>(qint64(audio.size()), qint64(audio.rend() - last) + margin);
    return std::vector<float>(audio.begin() + b, audio.begin() + e);
}

AssembledProject assembleProject(const ProjectData& doc) {
    const AssemblySettings& a = doc.assembly;
    AssembledProject out;
    std::vector<int> rows;
    for (int r = 0; r < int(doc.segments.size()); ++r)
        if (doc.segments[size_t(r)].hasAudio())
            rows.push_back(r);
    // A leading pause mark on the first segment is silence at the very start; a trailing one on
    // the last, at the very end.
    if (!rows.empty())
        out.audio.assign(size_t(std::llround(leadingPause(doc.segments[size_t(rows.front())].text).value_or(0.0) * kSampleRate)),
                         0.0f);
    std::vector<qint64> pauseAfter(rows.size(), 0);
    for (size_t k = 0; k < rows.size(); ++k) {
        const Segment& s = doc.segments[size_t(rows[k])];
        std::vector<float> clip = s.takes[size_t(s.currentTake)].audio;
        if (a.trimSilence)
            clip = trimmedTake(clip);
        const double speed = s.speed != 0.0 ? s.speed : a.speed;
        clip = audio::change_tempo(clip, kSampleRate, speed);
        out.spans.append({rows[k], qint64(out.audio.size()), qint64(clip.size())});
        out.audio.insert(out.audio.end(), clip.begin(), clip.end());
        pauseAfter[k] = k + 1 < rows.size() ? pauseSamples(doc, rows[k], rows[k + 1])
                                            : std::llround(trailingPause(s.text).value_or(0.0) * kSampleRate);
        out.audio.resize(out.audio.size() + size_t(pauseAfter[k]), 0.0f);
    }

    // Chapters: a heading starts one; segments before the first heading form an untitled one.
    bool anyHeading = false;
    for (const Segment& s : doc.segments)
        anyHeading = anyHeading || !s.chapter.isEmpty();
    if (anyHeading) {
        for (size_t k = 0; k < rows.size(); ++k) {
            // The heading may sit on a segment without audio: the chapter starts at the next take.
            QString heading;
            for (int r = k == 0 ? 0 : rows[k - 1] + 1; r <= rows[k]; ++r)
                if (!doc.segments[size_t(r)].chapter.isEmpty())
                    heading = doc.segments[size_t(r)].chapter;
            if (k == 0 || !heading.isEmpty()) {
                const qint64 start = k == 0 ? 0 : out.spans[qsizetype(k)].start - pauseAfter[k - 1] / 2;
                if (!out.chapters.isEmpty())
                    out.chapters.back().end = start;
                out.chapters.append({heading.isEmpty() ? doc.title : heading, rows[k], start, 0});
            }
        }
        if (!out.chapters.isEmpty())
            out.chapters.back().end = qint64(out.audio.size());
    }

    if (a.normalize && !out.audio.empty()) {
        out.audio = audio::normalize_loudness(out.audio, kSampleRate, {a.targetLufs, a.ceilingDbtp}, &out.loudness);
        out.normalized = true;
    }
    return out;
}

}  // namespace reef::ui
