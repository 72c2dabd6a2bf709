// NumPy .npy files for codes (fish-speech's own format for semantic codes: (10, T) integers).
#pragma once
#include <string>

#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef::cli {

// Reads a 2-D C-order int16/int32/int64 array; the error names the file and what is wrong.
Result<Codes> read_codes_npy(const std::string& path);
// Writes (n_codebooks, n_frames) int64, atomically.
Status write_codes_npy(const std::string& path, const Codes& codes);

}  // namespace reef::cli
