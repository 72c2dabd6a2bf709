// quantize_model (reef/quantize.h): read a model folder's text2semantic weights, quantize the
// linears (text2semantic/quantize_int8.h, quantize_int4.h), write the new folder beside the source's
// other files.
#include "reef/quantize.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "base/facade_guard.h"
#include "checkpoint/safetensors.h"
#include "checkpoint/verify.h"
#include "nn/linear.h"
#include "text2semantic/model_config.h"
#include "text2semantic/model_weights.h"
#include "text2semantic/quantize_int4.h"
#include "text2semantic/quantize_int8.h"

namespace reef {
namespace {
namespace fs = std::filesystem;

// The files that hold text2semantic weights: not copied, the quantized model.safetensors replaces them.
bool is_weight_file(const fs::path& name) {
    const std::string n = name.filename().string();
    return n == "model.safetensors" || n == "model.safetensors.index.json" || n == "model.pth" ||
           n == "quantization.json" || (n.rfind("model-", 0) == 0 && n.ends_with(".safetensors"));
}

void check_target(const fs::path& target) {
    if (fs::exists(target) && !(fs::is_directory(target) && fs::is_empty(target)))
        throw ReefError(ErrorCode::Io, target.string() + " already exists and is not empty", "choose a new folder");
    if (target.has_parent_path() && !fs::is_directory(target.parent_path()))
        throw ReefError(ErrorCode::Io, "cannot create " + target.string() + ": folder " +
                                           target.parent_path().string() + " does not exist");
}

}  // namespace

Result<QuantizeSummary> quantize_model(const std::string& in, const std::string& out, const QuantizeOptions& options) {
    return guarded("quantize", [&]() -> Result<QuantizeSummary> {
        const bool int4 = options.format == "int4";
        if (!int4 && options.format != "int8")
            throw ReefError(ErrorCode::InvalidArgument, "unknown quantization format '" + options.format + "' (int8 or int4)");
        if (int4 && !int4_group_supported(options.group))
            throw ReefError(ErrorCode::InvalidArgument,
                            "int4 group size " + std::to_string(options.group) + " is not one of 32, 64, 128 or 256");
        const fs::path target(out);
        check_target(target);
        if (fs::exists(target) && fs::equivalent(fs::path(in), target))
            throw ReefError(ErrorCode::InvalidArgument, "the output folder is the input folder");
        const DualArConfig config = load_model_config(in);
        const ExpectedShapes expected = expected_shapes(config);
        QuantizeSummary summary;
        // mapped, not copied: each tensor is read once, as it is quantized
        TensorMap weights = read_text2semantic_weights(in, &summary.source, &expected, TensorHome::Mapping);
        for (const auto& [key, t] : weights)
            if (t.scalar_type() == at::kChar || t.scalar_type() == at::kByte || key.ends_with(".scales"))
                throw ReefError(ErrorCode::InvalidArgument, in + " is already quantized (" + key + ")",
                                "quantize the bf16 or fp32 model it was made from");
        verify_state_dict(weights, expected, summary.source);
        std::vector<std::string> linears = linear_weight_keys(config);
        if (options.embeddings)
            for (const std::string& key : embedding_table_keys()) linears.push_back(key);
        if (int4)  // before any work: every projection's inputs must split into whole groups
            for (const std::string& key : linears)
                if (expected.at(key).at(1) % options.group != 0)
                    throw ReefError(ErrorCode::InvalidArgument,
                                    "int4 group size " + std::to_string(options.group) + " does not divide " + key + "'s " +
                                        std::to_string(expected.at(key).at(1)) + " inputs",
                                    "choose a group size that divides every projection's inputs (32 divides those of fish-speech's S1 and S2 models)");
        TensorMap written;
        int done = 0;
        const int total = int(expected.size());
        for (const auto& [key, shape] : expected) {
            const at::Tensor& t = weights.at(key);
            summary.bytes_before += t.nbytes();
            if (std::find(linears.begin(), linears.end(), key) != linears.end()) {
                const std::string stem = key.substr(0, key.size() - 6);  // "x." of "x.weight"
                if (int4) {
                    Int4Weight q = quantize_group_int4(t, options.group);  // an embedding table too: rows = tokens
                    written[key] = q.weight;
                    written[stem + "scales"] = q.scales;
                    written[stem + "zeros"] = q.zeros;
                } else {
                    Int8Weight q = quantize_per_channel_int8(t);
                    written[key] = q.weight;
                    written[stem + "scales"] = q.scales;
                }
                ++summary.quantized;
            } else {
                // quantize.py loads the model in bf16 before it quantizes, so every other tensor it
                // writes (embeddings, norms) is bf16 too: an fp32 or fp16 source's are rounded the
                // same way here, and both folders hold the same values (tst_parity s2_int8_*).
                written[key] = t.is_floating_point() ? t.to(at::kBFloat16).contiguous() : t.contiguous();
                ++summary.kept;
            }
            weights.erase(key);  // the mapping's pages of this tensor can go
            if (options.progress && !options.progress(++done, total, key))
                throw ReefError(ErrorCode::Cancelled, "quantize cancelled: nothing was written");
        }
        for (const auto& [key, t] : written) summary.bytes_after += t.nbytes();

        const fs::path tmp = target.string() + ".part-" + std::to_string(::getpid());
        std::error_code ec;
        fs::remove_all(tmp, ec);
        fs::create_directories(tmp);
        try {
            for (const auto& entry : fs::directory_iterator(in)) {
                if (is_weight_file(entry.path())) continue;
                fs::copy(entry.path(), tmp / entry.path().filename(), fs::copy_options::recursive);
            }
            save_safetensors((tmp / "model.safetensors").string(), written,
                             {{"format", "pt"}, {"reef.quantization", options.format}});
            nlohmann::json marker{
                {"format", options.format},
                {"scheme", int4 ? "weight-only, affine, a bf16 scale and zero per group of input weights; two weights a byte, "
                                  "weight 2j in byte j's low nibble (fish-speech tools/llama/quantize.py --mode int4's "
                                  "arithmetic, Reef's layout)"
                                : "weight-only, symmetric, one scale per output row (fish-speech tools/llama/quantize.py --mode int8)"},
                {"generator", "reef " REEF_VERSION},
                {"source", fs::absolute(summary.source).string()},
                {"quantized", summary.quantized},
                {"bytes_before", summary.bytes_before},
                {"bytes_after", summary.bytes_after}};
            if (int4) marker["group"] = options.group;
            marker["embeddings"] = options.embeddings;
            std::ofstream((tmp / "quantization.json").string()) << marker.dump(2) << "\n";
            fs::remove(target, ec);  // an empty target folder
            fs::rename(tmp, target);
        } catch (...) {
            fs::remove_all(tmp, ec);
            throw;
        }
        return summary;
    });
}

}  // namespace reef
