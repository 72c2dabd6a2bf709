#include "runtime/pipeline.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "base/cpu_cores.h"
#include "base/trim_heap.h"
#include "check.h"
#include "checkpoint/verify.h"
#include "codec/codec_config.h"
#include "codec/codec_folder.h"
#include "codec/codec_weights.h"
#include "runtime/device.h"
#include "runtime/synthesis.h"
#include "text2semantic/model_config.h"

namespace reef {
namespace {

namespace fs = std::filesystem;

// "S2-Pro", "S1-mini", "demo tiny (S2 layout)", or a generic description.
std::string describe_model(const DualArConfig& c, const std::string& dir, bool* is_demo) {
    const fs::path marker = fs::path(dir) / kDemoMarker;
    if (fs::exists(marker)) {
        *is_demo = true;
        try {
            std::ifstream in(marker);
            const auto j = nlohmann::json::parse(in);
            return "demo " + j.value("preset", std::string("model")) + " (" + j.value("layout", std::string("?")) +
                   " layout, random weights)";
        } catch (const std::exception&) {
            return "demo model (random weights)";
        }
    }
    *is_demo = false;
    if (c.layout == ModelLayout::S2 && c.n_layer == 36 && c.dim == 2560) return "S2-Pro";
    if (c.layout == ModelLayout::S1 && c.n_layer == 28 && c.dim == 1024) return "OpenAudio S1-mini";
    return std::string(c.layout == ModelLayout::S2 ? "fish_qwen3_omni" : "dual_ar") + " " + std::to_string(c.n_layer) +
           "-layer model";
}

}  // namespace

std::unique_ptr<Pipeline> load_pipeline(const EngineConfig& config) {
    if (!fs::is_directory(config.model_dir))
        throw ReefError(ErrorCode::ModelNotFound, "model folder not found: " + config.model_dir,
                        "point Reef at a fish-speech S2-Pro or S1-mini folder, or create one with reef-cli demo-model");
    require_device(config.device, config.device_index, config.precision);
    // Refused before any weights are read (issue #47): a combination that only Generate would refuse.
    check_compile_mode(config.compile_mode, config.device);
    check_sdpa_policy(config.sdpa_policy, config.compile_mode, config.device);
    if (config.cpu_threads < 0) throw ReefError(ErrorCode::InvalidArgument, "cpu_threads must be >= 0 (0 = libtorch's default)");
    // Both directions: 0 puts the default back after an earlier load asked for more or fewer.
    const int threads = apply_cpu_threads(config.cpu_threads);
    if (config.kv_margin < 0) throw ReefError(ErrorCode::InvalidArgument, "kv_margin must be >= 0");
    if (config.codec_threads < 0)
        throw ReefError(ErrorCode::InvalidArgument, "codec_threads must be >= 0 (0 = as many as generation uses)");

    auto p = std::make_unique<Pipeline>();
    p->config = config;
    const at::Device device = to_torch_device(config.device, config.device_index);
    const at::ScalarType dtype = to_scalar_type(config.precision);
    p->tokenizer = Tokenizer::load(config.model_dir);
    // The codec first: its load reads codec.pth whole and converts it (~2x its size in passing,
    // S2-Pro's: 2.1 GB), which then comes and goes before the text2semantic weights are resident
    // rather than on top of them (S2-Pro int4: synth's peak RSS 5.49 GB with the codec last).
    // Beside the weights, or in the folder fish-speech's quantize.py copied them from (codec/codec_folder.h)
    const std::string codec_dir = codec_folder(config.model_dir);
    const bool has_codec = !codec_dir.empty();
    // A model that cannot fit beside its codec is refused before the codec is read, not after. The
    // codec's figure comes from its config (an unreadable one: the codec's load says why).
    uint64_t codec_bytes = 0;
    if (config.load_codec && has_codec) try {
        codec_bytes = expected_bytes(codec_expected_shapes(load_codec_config(codec_dir)), codec_dtype(device, dtype));
    } catch (const ReefError&) {
    }
    require_dual_ar_memory(config.model_dir, device, dtype, codec_bytes);
    if (config.load_codec && has_codec) {
        // The encoder (half the codec) is read on the first reference clip to encode: a synthesis
        // that clones no new voice never holds it (S2-Pro: 0.41 GB in bf16).
        p->codec = Codec::load(codec_dir, device, codec_dtype(device, dtype), /*encoder_later=*/true);
        trim_heap();
    }
    p->model = load_dual_ar_model(config.model_dir, device, dtype);
    trim_heap();
    // fish-speech injects the semantic range from the tokenizer at load (spec §2.2 step 2).
    if (p->tokenizer->semantic_begin_id() < 0)
        throw ReefError(ErrorCode::CorruptModel, config.model_dir + ": the tokenizer has no <|semantic:N|> tokens");
    p->model->set_semantic_range(p->tokenizer->semantic_begin_id(), p->tokenizer->semantic_end_id());
    p->ids = {p->tokenizer->semantic_begin_id(), p->tokenizer->semantic_end_id(), p->tokenizer->im_end_id()};
    if (p->tokenizer->vocab_size() > p->model->config().vocab_size)
        throw ReefError(ErrorCode::ShapeMismatch,
                        config.model_dir + ": the tokenizer has " + std::to_string(p->tokenizer->vocab_size()) +
                            " ids but the model's vocab_size is " + std::to_string(p->model->config().vocab_size));


    const DualArConfig& c = p->model->config();
    ModelInfo& info = p->info;
    info.model_dir = config.model_dir;
    info.model_type = c.model_type;
    info.name = describe_model(c, config.model_dir, &info.is_demo);
    info.n_parameters = p->model->n_parameters();
    info.codec_parameters = p->codec ? p->codec->n_parameters() : 0;
    if (p->codec && codec_dir != config.model_dir) info.codec_dir = codec_dir;
    info.max_seq_len = int(c.max_seq_len);
    info.num_codebooks = int(c.num_codebooks);
    info.device = config.device;
    info.precision = config.precision;
    info.weights = p->model->weight_format().name();
    info.weight_bytes = p->model->weight_bytes();
    info.cpu_threads = threads;
    return p;
}

at::Tensor codes_to_tensor(const Codes& codes, int64_t n_codebooks, const std::string& what) {
    if (codes.n_codebooks != n_codebooks)
        throw ReefError(ErrorCode::InvalidArgument, what + " has " + std::to_string(codes.n_codebooks) +
                                                        " codebooks; this model needs " + std::to_string(n_codebooks));
    if (codes.n_frames <= 0) throw ReefError(ErrorCode::InvalidArgument, what + " holds no frames");
    if (codes.data.size() != size_t(codes.n_codebooks) * size_t(codes.n_frames))
        throw ReefError(ErrorCode::InvalidArgument, what + ": data size does not match its shape");
    for (int32_t v : codes.data)
        if (v < 0) throw ReefError(ErrorCode::InvalidArgument, what + " holds a negative code (" + std::to_string(v) + ")");
    return at::tensor(at::ArrayRef<int32_t>(codes.data), at::kInt)
        .view({codes.n_codebooks, codes.n_frames})
        .to(at::kLong);
}

Codes tensor_to_codes(const at::Tensor& codes) {
    REEF_CHECK(codes.dim() == 2, "codes must be (N, T)");
    const at::Tensor c = codes.to(at::kCPU).to(at::kInt).contiguous();
    Codes out;
    out.n_codebooks = int(c.size(0));
    out.n_frames = int(c.size(1));
    out.data.assign(c.data_ptr<int32_t>(), c.data_ptr<int32_t>() + c.numel());
    return out;
}

}  // namespace reef
