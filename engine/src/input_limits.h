// The one place where Reef bounds what a model folder may ask for. Model folders come from the
// internet, so every number read from a file is checked against these limits before it sizes an
// allocation, a loop or a divisor; a value outside them is a CorruptModel error naming the file
// and the field.
//
// The limits sit 8-16x (or more) above the largest real checkpoints (their config.json
// files, modded_dac_vq.yaml): S2-Pro (dim 2560, 36 layers, 32 heads, head_dim 128, intermediate 9728, vocab 155776,
// max_seq_len 32768, codebook 4096 x 10) and OpenAudio S1-mini (dim 1024, 28 layers, vocab 155776,
// max_seq_len 8192). They stop absurd values (a 2^40-row vocab, 10^9 layers); whether a model that
// passes them fits this machine is the memory check's question (memory_check.h).
#pragma once
#include <cstdint>

namespace reef::limits {

// --- text2semantic config.json (both layouts) ---
inline constexpr int64_t kMaxDim = 65536;             // dim / fast_dim: 16x S2's 4096-wide ceiling
inline constexpr int64_t kMaxIntermediate = 262144;   // 27x S2's 9728
inline constexpr int64_t kMaxLayers = 1024;           // n_layer / n_fast_layer: 28x S2's 36
inline constexpr int64_t kMaxHeads = 1024;            // n_head / n_local_heads: 32x S2's 32
inline constexpr int64_t kMaxHeadDim = 2048;          // 16x S2's 128
inline constexpr int64_t kMaxVocab = int64_t(1) << 22;       // 4.2M ids: 27x 155776 (also tokenizer ids)
inline constexpr int64_t kMaxSeqLen = int64_t(1) << 19;      // 524288 positions: 16x S2's 32768
inline constexpr int64_t kMaxCodebookSize = 65536;    // 16x 4096
inline constexpr int64_t kMaxCodebooks = 160;         // 16x 10
inline constexpr double kMaxRopeBase = 1e12;          // real 1e6; rope_base must also be > 1

// --- codec_config.json ---
inline constexpr int64_t kMaxCodecRate = 64;          // each encoder/decoder stride; real ones are 2..8
inline constexpr int64_t kMaxCodecBlocks = 16;        // rate-list length; real 4
inline constexpr int64_t kMaxCodecHop = 65536;        // prod(rates); real 512
inline constexpr int64_t kMinSampleRate = 1000;       // codec and imported audio
inline constexpr int64_t kMaxSampleRate = 768000;     // the highest rate audio interfaces offer
inline constexpr int64_t kMaxCodecWindow = 1 << 20;   // attention windows; real 128 / 512

// --- files ---
inline constexpr uint64_t kMaxConfigFileBytes = 16ull << 20;     // config.json, codec_config.json, special_tokens.json (real: < 4 KB)
inline constexpr uint64_t kMaxTokenizerFileBytes = 512ull << 20; // tokenizer.json / .tiktoken (real: ~7 MB / ~2.5 MB)
inline constexpr uint64_t kMaxIndexFileBytes = 64ull << 20;      // model.safetensors.index.json (real: ~60 KB)
inline constexpr int64_t kMaxTensors = 1 << 20;                  // tensors in one checkpoint (real: ~500 LM, ~1500 codec)

// --- .pth pickles ---
// Nodes visited while flattening the unpickled tree. The memo lets a pickle share one sub-dict
// under many keys, so a few hundred bytes can describe 2^32 paths; real state dicts visit a few
// thousand nodes.
inline constexpr int64_t kMaxPickleNodes = 1 << 21;
inline constexpr int kMaxPickleDepth = 32;

// --- tokenizer pre-tokenizer regex (PCRE2, per pcre2_match call) ---
// Real patterns need a few dozen steps per piece; a pattern from a hostile tokenizer.json with
// catastrophic backtracking hits these and the encode fails with an error instead of hanging.
inline constexpr uint32_t kRegexMatchLimit = 1000000;  // pcre2_set_match_limit (default 10M)
inline constexpr uint32_t kRegexDepthLimit = 10000;    // pcre2_set_depth_limit (interpreter only)
inline constexpr uint32_t kRegexHeapLimitKiB = 64 * 1024;

}  // namespace reef::limits
