// Where a model's codec weights are (codec.pth or codec.safetensors).
//
// Normally beside the text2semantic weights. fish-speech's tools/llama/quantize.py, though, writes
// its int8 (and int4) model as a copy of the model folder with codec.pth deleted from the copy
// (checkpoints/fs-1.2-int8-<time>, beside the folder it quantized): a user pointed at that folder
// has the codec one folder over. That folder is recognised as the one the copy was made from: it
// lies beside the model folder, holds a codec file, and its config.json is byte for byte the model
// folder's (quantize.py copies it unchanged; a different model has a different one).
#pragma once
#include <string>

namespace reef {

// model_dir itself where it holds a codec file; else the first folder beside it (by name) that
// holds one and the same config.json; else "" (no codec: codes only). Never throws: a folder that
// cannot be read is passed over.
std::string codec_folder(const std::string& model_dir);

// The error for a model loaded without a codec when audio is asked of it: "<model_dir> has no
// codec.pth <why>", with where one goes (and `extra_hint`, e.g. "or generate codes only").
[[noreturn]] void throw_no_codec(const std::string& model_dir, const std::string& why, const std::string& extra_hint = "");

}  // namespace reef
