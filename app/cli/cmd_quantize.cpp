// reef-cli quantize IN OUT [--format int8|int4] [--group N]: a model folder's text2semantic weights
// as weight-only int8 or int4 (issue #44; the arithmetic of fish-speech's tools/llama/quantize.py
// --mode int8 / --mode int4). The new folder loads like any other: reef-cli synth -m OUT, the
// studio's model picker.
#include <cstdio>
#include <iostream>

#include "cli_common.h"
#include "cli_engine.h"
#include "reef/quantize.h"

namespace reef::cli {

namespace {
std::string gb(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", double(bytes) / 1e9);
    return buf;
}
}  // namespace

void register_quantize(CLI::App& app) {
    auto* cmd = app.add_subcommand("quantize", "write a model folder with int8 or int4 text2semantic weights (about 1/2 or 1/4 of bf16's size)");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto format = std::make_shared<std::string>("int8");
    auto group = std::make_shared<int>(128);
    auto quiet = std::make_shared<bool>(false);
    auto embeddings = std::make_shared<bool>(false);
    cmd->add_option("in", *in, "the model folder to quantize (bf16 or fp32; any layout Reef loads)")->required();
    cmd->add_option("out", *out, "the folder to create (must not exist yet, or be empty)")->required();
    cmd->add_option("--format", *format,
                    "int8 (weight-only, one scale per output row) or int4 (weight-only, a scale and zero per group)")
        ->check(CLI::IsMember({"int8", "int4"}))
        ->capture_default_str();
    cmd->add_option("--group", *group, "int4: weights per scale and zero (smaller: closer to bf16, a little larger)")
        ->check(CLI::IsMember({32, 64, 128, 256}))
        ->capture_default_str();
    cmd->add_flag("--embeddings", *embeddings,
                  "quantize the token and codebook embedding tables too (smaller; fish-speech's quantize.py keeps them bf16)");
    cmd->add_flag("--quiet", *quiet, "no progress lines");
    cmd->callback([=] {
        QuantizeOptions options;
        options.format = *format;
        options.group = *group;
        options.embeddings = *embeddings;
        int last_tenth = -1;
        options.progress = [&](int done, int total, const std::string&) {
            const int tenth = done * 10 / std::max(total, 1);
            if (!*quiet && tenth != last_tenth) std::cerr << "quantize: " << tenth * 10 << " %\n";
            last_tenth = tenth;
            return true;
        };
        auto r = quantize_model(*in, *out, options);
        if (!r) fail(r.error());
        const QuantizeSummary& s = r.value();
        std::cout << "wrote " << *out << ": " << s.quantized << (*embeddings ? " linear weights and embedding tables in " : " linear weights in ")
                  << (*format == "int4" ? "int4 (group " + std::to_string(*group) + ")" : *format) << ", " << s.kept
                  << " tensors as stored; text2semantic weights " << gb(s.bytes_before) << " -> " << gb(s.bytes_after)
                  << " (read from " << s.source << ")\n";
    });
}

}  // namespace reef::cli
