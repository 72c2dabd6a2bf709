#include "codec/codec_folder.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <vector>

#include "check.h"
#include "checkpoint/model_file.h"
#include "input_limits.h"

namespace reef {
namespace {

namespace fs = std::filesystem;

bool holds_codec(const fs::path& dir) {
    std::error_code ec;
    for (const char* name : {"codec.pth", "codec.safetensors"})
        if (fs::is_regular_file(dir / name, ec)) return true;
    return false;
}

// config.json's bytes, or nothing where it is missing, not a regular file or larger than any real one
std::optional<std::string> config_bytes(const fs::path& dir) {
    try {
        return read_model_text(dir / "config.json", limits::kMaxConfigFileBytes, "config file");
    } catch (const ReefError&) {
        return std::nullopt;
    }
}

}  // namespace

std::string codec_folder(const std::string& model_dir) {
    const fs::path dir(model_dir);
    if (holds_codec(dir)) return model_dir;
    const std::optional<std::string> config = config_bytes(dir);
    std::error_code ec;
    const fs::path self = fs::weakly_canonical(dir, ec);
    if (!config || ec) return {};
    const fs::path parent = self.parent_path();
    // A checkpoints folder holds a handful of models; a folder with thousands of entries is not one.
    constexpr size_t kMostSiblings = 4096;
    std::vector<fs::path> siblings;
    for (fs::directory_iterator it(parent, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (siblings.size() == kMostSiblings) return {};
        std::error_code kind;
        if (it->is_directory(kind) && it->path() != self) siblings.push_back(it->path());
    }
    std::sort(siblings.begin(), siblings.end());
    for (const fs::path& s : siblings)
        if (holds_codec(s) && config_bytes(s) == config) return s.string();
    return {};
}

void throw_no_codec(const std::string& model_dir, const std::string& why, const std::string& extra_hint) {
    throw ReefError(ErrorCode::ModelNotFound, model_dir + " has no codec.pth " + why,
                    "copy the model's codec.pth into it (fish-speech's quantize.py leaves it out of the folder it "
                    "writes; Reef also takes it from the folder that was quantized, when that lies beside it with "
                    "the same config.json)" + (extra_hint.empty() ? "" : ", " + extra_hint));
}

}  // namespace reef
