// The modded-DAC codec of fish-speech (spec §5): codes (10, T) <-> 44.1 kHz mono PCM, 2048
// samples per frame. Decode, streaming decode and encode; weights from codec.pth or safetensors.
// Every entry point runs under c10::InferenceMode on the calling thread.
#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/tensor_map.h"
#include "codec/codec_config.h"
#include "codec/codec_layers.h"
#include "codec/codec_transformer.h"

namespace reef {

class StreamingDecoder;

class Codec {
public:
    // Reads <model_dir>/codec_config.json (real numbers when absent) and <model_dir>/codec.pth
    // (else codec.safetensors), unwraps/fuses, verifies every key and shape strictly. With
    // encoder_later, the weights only encoding uses (codec_encode_only: half the codec) are read,
    // verified and converted on the first encode() instead: a synthesis that clones no new voice
    // never holds them.
    static std::unique_ptr<Codec> load(const std::string& model_dir, at::Device device, at::ScalarType dtype,
                                       bool encoder_later = false);
    // The same from an in-memory state dict as read from a file (raw: wrappers and weight norm
    // allowed). `what` names the source in errors.
    static std::unique_ptr<Codec> from_state_dict(const CodecConfig& config, TensorMap raw, at::Device device,
                                                  at::ScalarType dtype, const std::string& what);

    Codec(const Codec&) = delete;
    Codec& operator=(const Codec&) = delete;

    // codes: (N, T) integer, any device -> (T * frame_length) float32 CPU in [-1, 1].
    at::Tensor decode(const at::Tensor& codes) const;
    // pcm: (S) float mono at sample_rate -> (N, ceil(S / frame_length)) int64 CPU.
    at::Tensor encode(const at::Tensor& pcm) const;
    std::unique_ptr<StreamingDecoder> streaming_decoder() const;

    int64_t n_parameters() const;   // all of them, the encoder's too while it waits to be read
    bool encoder_loaded() const;
    const CodecConfig& config() const { return m_config; }
    at::Device device() const { return m_device; }
    at::ScalarType dtype() const { return m_dtype; }

    // Pieces of the decode path, for StreamingDecoder and tests.
    // codes (N, T) -> clamped [1, N, T] int64 on the codec device.
    at::Tensor prepare_codes(const at::Tensor& codes) const;
    // [1, N, T] -> codebook projections summed -> post_module -> [1, D, T] (cache: continue a stream).
    at::Tensor codes_to_latent(const at::Tensor& codes, WindowKvCache* cache = nullptr) const;
    // upsample + decoder: [1, D, T] -> [1, 1, T * frame_length]; with `stream`, T frames continuing
    // the chunks decoded through it before (the convs' left context comes from `stream`).
    at::Tensor latent_to_pcm(const at::Tensor& z, ConvStream* stream = nullptr) const;

private:
    // The encoding side: its weights and transformers.
    struct Encoder {
        CodecWeights w;
        std::unique_ptr<WindowTransformer> pre;                        // quantizer.pre_module
        std::vector<std::unique_ptr<WindowTransformer>> transformers;  // per encoder block, may be null
        Encoder(const CodecConfig& config, TensorMap weights);
    };
    // fused: every weight, or (encoder later) the decoding side's
    Codec(CodecConfig config, TensorMap fused, at::Device device, at::ScalarType dtype);
    // Verified and converted to the codec's device and dtype (CPU convolutions channels-last).
    static TensorMap convert(TensorMap raw, const ExpectedShapes& expected, at::Device device, at::ScalarType dtype,
                             const std::string& what);
    // `expected`'s weights read from `file` and converted a block (codec_group) at a time: the
    // float32 storages of one block in memory at once, not the whole file's.
    static TensorMap read_converted(const std::string& file, const ExpectedShapes& expected, at::Device device,
                                    at::ScalarType dtype);
    const Encoder& encoder() const;   // read now if it waits
    at::Tensor run_encoder(const Encoder& e, const at::Tensor& audio) const;  // [1, 1, S] -> [1, D, S / hop]
    at::Tensor run_decoder(const at::Tensor& z, ConvStream* stream) const;  // [1, D, 4T] -> [1, 1, 2048 T]

    CodecConfig m_config;
    CodecWeights m_w;
    at::Device m_device;
    at::ScalarType m_dtype;
    std::unique_ptr<WindowTransformer> m_post;
    std::string m_file;                       // where the encoder waits to be read ("": it never waits)
    mutable std::mutex m_encoder_mutex;
    mutable std::unique_ptr<Encoder> m_encoder;
};

// Frame-by-frame decode as codes arrive, equal to Codec::decode of the whole utterance within
// float rounding (see tst_codec_stream). The post_module transformer continues exactly through a
// per-layer K/V cache of the last window-1 positions; the causal conv stack (upsample + decoder)
// is re-run over [context + new] latent frames with context_frames() of left context (its
// receptive field, computed from the config), and only the new samples are emitted.
class StreamingDecoder {
public:
    explicit StreamingDecoder(const Codec& codec);
    // new_codes: (N, t), t >= 0 -> (t * frame_length) float32 CPU, the samples of these frames.
    at::Tensor push(const at::Tensor& new_codes);
    // Samples still held back: none (the decoder is causal), so an empty tensor; resets the stream.
    at::Tensor finish();
    int64_t frames_pushed() const { return m_frames; }

private:
    const Codec& m_codec;
    WindowKvCache m_cache;  // post_module's window attention
    ConvStream m_convs;     // every conv's left context: each frame is decoded once
    int64_t m_frames = 0;
};


// Writes <dir>/codec.pth (real key names; weight norm stored as the real file does:
// parametrizations original0/1 for the causal convs, weight_g/weight_v for the VQ projections)
// plus codec_config.json and a fish-speech codec_config.yaml. Deterministic for a seed; norms,
// g, snake alpha and layer scales are perturbed away from identity.
void write_demo_codec(const std::string& dir, const std::string& preset, uint64_t seed);
// The raw (stored-form) state dict write_demo_codec saves, for tests and other writers.
TensorMap make_demo_codec_state_dict(const CodecConfig& config, uint64_t seed);

}  // namespace reef
