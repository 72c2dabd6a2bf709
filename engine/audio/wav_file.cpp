#include "audio/wav_file.h"

#include <sndfile.h>

#include "audio/id3_tag.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>
#include <unistd.h>

namespace reef::audio {
namespace {

namespace fs = std::filesystem;

std::string temp_path_for(const std::string& path) {
    return path + ".part-" + std::to_string(::getpid());
}

struct SndFileCloser {
    SNDFILE* f = nullptr;
    ~SndFileCloser() {
        if (f) sf_close(f);
    }
};

// libsndfile reads a WAV whose data chunk runs past the end of the file without complaint,
// clipping the frame count; only its log says "data : <declared> (should be <actual>)".
// Such a file was cut off (an interrupted copy or export), so report it instead of using half.
std::string truncation_note(SNDFILE* f) {
    char log[8192] = {};
    sf_command(f, SFC_GET_LOG_INFO, log, sizeof log);
    const std::string text(log);
    for (size_t at = text.find("data : "); at != std::string::npos; at = text.find("data : ", at + 1)) {
        if (at != 0 && text[at - 1] != '\n') continue;
        const size_t eol = text.find('\n', at);
        const std::string line = text.substr(at, eol == std::string::npos ? std::string::npos : eol - at);
        long long declared = 0, actual = 0;
        if (std::sscanf(line.c_str(), "data : %lld (should be %lld)", &declared, &actual) == 2 && actual < declared)
            return "truncated: the header announces " + std::to_string(declared) + " bytes of audio but only " +
                   std::to_string(actual) + " are present";
    }
    return {};
}

}  // namespace

namespace {

int sf_format_of(ExportFormat format) {
    switch (format) {
    case ExportFormat::WavPcm16: return SF_FORMAT_WAV | SF_FORMAT_PCM_16;
    case ExportFormat::WavFloat: return SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    case ExportFormat::Flac: return SF_FORMAT_FLAC | SF_FORMAT_PCM_24;
    case ExportFormat::OggVorbis: return SF_FORMAT_OGG | SF_FORMAT_VORBIS;
    case ExportFormat::Mp3: return SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
    }
    return 0;
}

bool major_format_listed(int major) {
    int count = 0;
    sf_command(nullptr, SFC_GET_FORMAT_MAJOR_COUNT, &count, sizeof count);
    for (int i = 0; i < count; ++i) {
        SF_FORMAT_INFO fi{};
        fi.format = i;
        if (sf_command(nullptr, SFC_GET_FORMAT_MAJOR, &fi, sizeof fi) == 0 && (fi.format & SF_FORMAT_TYPEMASK) == major)
            return true;
    }
    return false;
}

bool format_check(int sf_format, int sample_rate, int channels) {
    SF_INFO info{};
    info.samplerate = sample_rate;
    info.channels = channels;
    info.format = sf_format;
    return sf_format_check(&info) == SF_TRUE;
}

// Strings first: FLAC and Ogg accept them only before the first sample is written. MP3's go in
// Reef's own UTF-8 ID3v2.4 tag instead (id3_tag.h): LAME's would turn non-ASCII text into '?'.
void set_strings(SNDFILE* f, const AudioMetadata& meta) {
    const std::pair<int, const std::string*> fields[] = {
        {SF_STR_TITLE, &meta.title},   {SF_STR_SOFTWARE, &meta.software}, {SF_STR_COMMENT, &meta.comment},
        {SF_STR_ARTIST, &meta.artist}, {SF_STR_ALBUM, &meta.album},       {SF_STR_DATE, &meta.date},
    };
    // A format without a slot for a field refuses it; the audio matters more than the tag.
    for (const auto& [id, value] : fields)
        if (!value->empty()) sf_set_string(f, id, value->c_str());
}

void remove_quietly(const std::string& p) {
    std::error_code ec;
    fs::remove(p, ec);
}

}  // namespace

bool export_format_available(ExportFormat format) {
    const int f = sf_format_of(format);
    return major_format_listed(f & SF_FORMAT_TYPEMASK) && format_check(f, 44100, 1);
}

bool export_format_accepts(ExportFormat format, int sample_rate, int channels) {
    if (format == ExportFormat::Mp3 &&
        std::find(std::begin(kMpegSampleRates), std::end(kMpegSampleRates), sample_rate) == std::end(kMpegSampleRates))
        return false;
    return sample_rate > 0 && channels > 0 && export_format_available(format) &&
           format_check(sf_format_of(format), sample_rate, channels);
}

std::vector<ExportFormat> available_export_formats() {
    std::vector<ExportFormat> out;
    for (ExportFormat f : {ExportFormat::WavPcm16, ExportFormat::WavFloat, ExportFormat::Flac, ExportFormat::OggVorbis,
                           ExportFormat::Mp3})
        if (export_format_available(f)) out.push_back(f);
    return out;
}

const char* export_format_suffix(ExportFormat format) {
    switch (format) {
    case ExportFormat::WavPcm16:
    case ExportFormat::WavFloat: return "wav";
    case ExportFormat::Flac: return "flac";
    case ExportFormat::OggVorbis: return "ogg";
    case ExportFormat::Mp3: return "mp3";
    }
    return "";
}

const char* to_string(ExportFormat format) {
    switch (format) {
    case ExportFormat::WavPcm16: return "wav-pcm16";
    case ExportFormat::WavFloat: return "wav-float";
    case ExportFormat::Flac: return "flac";
    case ExportFormat::OggVorbis: return "ogg-vorbis";
    case ExportFormat::Mp3: return "mp3";
    }
    return "";
}

namespace {

// The format check shared by files and bytes: what write_audio and encode_audio refuse, and why.
SF_INFO checked_info(const std::string& what, const std::vector<float>& samples, int sample_rate, int channels,
                     ExportFormat format) {
    if (sample_rate <= 0 || channels <= 0) throw AudioError("cannot write " + what + ": bad sample rate or channel count");
    if (samples.size() % size_t(channels) != 0)
        throw AudioError("cannot write " + what + ": sample count is not a multiple of channels");
    SF_INFO info{};
    info.samplerate = sample_rate;
    info.channels = channels;
    info.format = sf_format_of(format);
    if (!export_format_accepts(format, sample_rate, channels)) {
        char version[128] = {};
        sf_command(nullptr, SFC_GET_LIB_VERSION, version, sizeof version);
        throw AudioError("cannot write " + what + ": " + version + " cannot write " + to_string(format) + " at " +
                         std::to_string(sample_rate) + " Hz, " + std::to_string(channels) + " channel(s)");
    }
    return info;
}

// Tags, then every frame, then close: what an opened output receives, a file or bytes. Returns
// the failure ("" when all was written); the output is closed either way.
std::string write_and_close(SndFileCloser& out, const std::vector<float>& samples, int channels, ExportFormat format,
                            const AudioMetadata& meta) {
    if (format != ExportFormat::Mp3) set_strings(out.f, meta);
    // Clip rather than wrap: integer conversion of values beyond [-1, 1] would overflow.
    sf_command(out.f, SFC_SET_CLIPPING, nullptr, SF_TRUE);
    const sf_count_t frames = sf_count_t(samples.size() / size_t(channels));
    const sf_count_t written = frames ? sf_writef_float(out.f, samples.data(), frames) : 0;
    if (written != frames || sf_error(out.f) != SF_ERR_NO_ERROR) {
        const std::string why = sf_strerror(out.f);
        sf_close(std::exchange(out.f, nullptr));
        return "failed after " + std::to_string(written) + " of " + std::to_string(frames) + " frames: " + why;
    }
    sf_write_sync(out.f);
    if (sf_close(std::exchange(out.f, nullptr)) != 0) return "failed at closing (disk full?)";
    return {};
}

}  // namespace

void write_audio(const std::string& path, const std::vector<float>& samples, int sample_rate, int channels,
                 ExportFormat format, const AudioMetadata& meta) {
    const fs::path target(path);
    if (target.has_parent_path() && !fs::is_directory(target.parent_path()))
        throw AudioError("cannot write " + path + ": " + target.parent_path().string() +
                         (fs::exists(target.parent_path()) ? " is not a folder" : " does not exist"));
    if (fs::is_directory(target)) throw AudioError("cannot write " + path + ": it is a folder");
    SF_INFO info = checked_info(path, samples, sample_rate, channels, format);

    const std::string tmp = temp_path_for(path);
    if (format == ExportFormat::Mp3) {   // the tag goes in front of what the encoder wrote
        const std::string bytes = encode_audio(samples, sample_rate, channels, format, meta);
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw AudioError("cannot write " + path + ": " + std::strerror(errno));
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.close();
        if (!out) {
            remove_quietly(tmp);
            throw AudioError("writing " + path + " failed (disk full?)");
        }
    } else {
        SndFileCloser out{sf_open(tmp.c_str(), SFM_WRITE, &info)};
        if (!out.f) {
            const std::string why = sf_strerror(nullptr);
            remove_quietly(tmp);
            throw AudioError("cannot write " + path + ": " + why);
        }
        if (const std::string failed = write_and_close(out, samples, channels, format, meta); !failed.empty()) {
            remove_quietly(tmp);
            throw AudioError("writing " + path + " " + failed);
        }
        if (format == ExportFormat::Flac && !meta.chapters.empty()) {
            try {
                add_flac_chapters(tmp, meta.chapters);
            } catch (const AudioError&) {
                remove_quietly(tmp);
                throw;
            }
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        remove_quietly(tmp);
        throw AudioError("cannot move the finished export into place at " + path + ": " + ec.message());
    }
}

void write_wav(const std::string& path, const std::vector<float>& samples, int sample_rate, int channels,
               WavFormat format, const WavMetadata& meta) {
    write_audio(path, samples, sample_rate, channels,
                format == WavFormat::Pcm16 ? ExportFormat::WavPcm16 : ExportFormat::WavFloat, meta);
}

namespace {

// The checks and block reading shared by files and bytes in memory; name is what messages call it.
AudioData read_opened(SNDFILE* f, const SF_INFO& info, const std::string& name, double max_seconds) {
    const std::string& path = name;
    if (info.channels <= 0 || info.samplerate <= 0) throw AudioError("cannot read " + path + ": no audio channels");
    if (info.channels > kMaxAudioChannels)
        throw AudioError("cannot read " + path + ": " + std::to_string(info.channels) + " channels, more than " +
                         std::to_string(kMaxAudioChannels));
    if (info.samplerate < kMinAudioSampleRate || info.samplerate > kMaxAudioSampleRate)
        throw AudioError("cannot read " + path + ": sample rate " + std::to_string(info.samplerate) +
                         " Hz is out of range (" + std::to_string(kMinAudioSampleRate) + " to " +
                         std::to_string(kMaxAudioSampleRate) + " Hz)");
    if (info.frames <= 0) throw AudioError("cannot read " + path + ": the file holds no audio frames");
    if (const std::string note = truncation_note(f); !note.empty()) throw AudioError("cannot read " + path + ": " + note);
    const double seconds = double(info.frames) / info.samplerate;
    if (seconds > max_seconds) {
        char msg[96];
        std::snprintf(msg, sizeof msg, " is %.1f s long; the limit is %.1f s", seconds, max_seconds);
        throw AudioError(path + msg);
    }
    const unsigned long long max_frames = kMaxDecodedAudioBytes / (sizeof(float) * unsigned(info.channels));
    if ((unsigned long long)info.frames > max_frames)
        throw AudioError("cannot read " + path + ": " + std::to_string(info.frames) + " frames of " +
                         std::to_string(info.channels) + " channels exceed the " +
                         std::to_string(kMaxDecodedAudioBytes >> 20) + " MiB limit for decoded audio");
    AudioData data;
    data.sample_rate = info.samplerate;
    data.channels = info.channels;
    // Read in blocks: a header may claim far more frames than the file holds (a compressed
    // format's total is only a promise), so memory follows what is decoded.
    constexpr sf_count_t kBlock = 1 << 16;
    std::vector<float> block(size_t(kBlock) * size_t(info.channels));
    sf_count_t got = 0;
    while (got < info.frames) {
        const sf_count_t want = std::min<sf_count_t>(kBlock, info.frames - got);
        const sf_count_t n = sf_readf_float(f, block.data(), want);
        if (n <= 0) break;
        data.samples.insert(data.samples.end(), block.begin(), block.begin() + std::ptrdiff_t(n * info.channels));
        got += n;
    }
    if (got != info.frames)
        throw AudioError("cannot read " + path + ": truncated or corrupt after " + std::to_string(got) + " of " +
                         std::to_string(info.frames) + " frames (" + sf_strerror(f) + ")");
    return data;
}

// libsndfile's virtual I/O over a byte string: read from (read_audio_bytes) or grown by writes
// (encode_audio; libsndfile seeks back to fill in headers, so a write may land inside the bytes).
struct MemoryFile {
    std::string* bytes;
    bool writable = false;
    sf_count_t at = 0;
};
sf_count_t mem_length(void* user) { return sf_count_t(static_cast<MemoryFile*>(user)->bytes->size()); }
sf_count_t mem_seek(sf_count_t offset, int whence, void* user) {
    auto* m = static_cast<MemoryFile*>(user);
    const sf_count_t size = sf_count_t(m->bytes->size());
    sf_count_t to = whence == SEEK_SET ? offset : whence == SEEK_CUR ? m->at + offset : size + offset;
    m->at = std::clamp<sf_count_t>(to, 0, size);
    return m->at;
}
sf_count_t mem_read(void* ptr, sf_count_t count, void* user) {
    auto* m = static_cast<MemoryFile*>(user);
    const sf_count_t n = std::min<sf_count_t>(count, sf_count_t(m->bytes->size()) - m->at);
    if (n <= 0) return 0;
    std::memcpy(ptr, m->bytes->data() + m->at, size_t(n));
    m->at += n;
    return n;
}
sf_count_t mem_write(const void* ptr, sf_count_t count, void* user) {
    auto* m = static_cast<MemoryFile*>(user);
    if (!m->writable || count <= 0) return 0;
    if (size_t(m->at + count) > m->bytes->size()) m->bytes->resize(size_t(m->at + count));
    std::memcpy(m->bytes->data() + m->at, ptr, size_t(count));
    m->at += count;
    return count;
}
sf_count_t mem_tell(void* user) { return static_cast<MemoryFile*>(user)->at; }

}  // namespace

AudioData read_audio(const std::string& path, double max_seconds) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw AudioError("audio file not found: " + path);
    // sf_open on a FIFO or a device blocks or never ends.
    if (!fs::is_regular_file(st)) throw AudioError("cannot read " + path + ": not a regular file");
    SF_INFO info{};
    SndFileCloser in{sf_open(path.c_str(), SFM_READ, &info)};
    if (!in.f) throw AudioError("cannot read " + path + ": " + sf_strerror(nullptr));
    return read_opened(in.f, info, path, max_seconds);
}

AudioData read_audio_bytes(const std::string& bytes, const std::string& name, double max_seconds) {
    if (bytes.empty()) throw AudioError("cannot read " + name + ": it is empty");
    SF_VIRTUAL_IO io{mem_length, mem_seek, mem_read, mem_write, mem_tell};
    MemoryFile file{const_cast<std::string*>(&bytes)};   // not writable: mem_write refuses
    SF_INFO info{};
    SndFileCloser in{sf_open_virtual(&io, SFM_READ, &info, &file)};
    if (!in.f) throw AudioError("cannot read " + name + ": " + sf_strerror(nullptr));
    return read_opened(in.f, info, name, max_seconds);
}

std::string encode_audio(const std::vector<float>& samples, int sample_rate, int channels, ExportFormat format,
                         const AudioMetadata& meta) {
    const std::string what = std::string(to_string(format)) + " bytes";
    SF_INFO info = checked_info(what, samples, sample_rate, channels, format);
    std::string bytes;
    SF_VIRTUAL_IO io{mem_length, mem_seek, mem_read, mem_write, mem_tell};
    MemoryFile file{&bytes, true};
    SndFileCloser out{sf_open_virtual(&io, SFM_WRITE, &info, &file)};
    if (!out.f) throw AudioError("cannot write " + what + ": " + sf_strerror(nullptr));
    if (const std::string failed = write_and_close(out, samples, channels, format, meta); !failed.empty())
        throw AudioError("writing " + what + " " + failed);
    return format == ExportFormat::Mp3
               ? id3v2_tag(meta, double(samples.size()) / double(channels) / double(sample_rate)) + bytes
               : bytes;
}

AudioMetadata read_metadata(const std::string& path) {
    SF_INFO info{};
    SndFileCloser in{sf_open(path.c_str(), SFM_READ, &info)};
    if (!in.f) throw AudioError("cannot read " + path + ": " + sf_strerror(nullptr));
    auto get = [&](int id) {
        const char* s = sf_get_string(in.f, id);
        return std::string(s ? s : "");
    };
    return {get(SF_STR_TITLE), get(SF_STR_SOFTWARE), get(SF_STR_COMMENT),
            get(SF_STR_ARTIST), get(SF_STR_ALBUM),    get(SF_STR_DATE)};
}

}  // namespace reef::audio
