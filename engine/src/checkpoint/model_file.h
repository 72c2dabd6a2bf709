// Checked access to the files of a model folder. A folder downloaded from the internet may hold a
// FIFO where config.json should be (reading it would block forever), a 50 GB "config", or an index
// that names "../../etc/shadow"; these helpers refuse such files with an error naming them.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace reef {

// Reads a whole small file (JSON configs, tokenizers). Throws ReefError: ModelNotFound when
// absent, CorruptModel when it is not a regular file or is larger than max_bytes; `kind` names
// the file's role in the message ("config file", "tokenizer").
std::string read_model_text(const std::filesystem::path& path, uint64_t max_bytes, const char* kind);

// The file `name` (as written in `listed_in`, e.g. a shard of model.safetensors.index.json)
// inside `dir`. Throws ReefError(CorruptModel) naming both when the name is absolute or has a ".."
// component. Symlinks inside `dir` are followed (the Hugging Face cache's snapshot layout).
std::filesystem::path confined_path(const std::filesystem::path& dir, const std::string& name,
                                    const std::string& listed_in);

}  // namespace reef
