// WAV export and import through libsndfile: round trips, atomic writes, broken inputs.
#include <csignal>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audio/wav_file.h"
#include "check.h"

using namespace reef::audio;

static std::vector<float> tone(int n, double hz, int rate, float amp = 0.8f) {
    std::vector<float> s(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) s[size_t(i)] = amp * float(std::sin(2 * M_PI * hz * i / rate));
    return s;
}

TEST_CASE(pcm16_round_trip) {
    const auto dir = reef_test::temp_dir("wav_pcm16");
    const auto path = (dir / "a.wav").string();
    const auto s = tone(22050, 440, 44100);
    write_wav(path, s, 44100, 1, WavFormat::Pcm16, {"hello", "Reef", "test"});
    const AudioData d = read_audio(path);
    CHECK_EQ(d.sample_rate, 44100);
    CHECK_EQ(d.channels, 1);
    CHECK_EQ(d.frames(), 22050);
    double maxerr = 0;
    for (size_t i = 0; i < s.size(); ++i) maxerr = std::max(maxerr, double(std::fabs(s[i] - d.samples[i])));
    CHECK(maxerr <= 2.0 / 32768);  // write scales by 32767, read by 32768
}

TEST_CASE(float_round_trip_is_exact) {
    const auto dir = reef_test::temp_dir("wav_float");
    const auto path = (dir / "a.wav").string();
    const auto s = tone(4410, 1000, 44100);
    write_wav(path, s, 44100, 1, WavFormat::Float32);
    const AudioData d = read_audio(path);
    CHECK(d.samples == s);
}

