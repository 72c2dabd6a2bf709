// reef-cli sdpa-bench: one decode SDPA call per backend at a model's real attention dims
// (fish-speech PR #1337's kernel table, reproduced on this machine).
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "cli_engine.h"
#include "reef/sdpa_bench.h"

namespace reef::cli {
namespace {

struct SdpaBenchOptions {
    std::string model_dir, preset, widths = "128,512,2048,8192,32768", mask = "both";
    std::string device = "cpu", precision = "bf16", backends = "math,flash,efficient,cudnn,reef";
    std::string json, md;
    bool no_fast = false;
    SdpaBenchRequest req;
};

std::vector<std::string> split(const std::string& list, const std::string& flag) {
    std::vector<std::string> out;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');) {
        if (item.empty()) fail(flag + " '" + list + "' has an empty entry");
        out.push_back(item);
    }
    if (out.empty()) fail(flag + " is empty");
    return out;
}

std::vector<int64_t> parse_widths(const std::string& list) {
    std::vector<int64_t> widths;
    for (const std::string& item : split(list, "--widths")) {
        if (item.find_first_not_of("0123456789") != std::string::npos || item.size() > 12)
            fail("--widths: '" + item + "' is not a whole number of keys (e.g. --widths 128,512,2048)");
        const int64_t w = std::stoll(item);
        if (w == 0) fail("--widths: a key width of 0 attends to nothing; widths start at 1");
        widths.push_back(w);
    }
    return widths;
}

std::vector<SdpaBackend> parse_backends(const std::string& list) {
    std::vector<SdpaBackend> out;
    for (const std::string& item : split(list, "--backends")) {
        if (item == "math") out.push_back(SdpaBackend::Math);
        else if (item == "flash") out.push_back(SdpaBackend::Flash);
        else if (item == "efficient") out.push_back(SdpaBackend::Efficient);
        else if (item == "cudnn") out.push_back(SdpaBackend::Cudnn);
        else if (item == "reef") out.push_back(SdpaBackend::Reef);
        else fail("--backends: unknown backend '" + item + "' (math, flash, efficient, cudnn, reef)");
    }
    return out;
}

}  // namespace

void register_sdpa_bench(CLI::App& app) {
    auto o = std::make_shared<SdpaBenchOptions>();
    auto* cmd = app.add_subcommand(
        "sdpa-bench", "time one decode SDPA call per backend at a model's attention dims (no weights needed)");
    cmd->footer(
        "Prints a Markdown table: per (mask, key width, backend) the median time per call, that time x the slow "
        "layers (slow transformer only), the backend that actually ran, and max |diff| against MATH; then the "
        "fast decoder's attention per frame. Backends that cannot run are listed with libtorch's reason.\n"
        "Exit status: 0 when the table was measured, 1 on bad input or errors.");
    auto* m = cmd->add_option("--model,-m", o->model_dir, "model folder (reads only its config.json)");
    auto* p = cmd->add_option("--preset", o->preset, "s1-mini | s2-pro (the released models' dims)");
    m->excludes(p);
    cmd->add_option("--widths", o->widths, "comma-separated key widths W")->capture_default_str();
    cmd->add_option("--mask", o->mask, "active (#1312 prefix) | full (whole cache + mask) | both")->capture_default_str();
    cmd->add_option("--backends", o->backends, "comma-separated backends to force")->capture_default_str();
    cmd->add_option("--device", o->device, "cpu | cuda")->capture_default_str();
    cmd->add_option("--precision", o->precision, "fp32 | bf16 | fp16")->capture_default_str();
    cmd->add_option("--threads", o->req.cpu_threads, "CPU threads for libtorch (0 = default)");
    cmd->add_option("--iters", o->req.iters, "timed calls per cell (median)")->capture_default_str();
    cmd->add_option("--warmup", o->req.warmup, "untimed calls before them")->capture_default_str();
    cmd->add_option("--seed", o->req.seed, "seed of the random q/k/v")->capture_default_str();
    cmd->add_flag("--no-fast", o->no_fast, "leave out the fast decoder's attention");
    cmd->add_option("--json", o->json, "write the JSON report (schema reef-sdpa-bench/1)");
    cmd->add_option("--md", o->md, "write the Markdown report");
    cmd->callback([o] {
        install_interrupt_handler();
        if (o->model_dir.empty() && o->preset.empty()) fail("give a model folder (-m DIR) or --preset s1-mini|s2-pro");
        SdpaBenchRequest req = o->req;
        req.model_dir = o->model_dir;
        req.preset = o->preset;
        req.widths = parse_widths(o->widths);
        req.backends = parse_backends(o->backends);
        req.include_fast = !o->no_fast;
        if (o->mask == "both") req.masks = {SdpaBenchMask::Active, SdpaBenchMask::Full};
        else if (auto mask = parse_sdpa_bench_mask(o->mask)) req.masks = {*mask};
        else fail("--mask: unknown value '" + o->mask + "' (active, full, both)");
        auto device = parse_device_spec(o->device);
        if (!device) fail("--device: unknown value '" + o->device + "' (cpu, cuda, cuda:N, mps)");
        req.device = device->kind;
        req.device_index = device->index;
        auto precision = parse_precision(o->precision);
        if (!precision) fail("--precision: unknown value '" + o->precision + "' (fp32, bf16, fp16)");
        req.precision = *precision;

        Engine engine;
        const SdpaBenchReport report = unwrap(
            engine.sdpa_bench(req, [](const std::string& msg) { std::cerr << "[sdpa-bench] " << msg << "\n"; },
                              [] { return interrupted(); }));
        std::cout << sdpa_bench_markdown(report);
        for (auto [path, writer] : {std::pair{o->json, &write_sdpa_bench_json}, std::pair{o->md, &write_sdpa_bench_markdown}}) {
            if (path.empty()) continue;
            auto st = writer(report, path);
            if (!st) fail(st.error());
            std::cerr << "wrote " << path << "\n";
        }
    });
}

}  // namespace reef::cli
