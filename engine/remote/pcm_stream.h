// Streamed 16-bit PCM to float samples, as it arrives in arbitrary byte pieces: fish-speech's
// streamed /v1/tts body (headerless s16le mono 44.1 kHz although its Content-Type says audio/wav),
// vLLM-Omni's raw stream, and the base64 pieces of SSE events. A stream (or a piece) that starts
// with a RIFF/WAVE header is read through it: its format, channels and rate are taken from there.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace reef::remote {

class PcmStream {
public:
    explicit PcmStream(int sample_rate = 44100, int channels = 1) : m_rate(sample_rate), m_channels(channels) {}
    // Appends the mono samples the bytes complete to out. False (with error()) on a WAV header
    // Reef cannot read: not 16-bit PCM, more than 2 channels, or a header longer than 64 KiB.
    bool feed(std::string_view bytes, std::vector<float>& out);
    // Each SSE event's audio may be a whole small WAV file: a new header may start the next piece.
    void expect_header_again() { m_header_done = false; m_header.clear(); }
    int sample_rate() const { return m_rate; }
    // Bytes left over that do not make a whole sample frame (a stream cut inside a sample).
    size_t pending_bytes() const { return m_carry.size(); }
    const std::string& error() const { return m_error; }

private:
    enum class Header { Done, NeedMore, Error };
    Header read_header(std::string* rest);

    int m_rate;
    int m_channels;
    bool m_header_done = false;
    std::string m_header;   // bytes of a header being read
    std::string m_carry;    // a partial sample frame
    std::string m_error;
};

}  // namespace reef::remote