TEST_CASE(unwritable_path_leaves_nothing) {
    const auto dir = reef_test::temp_dir("wav_unwritable");
    CHECK_THROWS(write_wav((dir / "missing" / "a.wav").string(), tone(100, 440, 44100), 44100));
    CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE(corrupt_file_is_a_specific_error) {
    const auto dir = reef_test::temp_dir("wav_corrupt");
    const auto path = (dir / "bad.wav").string();
    std::ofstream(path) << "RIFF\x10\0\0\0WAVEjunk";
    bool threw = false;
    try {
        read_audio(path);
    } catch (const AudioError& e) {
        threw = true;
        CHECK(std::string(e.what()).find("bad.wav") != std::string::npos);
    }
    CHECK(threw);
}

static std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

static std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const AudioError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST_CASE(metadata_round_trip) {
    const auto dir = reef_test::temp_dir("wav_meta");
    const auto path = (dir / "m.wav").string();
    write_wav(path, tone(4410, 440, 44100), 44100, 1, WavFormat::Pcm16, {"Hello there", "Reef 0.1.0", "seed 42"});
    const WavMetadata m = read_metadata(path);
    CHECK(m.title == "Hello there");
    CHECK(m.software.rfind("Reef 0.1.0", 0) == 0);  // libsndfile appends its own name
    CHECK(m.comment == "seed 42");
    CHECK_EQ(read_audio(path).frames(), 4410);  // the INFO chunk does not disturb the audio
}

TEST_CASE(stereo_round_trip) {
    const auto dir = reef_test::temp_dir("wav_stereo");
    const auto path = (dir / "s.wav").string();
    std::vector<float> s(2000);
    for (size_t i = 0; i < s.size(); ++i) s[i] = (i % 2 ? -0.25f : 0.5f);
    write_wav(path, s, 48000, 2, WavFormat::Float32);
    const AudioData d = read_audio(path);
    CHECK_EQ(d.channels, 2);
    CHECK_EQ(d.sample_rate, 48000);
    CHECK(d.samples == s);
}

TEST_CASE(full_disk_leaves_no_partial_file) {
    // A file-size limit makes write() fail with EFBIG midway, as a full disk would (ENOSPC).
    // It runs in a child so the limit cannot leak into the rest of the test.
    const auto dir = reef_test::temp_dir("wav_full_disk");
    const auto path = dir / "take.wav";
    write_wav(path.string(), tone(1000, 440, 44100), 44100);  // an earlier export to keep
    const std::string before = slurp(path);
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of being killed
        rlimit lim{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        int code = 3;
        try {
            write_wav(path.string(), tone(441000, 440, 44100), 44100);  // ~860 KB
            code = 1;
        } catch (const AudioError& e) {
            code = std::string(e.what()).find("take.wav") != std::string::npos ? 0 : 2;
        }
        std::_Exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK_EQ(WEXITSTATUS(status), 0);  // 1: no error raised, 2: error without the file name
    size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        (void)e;
        ++entries;
    }
    CHECK_EQ(entries, size_t(1));  // no .part file left behind
    CHECK(slurp(path) == before);  // the earlier export is untouched
}

TEST_CASE(truncated_file_is_a_specific_error) {
    const auto dir = reef_test::temp_dir("wav_truncated");
    for (auto fmt : {WavFormat::Pcm16, WavFormat::Float32}) {
        const auto path = dir / "cut.wav";
        write_wav(path.string(), tone(44100, 440, 44100), 44100, 1, fmt);
        std::filesystem::resize_file(path, 20000);  // an interrupted copy
        const std::string err = error_of([&] { read_audio(path.string()); });
        CHECK(err.find("cut.wav") != std::string::npos);
        CHECK(err.find("truncated") != std::string::npos);
        std::filesystem::resize_file(path, 30);  // cut inside the header
        const std::string err2 = error_of([&] { read_audio(path.string()); });
        CHECK(err2.find("cut.wav") != std::string::npos);
        CHECK(err2 != "(no error)");
    }
}

TEST_CASE(missing_empty_and_too_long) {
    const auto dir = reef_test::temp_dir("wav_limits");
    CHECK(error_of([&] { read_audio((dir / "nope.wav").string()); }).find("not found") != std::string::npos);
    const auto empty = (dir / "empty.wav").string();
    write_wav(empty, {}, 44100);
    CHECK(error_of([&] { read_audio(empty); }).find("no audio frames") != std::string::npos);
    const auto longer = (dir / "long.wav").string();
    write_wav(longer, tone(44100 * 3, 440, 44100), 44100);
    const std::string err = error_of([&] { read_audio(longer, 2.0); });
    CHECK(err.find("3.0 s long") != std::string::npos);
}

// A PCM WAV header written by hand, so the fields libsndfile would never write can be set.
static void hostile_wav(const std::string& path, uint16_t channels, uint32_t rate, uint32_t frames) {
    const uint16_t block = uint16_t(channels * 2);
    const std::string data(size_t(frames) * std::max<uint16_t>(block, 1), '\0');
    auto u16 = [](uint16_t v) { return std::string{char(v & 0xff), char(v >> 8)}; };
    auto u32 = [](uint32_t v) { return std::string{char(v & 0xff), char(v >> 8), char(v >> 16), char(v >> 24)}; };
    const std::string fmt = u16(1) + u16(channels) + u32(rate) + u32(rate * block) + u16(block) + u16(16);
    const std::string body = "WAVEfmt " + u32(uint32_t(fmt.size())) + fmt + "data" + u32(uint32_t(data.size())) + data;
    std::ofstream(path, std::ios::binary) << "RIFF" << u32(uint32_t(body.size())) << body;
}

// Hostile clips (issue #13): each is refused with the file's name and the reason, never read.
TEST_CASE(hostile_headers_are_refused) {
    const auto dir = reef_test::temp_dir("wav_hostile");
    const auto p = [&](const char* n) { return (dir / n).string(); };
    hostile_wav(p("zero_channels.wav"), 0, 44100, 100);
    hostile_wav(p("zero_rate.wav"), 1, 0, 100);
    hostile_wav(p("one_hz.wav"), 1, 1, 20);
    hostile_wav(p("many_channels.wav"), 200, 44100, 10);
    const std::string e0 = error_of([&] { read_audio(p("zero_channels.wav")); });
    CHECK(e0.find("zero_channels.wav") != std::string::npos);
    const std::string e1 = error_of([&] { read_audio(p("zero_rate.wav")); });
    CHECK(e1.find("zero_rate.wav") != std::string::npos);
    const std::string e2 = error_of([&] { read_audio(p("one_hz.wav")); });
    CHECK(e2.find("one_hz.wav: sample rate 1 Hz is out of range") != std::string::npos);
    const std::string e3 = error_of([&] { read_audio(p("many_channels.wav")); });
    CHECK(e3.find("many_channels.wav") != std::string::npos && e3 != "(no error)");
    // A FIFO would block sf_open forever; it is refused before opening.
    CHECK(::mkfifo(p("fifo.wav").c_str(), 0600) == 0);
    CHECK(error_of([&] { read_audio(p("fifo.wav")); }).find("fifo.wav: not a regular file") != std::string::npos);
}

// Every format this libsndfile writes: audio and metadata read back (issue #18). WAV and FLAC are
// lossless to their bit depth; Vorbis and MP3 are compared by correlation. MP3 needs a libsndfile
// built with LAME and mpg123, so its absence is reported, not failed.
TEST_CASE(every_available_format_round_trips) {
    const auto dir = reef_test::temp_dir("audio_formats");
    const auto formats = available_export_formats();
    for (ExportFormat f : {ExportFormat::WavPcm16, ExportFormat::WavFloat, ExportFormat::Flac, ExportFormat::OggVorbis})
        CHECK(std::find(formats.begin(), formats.end(), f) != formats.end());
    if (!export_format_available(ExportFormat::Mp3)) std::printf("SKIP mp3: this libsndfile cannot write MP3\n");
    const auto s = tone(44100, 440, 44100, 0.5f);
    for (ExportFormat f : formats) {
        const auto path = (dir / (std::string("a.") + export_format_suffix(f))).string();
        // Non-ASCII in every field, as the studio writes them ("·" between settings, CJK texts)
        AudioMetadata meta{"Title 東京", "Reef test", "line 1\nsettings: cpu · bf16 · eager · 珊瑚礁", "S2-Pro ·",
                           "アルバム", "2026-12-01"};
        write_audio(path, s, 44100, 1, f, meta);
        const AudioData d = read_audio(path);
        CHECK_EQ(d.sample_rate, 44100);
        CHECK_EQ(d.channels, 1);
        double ab = 0, aa = 0, bb = 0, maxerr = 0;
        for (size_t i = 0; i < std::min(s.size(), d.samples.size()); ++i) {
            ab += double(s[i]) * d.samples[i];
            aa += double(s[i]) * s[i];
            bb += double(d.samples[i]) * d.samples[i];
            maxerr = std::max(maxerr, double(std::fabs(s[i] - d.samples[i])));
        }
        if (f == ExportFormat::OggVorbis || f == ExportFormat::Mp3) {
            CHECK(ab / std::sqrt(aa * bb) > 0.99);
        } else {
            CHECK_EQ(d.frames(), 44100);
            CHECK(maxerr <= (f == ExportFormat::WavPcm16 ? 2.0 / 32768 : f == ExportFormat::Flac ? 2.0 / 8388608 : 0.0));
        }
        const AudioMetadata m = read_metadata(path);
        // read back by libsndfile's own readers (mpg123's ID3 parser for MP3), not by Reef's writer
        std::printf("  %s: title '%s' comment '%s' artist '%s' album '%s'\n", to_string(f), m.title.c_str(),
                    m.comment.c_str(), m.artist.c_str(), m.album.c_str());
        CHECK(m.title == meta.title);
        CHECK(m.comment == meta.comment);
        CHECK(m.artist == meta.artist);
        if (f != ExportFormat::Mp3) CHECK(m.software.rfind("Reef test", 0) == 0);  // libsndfile reads no TSSE
        if (f == ExportFormat::Mp3) {   // the tag is ID3v2.4 (UTF-8 text frames), first in the file
            std::ifstream in(path, std::ios::binary);
            char head[4] = {};
            in.read(head, 4);
            CHECK(std::string(head, 4) == std::string("ID3\x04", 4));
        }
    }
}

TEST_CASE(every_format_fails_cleanly_on_a_missing_folder) {
    const auto dir = reef_test::temp_dir("audio_formats_unwritable");
    for (ExportFormat f : available_export_formats()) {
        const auto path = (dir / "missing" / (std::string("a.") + export_format_suffix(f))).string();
        const std::string err = error_of([&] { write_audio(path, tone(100, 440, 44100), 44100, 1, f); });
        CHECK(err.find(path) != std::string::npos && err.find("does not exist") != std::string::npos);
    }
    CHECK(std::filesystem::is_empty(dir));
}

// encode_audio (a server's answer) makes what write_audio makes: the same bytes where the format
// is deterministic (WAV, FLAC, MP3; an Ogg stream has a random serial number), the same decoded
// audio in every format; and it refuses what the encoder would fail on, naming it.
TEST_CASE(encoded_bytes_are_the_written_file) {
    const auto dir = reef_test::temp_dir("audio_encode");
    const auto s = tone(30000, 330, 44100, 0.5f);
    for (ExportFormat f : available_export_formats()) {
        const auto path = (dir / (std::string("a.") + export_format_suffix(f))).string();
        write_audio(path, s, 44100, 1, f, {"title", "Reef", "comment"});
        std::ifstream in(path, std::ios::binary);
        const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string bytes = encode_audio(s, 44100, 1, f, {"title", "Reef", "comment"});
        std::printf("  %s: %zu bytes\n", to_string(f), bytes.size());
        CHECK(!bytes.empty());
        if (f != ExportFormat::OggVorbis) CHECK(bytes == file);
        const AudioData a = read_audio(path), b = read_audio_bytes(bytes, "encoded");
        CHECK_EQ(b.sample_rate, 44100);
        CHECK(a.samples == b.samples);
    }
    // Other rates: FLAC at 24 kHz decodes at 24 kHz; MP3 only at MPEG's nine rates.
    const std::string flac = encode_audio(s, 24000, 1, ExportFormat::Flac);
    CHECK_EQ(read_audio_bytes(flac, "flac").sample_rate, 24000);
    CHECK(!export_format_accepts(ExportFormat::Flac, 0, 1));
    CHECK(!export_format_accepts(ExportFormat::Mp3, 96000, 1));
    if (export_format_available(ExportFormat::Mp3)) {
        CHECK(export_format_accepts(ExportFormat::Mp3, 22050, 1));
        CHECK_EQ(read_audio_bytes(encode_audio(s, 22050, 1, ExportFormat::Mp3), "mp3").sample_rate, 22050);
        const std::string err = error_of([&] { encode_audio(s, 96000, 1, ExportFormat::Mp3); });
        CHECK(err.find("mp3 at 96000 Hz") != std::string::npos);
    }
    CHECK(error_of([&] { encode_audio({0.1f, 0.2f, 0.3f}, 44100, 2, ExportFormat::Flac); }).find("multiple of channels") !=
          std::string::npos);
}

namespace {

// ffprobe's chapters of a file as "id,time_base,start,start_time,end,end_time,title" lines; empty
// when ffprobe is missing (the caller skips that part).
std::string ffprobe_chapters(const std::string& path) {
    if (std::system("ffprobe -version > /dev/null 2>&1") != 0) return {};
    const std::string cmd = "ffprobe -v error -show_chapters -of csv=p=0 '" + path + "'";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (p && std::fgets(buf, sizeof buf, p)) out += buf;
    if (p) pclose(p);
    return out;
}

}  // namespace

TEST_CASE(flac_chapter_marks) {
    // Chapter marks as Vorbis CHAPTERnnn comments: read back by libFLAC here and, independently,
    // by ffprobe (libavformat turns these comments into its chapters).
    const auto dir = reef_test::temp_dir("wav_chapters");
    const std::string path = (dir / "book.flac").string();
    std::vector<float> s(44100 * 5);
    for (size_t i = 0; i < s.size(); ++i) s[i] = 0.2f * float(std::sin(0.05 * double(i)));
    AudioMetadata meta{"Book", "Reef test", "three chapters"};
    meta.chapters = {{0.0, "Opening"}, {1.25, "Zwei – Ü"}, {3.5, "第三章"}};
    write_audio(path, s, 44100, 1, ExportFormat::Flac, meta);
    const std::vector<ChapterMark> back = read_flac_chapters(path);
    CHECK_EQ(back.size(), size_t(3));
    if (back.size() == 3) {
        CHECK_NEAR(back[1].start_seconds, 1.25, 1e-9);
        CHECK(back[2].title == "第三章");
    }
    CHECK(read_audio(path).samples.size() == s.size());
    CHECK(chapter_timestamp(3725.5) == "01:02:05.500");
    const std::string out = ffprobe_chapters(path);
    if (out.empty()) {
        std::printf("SKIP ffprobe part: no ffprobe on PATH\n");
        return;
    }
    std::fprintf(stderr, "  ffprobe: %s", out.c_str());
    CHECK(out.find("1.250000") != std::string::npos && out.find("Zwei – Ü") != std::string::npos);
    CHECK(out.find("3.500000") != std::string::npos && out.find("第三章") != std::string::npos);
    // Nothing is left beside the file.
    CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
}

TEST_CASE(mp3_chapter_marks) {
    // MP3: ID3v2 CHAP frames (start and end in ms, a TIT2 each) under an ordered CTOC, read back by
    // ffprobe (libavformat's ID3v2 reader turns them into chapters).
    if (!export_format_available(ExportFormat::Mp3)) return reef_test::skip("this libsndfile cannot write MP3");
    const auto dir = reef_test::temp_dir("mp3_chapters");
    const std::string path = (dir / "book.mp3").string();
    std::vector<float> s(44100 * 4);
    for (size_t i = 0; i < s.size(); ++i) s[i] = 0.2f * float(std::sin(0.05 * double(i)));
    AudioMetadata meta{"Book", "Reef test", "two chapters"};
    meta.chapters = {{0.0, "Erste"}, {2.5, "第二章"}};
    write_audio(path, s, 44100, 1, ExportFormat::Mp3, meta);
    std::string head(3, '\0');
    std::ifstream(path, std::ios::binary).read(head.data(), 3);
    CHECK(head == "ID3");
    const std::string out = ffprobe_chapters(path);
    if (out.empty()) return reef_test::skip("no ffprobe on PATH");
    std::fprintf(stderr, "  ffprobe: %s", out.c_str());
    CHECK(out.find("0.000000,2500,2.500000,Erste") != std::string::npos);
    CHECK(out.find("2.500000,4000,4.000000,第二章") != std::string::npos);
}

TEST_MAIN()
