// reef-cli quantize and the studio's "quantize this model" (issue #44): a model folder's
// text2semantic weights rewritten as weight-only int8, the arithmetic of fish-speech's
// tools/llama/quantize.py --mode int8, so a folder made here and one made there hold the same bytes;
// or as int4, the arithmetic of quantize.py --mode int4 in Reef's packed layout (quantize.py's own
// file holds the tiles of one CUDA kernel; kernels/gemv_int4.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef {

struct QuantizeOptions {
    std::string format = "int8";  // "int8" or "int4"
    int group = 128;              // int4: weights per scale and zero (32, 64, 128 or 256)
    // The token and codebook embedding tables quantized too, in the same format (quantize.py keeps
    // them bf16, so an int8 folder made with this no longer holds quantize.py's bytes): S2-Pro's
    // 1.0 GB of bf16 tables become 0.5 (int8) or 0.27 GB (int4).
    bool embeddings = false;
    // Called after each tensor: done of total, the key. Return false to cancel (nothing is written).
    std::function<bool(int done, int total, const std::string& key)> progress;
};

struct QuantizeSummary {
    std::string source;             // the weight file read
    int quantized = 0;              // linear weights now int8 or int4
    int kept = 0;                   // other tensors (embeddings, norms, biases), in bf16 as quantize.py writes them
    uint64_t bytes_before = 0;      // text2semantic weights as read
    uint64_t bytes_after = 0;       // as written (int8/int4 weights, bf16 scales (and zeros), the rest bf16)
};

// Reads `in` (any text2semantic layout Reef loads: safetensors, sharded, model.pth), quantizes
// every linear projection per output row (scale = max|w| / 127.5 in fp32, stored as bf16; int8 =
// round-half-even(w / scale) clamped to [-128, 127]; weights first rounded to bf16 as quantize.py
// loads them) -- or, for int4, per group of `group` weights (text2semantic/quantize_int4.h) -- and
// writes `out`: model.safetensors (internal names, the int8 weights and their ".scales" or the
// packed int4 weights with ".scales" and ".zeros", every other tensor in bf16 as quantize.py's bf16
// load leaves it), quantization.json naming the format, and every other file of `in` (config,
// tokenizer, codec) copied. Written into a temp folder renamed into place: never half a model.
// `out` must not exist (or be empty).
Result<QuantizeSummary> quantize_model(const std::string& in, const std::string& out, const QuantizeOptions& options = {});

// What a model folder's text2semantic model will occupy once loaded at `precision`, read from its
// config.json alone (no weights are read; cheap enough for a model picker): as it is stored (int8
// or float) and as an int8 copy would. The figures the load's memory check uses (weights and the
// RoPE table); the codec and the KV cache come on top.
struct ModelFolderSize {
    bool int8 = false;            // the folder holds int8 weights (quantize.py's or Reef's)
    std::string format;           // "" (float), "int8", "int4-g128", ...: as the folder says
    uint64_t bytes = 0;           // at `precision`, or as quantized where the folder is
    uint64_t int8_bytes = 0;      // the same model in int8
    uint64_t int4_bytes = 0;      // the same model in int4, group 128
};
Result<ModelFolderSize> model_folder_size(const std::string& dir, Precision precision);

}  // namespace reef
