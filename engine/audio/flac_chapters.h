// Chapter marks in a FLAC file: Vorbis comments CHAPTER001=HH:MM:SS.mmm and CHAPTER001NAME=title
// (the "Vorbis chapter" convention that players such as VLC, foobar2000 and mpv read), added with
// libFLAC's metadata editor to a file libsndfile wrote.
#pragma once
#include <string>
#include <vector>

namespace reef::audio {

struct ChapterMark {
    double start_seconds = 0.0;
    std::string title;   // UTF-8
};

// "00:01:02.500" for 62.5 s.
std::string chapter_timestamp(double seconds);

// Adds the marks to the file's VORBIS_COMMENT block (creating one where there is none). Throws
// AudioError naming the file when libFLAC cannot read or rewrite it.
void add_flac_chapters(const std::string& path, const std::vector<ChapterMark>& chapters);

// The marks a FLAC file holds, in order (for tests and for re-reading exports).
std::vector<ChapterMark> read_flac_chapters(const std::string& path);

}  // namespace reef::audio
