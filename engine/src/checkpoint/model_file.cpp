#include "checkpoint/model_file.h"

#include <fstream>
#include <sstream>

#include "check.h"

namespace reef {

namespace fs = std::filesystem;

std::string read_model_text(const fs::path& path, uint64_t max_bytes, const char* kind) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw ReefError(ErrorCode::ModelNotFound, path.string() + ": " + kind + " not found");
    // Opening a FIFO or a device would block or never end; only plain files are model files.
    if (!fs::is_regular_file(st))
        throw ReefError(ErrorCode::CorruptModel, path.string() + ": the " + std::string(kind) + " is not a regular file",
                        "model folders hold plain files; replace it with the real file");
    const uint64_t size = fs::file_size(path, ec);
    if (ec) throw ReefError(ErrorCode::Io, path.string() + ": cannot read its size: " + ec.message());
    if (size > max_bytes)
        throw ReefError(ErrorCode::CorruptModel,
                        path.string() + ": the " + kind + " is " + std::to_string(size) + " bytes, more than the " +
                            std::to_string(max_bytes) + "-byte limit for this file (too large)",
                        "re-download the model files");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ReefError(ErrorCode::Io, path.string() + ": cannot open the " + kind);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    // The file may have grown since the size check (still being written); keep the bound.
    if (text.size() > max_bytes)
        throw ReefError(ErrorCode::CorruptModel, path.string() + ": the " + std::string(kind) + " grew past its limit while being read");
    return text;
}

fs::path confined_path(const fs::path& dir, const std::string& name, const std::string& listed_in) {
    auto refuse = [&](const std::string& why) -> fs::path {
        throw ReefError(ErrorCode::CorruptModel,
                        listed_in + ": file name '" + name + "' " + why + " (files must stay inside the model folder)",
                        "the index names files outside its folder; re-download the model");
    };
    if (name.empty()) return refuse("is empty");
    if (name.find('\0') != std::string::npos) return refuse("contains a NUL byte");
    const fs::path rel(name);
    if (rel.is_absolute() || rel.has_root_path()) return refuse("is an absolute path");
    for (const fs::path& part : rel)
        if (part == "..") return refuse("climbs out with '..'");
    // The name is confined; symlinks in the folder are followed, like the folder's own
    // model.safetensors and codec.pth: the Hugging Face hub cache keeps every file of a snapshot
    // as a link into ../../blobs, and a link is something the folder's owner made, unlike the
    // index's text. What a link points at is still read through the same bounded, checked loaders.
    return dir / rel;
}

}  // namespace reef
