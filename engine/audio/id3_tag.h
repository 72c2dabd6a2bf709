// An ID3v2.4 tag in UTF-8 for the MP3 export. libsndfile tags MP3 through LAME, whose ID3v2 text
// frames are Latin-1 only: "·" or CJK text came out as '?'. ID3v2.4 marks text frames UTF-8
// (encoding byte 3), so every character the other formats keep survives; mpg123 (libsndfile's MP3
// reader), taglib, ffmpeg and current players read it. No Qt, no torch.
#pragma once
#include <string>

#include "audio/wav_file.h"

namespace reef::audio {

// The whole tag (header and frames; "" when every field is empty): TIT2 title, TPE1 artist, TALB
// album, TDRC date, TSSE software, COMM comment (language "eng", no description), and the
// chapters as ID3v2 Chapter frames (id3.org's "ID3v2 Chapter Frame Addendum" 1.0): a CHAP frame
// per chapter ("ch1", …: start and end in milliseconds, a TIT2 inside with its title) and an
// ordered top-level CTOC listing them. duration_seconds ends the last chapter. To be written in
// front of the MPEG frames.
std::string id3v2_tag(const AudioMetadata& meta, double duration_seconds = 0.0);

}  // namespace reef::audio
