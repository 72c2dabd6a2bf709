// codec_config.json through codec_config_from_json (rates, block counts, hop, windows and the
// quantizer transformer). As for config.json, an accepted config must read back after writing.
#include "codec/codec_config.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string written;
    reef::fuzz::expect_clean([&] {
        const reef::CodecConfig c = reef::codec_config_from_json(text, "codec_config.json");
        // The derived sizes the codec allocates with; validate() has bounded them.
        (void)c.latent_dim();
        (void)c.frame_length();
        for (size_t i = 0; i < c.encoder_rates.size(); ++i) (void)c.encoder_block_dim(i);
        for (size_t i = 0; i < c.decoder_rates.size(); ++i) (void)c.decoder_block_out(i);
        written = reef::codec_config_to_json(c);
    });
    if (!written.empty()) {
        try {
            (void)reef::codec_config_from_json(written, "rewritten codec_config.json");
        } catch (const std::exception& e) {
            reef::fuzz::finding("an accepted codec config does not read back after writing", e.what());
        }
    }
    return 0;
}
