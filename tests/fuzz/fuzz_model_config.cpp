// config.json of the text2semantic model, both layouts (S2 nested fish_qwen3_omni, S1 flat
// dual_ar), through parse_model_config. A config it accepts must also survive the writer and a
// second parse: Reef writes configs back (demo models, conversions) and must read what it wrote.
#include "fuzz_common.h"
#include "text2semantic/model_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string written;
    reef::fuzz::expect_clean([&] { written = reef::model_config_to_json(reef::parse_model_config(text)); });
    if (!written.empty()) {
        try {
            (void)reef::parse_model_config(written, "rewritten config.json");
        } catch (const std::exception& e) {
            reef::fuzz::finding("an accepted config does not read back after writing", e.what());
        }
    }
    return 0;
}
