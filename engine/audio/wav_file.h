// Audio export and import through libsndfile. Exports are atomic: a temp file beside the target
// is written and renamed, so a failed export never leaves a broken file or clobbers one.
#pragma once
#include <string>
#include <vector>

#include "audio/audio_error.h"
#include "audio/flac_chapters.h"

namespace reef::audio {

enum class WavFormat { Pcm16, Float32 };

// The formats Reef exports. FLAC is 24-bit (the closest lossless form of float audio FLAC has);
// Ogg is Vorbis; MP3 is MPEG-1 Layer III and only where this libsndfile was built with LAME.
enum class ExportFormat { WavPcm16, WavFloat, Flac, OggVorbis, Mp3 };

// Text stored with the audio (RIFF INFO in WAV, Vorbis comments in FLAC/Ogg, ID3 in MP3), UTF-8.
// Empty fields are not written. MP3's is Reef's own ID3v2.4 tag in UTF-8 (audio/id3_tag.h: LAME's
// frames are Latin-1 only); its software field (TSSE) is one libsndfile does not read back.
// The first three keep their order: callers brace-initialise them ({title, software, comment});
// the "= {}" on the rest keeps that free of missing-field warnings.
struct AudioMetadata {
    std::string title;     // e.g. the synthesised text (truncated)
    std::string software;  // "Reef 0.1.0"; libsndfile may append its own name
    std::string comment;   // the text, model and settings
    std::string artist = {};
    std::string album = {};
    std::string date = {};  // ISO 8601
    // Chapter marks: FLAC as Vorbis CHAPTERnnn comments (audio/flac_chapters.h), MP3 as ID3v2 CHAP
    // and CTOC frames (audio/id3_tag.h). WAV and Ogg get none: export per chapter for those.
    std::vector<ChapterMark> chapters = {};
};
using WavMetadata = AudioMetadata;

// Asks libsndfile (not a fixed list): the format's container is among the major formats this
// build reports and sf_format_check accepts the format for mono 44.1 kHz.
bool export_format_available(ExportFormat format);
std::vector<ExportFormat> available_export_formats();
// The rates MPEG-1/2/2.5 Layer III has (sf_format_check passes MPEG at any rate; the encoder then
// refuses the others).
inline constexpr int kMpegSampleRates[] = {8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000};
// Whether this libsndfile writes format at that rate and channel count (MP3: kMpegSampleRates).
bool export_format_accepts(ExportFormat format, int sample_rate, int channels);
const char* export_format_suffix(ExportFormat format);   // "wav", "flac", "ogg", "mp3"
const char* to_string(ExportFormat format);              // "wav-pcm16", "wav-float", "flac", "ogg-vorbis", "mp3"

// Writes samples (interleaved, within [-1, 1]; integer formats clip, never wrap) in format.
// Throws AudioError naming the path and the reason: a missing or non-folder parent, a folder at
// the target, a format this libsndfile cannot write, a failed write (disk full) or rename.
void write_audio(const std::string& path, const std::vector<float>& samples, int sample_rate, int channels,
                 ExportFormat format, const AudioMetadata& meta = {});

// The same file as write_audio would write, as bytes in memory (a server's answer). Throws
// AudioError for what write_audio refuses before it opens a file.
std::string encode_audio(const std::vector<float>& samples, int sample_rate, int channels, ExportFormat format,
                         const AudioMetadata& meta = {});
// write_audio with WavPcm16 or WavFloat.
void write_wav(const std::string& path, const std::vector<float>& samples, int sample_rate, int channels = 1,
               WavFormat format = WavFormat::Pcm16, const WavMetadata& meta = {});

struct AudioData {
    std::vector<float> samples;  // interleaved
    int sample_rate = 0;
    int channels = 0;
    long long frames() const { return channels ? (long long)samples.size() / channels : 0; }
};

// Bounds on imported audio: a clip comes from anywhere, and its header alone decides how much
// read_audio would allocate. The rates match engine/src/input_limits.h (kMinSampleRate/kMaxSampleRate);
// 64 channels covers any interleaved recording; 4 GiB of decoded float32 is 3.4 h of 44.1 kHz stereo.
inline constexpr int kMinAudioSampleRate = 1000;
inline constexpr int kMaxAudioSampleRate = 768000;
inline constexpr int kMaxAudioChannels = 64;
inline constexpr unsigned long long kMaxDecodedAudioBytes = 4ull << 30;

// Reads WAV, FLAC, OGG, ... through libsndfile. Throws AudioError naming the file and the reason:
// missing, not a regular file, not audio/corrupt, no frames, a sample rate or channel count out
// of range, truncated data, longer than max_seconds, or more than kMaxDecodedAudioBytes decoded.
// Memory grows with the frames actually decoded, never with the count the header claims.
AudioData read_audio(const std::string& path, double max_seconds = 600.0);
// The same for a whole file held in memory (a server's answer); name is what messages call it.
AudioData read_audio_bytes(const std::string& bytes, const std::string& name, double max_seconds = 600.0);

// The strings write_audio stored, from any format libsndfile reads them from; empty where absent.
AudioMetadata read_metadata(const std::string& path);

}  // namespace reef::audio
