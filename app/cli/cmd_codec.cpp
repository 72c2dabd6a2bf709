// reef-cli decode codes.npy -> WAV, and encode ref.wav -> codes.npy.
#include <chrono>
#include <iostream>

#include "cli_common.h"
#include "cli_engine.h"
#include "npy.h"
#ifdef REEF_HAVE_AUDIO
#include "audio/resample.h"
#include "audio/wav_file.h"
#endif

namespace reef::cli {

void register_decode(CLI::App& app) {
    auto flags = std::make_shared<EngineFlags>();
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("decode", "codes (.npy, (10, T)) -> 44.1 kHz WAV through the codec");
    cmd->add_option("codes", *in, "codes file (.npy)")->required();
    flags->add_to(cmd);
    cmd->add_option("--out,-o", *out, "WAV file to write")->required();
    cmd->callback([=] {
        Codes codes = unwrap(read_codes_npy(*in));
        Engine engine;
        load_or_fail(engine, flags->to_config());
        const auto t0 = std::chrono::steady_clock::now();
        auto pcm = unwrap(engine.decode_codes(codes));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
#ifdef REEF_HAVE_AUDIO
        try {
            audio::write_wav(*out, pcm, kSampleRate);
        } catch (const std::exception& e) {
            fail(e.what());
        }
#else
        fail("this build cannot write WAV files (REEF_BUILD_AUDIO=OFF)");
#endif
        std::cout << "decoded " << codes.n_frames << " frames in " << ms << " ms -> " << *out << " ("
                  << double(pcm.size()) / kSampleRate << " s)\n";
    });
}

void register_encode(CLI::App& app) {
    auto flags = std::make_shared<EngineFlags>();
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("encode", "reference audio (WAV/FLAC/OGG, any rate) -> codes (.npy) for cloning");
    cmd->add_option("audio", *in, "audio file")->required();
    flags->add_to(cmd);
    cmd->add_option("--out,-o", *out, "codes file to write (.npy)")->required();
    cmd->callback([=] {
#ifdef REEF_HAVE_AUDIO
        std::vector<float> pcm;
        try {
            pcm = audio::load_reference_audio(*in);
        } catch (const std::exception& e) {
            fail(e.what());
        }
        Engine engine;
        load_or_fail(engine, flags->to_config());
        Codes codes = unwrap(engine.encode_reference(pcm));
        auto st = write_codes_npy(*out, codes);
        if (!st) fail(st.error());
        std::cout << "encoded " << *in << " -> " << *out << " (" << codes.n_codebooks << " x " << codes.n_frames << ")\n";
#else
        fail("this build has no audio import (REEF_BUILD_AUDIO=OFF)");
#endif
    });
}

}  // namespace reef::cli
