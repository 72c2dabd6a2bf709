// The streamed events of OpenAI-compatible /v1/audio/speech servers, read into audio and an end:
//   vLLM-Omni:         event: speech.audio.delta  data: {"type":"speech.audio.delta","audio":"<b64 PCM>"}
//                      … speech.audio.done | speech.audio.error {"error":{"message"}}; no [DONE]
//   SGLang-Omni 0.1.9: data-only events of the same types; errors {"type":"error","error":{…}}
//   SGLang-Omni older: data: {"object":"audio.speech.chunk","audio":{"data":b64,"format","sample_rate"}},
//                      a final event with finish_reason, then data: [DONE]; "wav" chunks are whole files
// Audio in the events is s16le PCM (a first piece may be a WAV header), decoded by PcmStream.
#pragma once
#include <string>
#include <vector>

#include "remote/pcm_stream.h"
#include "remote/sse_parser.h"

namespace reef::remote {

class SpeechEventReader {
public:
    // Appends the event's samples to out. False with error() on a malformed event or one that
    // reports the server's failure.
    bool read(const SseEvent& event, std::vector<float>& out);
    bool done() const { return m_done; }        // the final event (or [DONE]) arrived
    int sample_rate() const { return m_pcm.sample_rate(); }
    const std::string& error() const { return m_error; }
    int events() const { return m_events; }

private:
    PcmStream m_pcm;
    bool m_done = false;
    int m_events = 0;
    std::string m_error;
};

}  // namespace reef::remote
