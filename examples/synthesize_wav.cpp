// synthesize_wav MODEL_DIR "text" OUT.wav [MAX_FRAMES]: the smallest program on Reef's public API.
// It loads a model folder, synthesizes one text and writes it as a 16-bit mono WAV. The engine's
// calls return Result<T> (errors are values, docs/architecture.md rule 3); the WAV writer of
// reef_audio throws AudioError. Any error is printed and the program exits non-zero.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "audio/wav_file.h"
#include "reef/engine.h"

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::cerr << "usage: " << argv[0] << " MODEL_DIR \"text\" OUT.wav [MAX_FRAMES]\n";
        return 2;
    }
    reef::SynthesisRequest request;
    request.text = argv[2];
    request.sampling.seed = 42;
    if (argc == 5) {
        char* end = nullptr;
        const long frames = std::strtol(argv[4], &end, 10);
        if (end == argv[4] || *end != '\0' || frames < 0 || frames > 1000000) {
            std::cerr << "MAX_FRAMES must be a whole number >= 0 (0 = up to the model's max_seq_len)\n";
            return 2;
        }
        request.sampling.max_new_frames = int(frames);
    }

    reef::EngineConfig config;  // CPU, fp32, eager, libtorch's own SDPA choice, streaming codec
    config.model_dir = argv[1];

    reef::Engine engine;
    const reef::Result<reef::ModelInfo> info = engine.load(config);
    if (!info) {
        std::cerr << "cannot load " << config.model_dir << ": " << info.error().to_string() << "\n";
        return 1;
    }
    std::cout << "loaded " << info->name << "\n";  // a demo model says "random weights": its audio is noise

    reef::Callbacks callbacks;  // all optional; on_audio_chunk would get the audio while it is made
    callbacks.on_frame = [](uint64_t, int frame, const std::vector<int32_t>&) {
        if ((frame + 1) % 100 == 0) std::cout << (frame + 1) << " frames\n";
    };
    const reef::Result<reef::SynthesisResult> result = engine.synthesize(request, callbacks);
    if (!result) {
        std::cerr << "synthesis failed: " << result.error().to_string() << "\n";
        return 1;
    }

    const reef::RunMetrics& m = result->metrics;
    try {
        reef::audio::write_wav(argv[3], result->audio, reef::kSampleRate, 1, reef::audio::WavFormat::Pcm16);
    } catch (const reef::audio::AudioError& e) {
        std::cerr << "cannot write the WAV: " << e.what() << "\n";
        return 1;
    }
    std::cout << "wrote " << argv[3] << ": " << m.audio_seconds << " s of audio, " << m.frames << " frames at "
              << m.warm_frames_per_s << " frames/s (stopped by " << m.stop_reason << ")\n";
    return 0;
}
