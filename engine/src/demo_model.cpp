// write_demo_model: a deterministic random-weight model folder in the real file formats
// (tokenizer, config.json, weights, codec), written into a temp folder and renamed into place.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "codec/codec.h"
#include "base/facade_guard.h"
#include "reef/engine.h"
#include "runtime/pipeline.h"
#include "text2semantic/demo_text2semantic.h"
#include "text2semantic/demo_tokenizer.h"

namespace reef {

Status write_demo_model(const std::string& dir, const std::string& preset, const std::string& layout, uint64_t seed) {
    namespace fs = std::filesystem;
    return guarded("demo-model", [&]() -> Status {
        if (preset != "tiny" && preset != "s1-mini" && preset != "s2-pro")
            throw ReefError(ErrorCode::InvalidArgument, "unknown demo preset '" + preset + "' (tiny, s1-mini, s2-pro)");
        if (layout != "s2" && layout != "s1")
            throw ReefError(ErrorCode::InvalidArgument, "unknown demo layout '" + layout + "' (s2, s1)");
        const fs::path target(dir);
        if (fs::exists(target) && !(fs::is_directory(target) && fs::is_empty(target)))
            throw ReefError(ErrorCode::Io, dir + " already exists and is not empty", "choose a new folder");
        if (target.has_parent_path() && !fs::is_directory(target.parent_path()))
            throw ReefError(ErrorCode::Io, "cannot create " + dir + ": folder " + target.parent_path().string() + " does not exist");
        const fs::path tmp = target.string() + ".part-" + std::to_string(::getpid());
        std::error_code ec;
        fs::remove_all(tmp, ec);
        fs::create_directories(tmp);
        try {
            const DemoTokenizerInfo tok = write_demo_tokenizer(tmp.string(), layout, preset);
            write_demo_text2semantic(tmp.string(), preset, layout, tok, seed);
            write_demo_codec(tmp.string(), preset, seed + 1);
            const nlohmann::json marker{{"generator", "reef " REEF_VERSION}, {"preset", preset}, {"layout", layout},
                                        {"seed", seed}, {"note", "random weights: the audio this model makes is noise"}};
            std::ofstream((tmp / kDemoMarker).string()) << marker.dump(2) << "\n";
            fs::remove(target, ec);  // an empty target folder
            fs::rename(tmp, target);
        } catch (...) {
            fs::remove_all(tmp, ec);
            throw;
        }
        return Ok{};
    });
}

}  // namespace reef
