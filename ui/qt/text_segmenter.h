// Splits a long text into the segments of a project: sentences or paragraphs, each short enough
// to synthesise on its own and re-generate without touching its neighbours.
#pragma once
#include <QString>
#include <QStringList>

namespace reef::ui {

enum class SplitMode { Sentences, Paragraphs };

// The smallest maxChars honoured: a speaker tag plus a character must always fit in one piece.
inline constexpr int kMinSegmentChars = 40;

// Rules (all in UTF-16 code units, as QString counts):
// - Paragraphs end at blank lines (a line of only whitespace); both modes split there.
// - Sentences (SplitMode::Sentences) end after . ! ? … (a run like "?!" or "..." counts as one),
//   together with the closing quotes/brackets that follow, when whitespace or the end follows and
//   the next word does not start with a lower-case letter ("approx. five", "“Stop!” he said").
//   A '.' after a known abbreviation (Mr., Dr., vs., No., …), an initial ("J. Smith") or a word
//   with inner dots ("e.g.", "i.e.", "U.S.") ends nothing; "3.5" never splits (no space follows).
//   CJK: 。！？；．｡ end a sentence with no space needed, as do . ! ? … right after a CJK
//   character. A single line break inside a paragraph is no boundary (hard-wrapped prose).
// - fish-speech control tags such as <|speaker:0|> stay with the text they introduce: in sentence
//   mode a tag starts a new segment, a tag is never left at the end of a piece, and a piece of
//   tags only joins the next one. Later sentences of the same speaker turn carry no tag (the
//   segments partition the text; nothing is added).
// - Pieces are trimmed and empty ones dropped. In paragraph mode an over-long paragraph is packed
//   into runs of whole sentences; any piece still longer than maxChars is cut at the last clause
//   mark (, ; : 、 ，；：) or failing that the last space in its second half, else at the last
//   grapheme boundary that fits — never inside a surrogate pair or a tag. maxChars below
//   kMinSegmentChars is raised to it.
// - Pause markup ("[pause 1.5s]", qt/pause_markup.h) ends a piece: the text is cut after each mark
//   that has spoken text after it. A piece of marks only joins the piece before it (or, at the very
//   start, the one after).
QStringList splitIntoSegments(const QString& text, SplitMode mode, int maxChars = 400);

// The same pieces, each saying whether it ends a paragraph (the project's assembly pauses longer
// there). The last piece ends one.
struct TextPiece {
    QString text;
    bool endsParagraph = false;
};
QList<TextPiece> splitIntoPieces(const QString& text, SplitMode mode, int maxChars = 400);

// True for the ideographs, kana and CJK punctuation the rules above treat as CJK text.
bool isCjkCodePoint(char32_t c);

}  // namespace reef::ui
