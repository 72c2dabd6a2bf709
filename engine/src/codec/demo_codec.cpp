// Deterministic random-weight codec in the real codec.pth layout (docs/architecture.md, "Adding a model layout").
#include <ATen/CPUGeneratorImpl.h>

#include <filesystem>
#include <fstream>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "codec/codec.h"
#include "codec/codec_weights.h"

namespace reef {
namespace {

int64_t fan_in(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (size_t i = 1; i < shape.size(); ++i) n *= shape[i];
    return std::max<int64_t>(n, 1);
}

// Unit gain everywhere except where a random stack would otherwise blow up: the 1x1 conv closing
// each residual unit (12 of them in series in the decoder) and the last conv before tanh, so the
// demo audio is noise of moderate level rather than a saturated square wave.
double weight_gain(const std::string& key, const CodecConfig& config) {
    const std::string closing = ".block.3.conv.weight";  // only residual units have this suffix
    if (key.size() > closing.size() && key.compare(key.size() - closing.size(), closing.size(), closing) == 0)
        return 0.3;
    if (key == "decoder.model." + std::to_string(config.decoder_rates.size() + 2) + ".conv.weight") return 0.5;
    return 1.0;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw ReefError(ErrorCode::Io, "cannot write " + path.string());
}

}  // namespace

TensorMap make_demo_codec_state_dict(const CodecConfig& config, uint64_t seed) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    const auto f32 = at::TensorOptions().dtype(at::kFloat);
    auto normal = [&](const std::vector<int64_t>& s, double std) { return at::randn(s, gen, f32) * std; };
    auto uniform = [&](const std::vector<int64_t>& s, double lo, double hi) {
        return at::rand(s, gen, f32) * (hi - lo) + lo;
    };
    TensorMap out;
    for (const auto& p : codec_params(config)) {
        switch (p.role) {
            case ParamRole::Weight: {
                const auto w = normal(p.shape, weight_gain(p.key, config) / std::sqrt(double(fan_in(p.shape))));
                if (p.weight_norm == WeightNormKind::None) {
                    out[p.key] = w;
                    break;
                }
                // Store v and a g that is *not* ||v|| (reference-run §5.3), so a fusion bug shows.
                std::vector<int64_t> g_shape(p.shape.size(), 1);
                g_shape[0] = p.shape[0];
                std::vector<int64_t> dims;
                for (int64_t d = 1; d < int64_t(p.shape.size()); ++d) dims.push_back(d);
                const auto g = at::linalg_vector_norm(w, 2, dims, true) * uniform(g_shape, 0.7, 1.3);
                out[weight_norm_g_key(p.key, p.weight_norm)] = g;
                out[weight_norm_v_key(p.key, p.weight_norm)] = w * 3.0;  // v's scale must not matter
                break;
            }
            case ParamRole::Bias: out[p.key] = normal(p.shape, 0.02); break;
            case ParamRole::Norm: out[p.key] = 1.0 + normal(p.shape, 0.1); break;
            case ParamRole::NormBias: out[p.key] = normal(p.shape, 0.05); break;
            case ParamRole::Scale: out[p.key] = uniform(p.shape, 0.05, 0.3); break;
            case ParamRole::Alpha: out[p.key] = uniform(p.shape, 0.5, 2.0); break;
            case ParamRole::Codebook: out[p.key] = normal(p.shape, 1.0); break;
        }
    }
    return out;
}

void write_demo_codec(const std::string& dir, const std::string& preset, uint64_t seed) {
    const CodecConfig config = codec_preset(preset);
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) throw ReefError(ErrorCode::Io, "cannot create model folder " + dir);
    save_pth((fs::path(dir) / "codec.pth").string(), make_demo_codec_state_dict(config, seed));
    write_text(fs::path(dir) / kCodecConfigFile, codec_config_to_json(config));
    write_text(fs::path(dir) / kCodecYamlFile, codec_config_to_yaml(config));
}

}  // namespace reef
