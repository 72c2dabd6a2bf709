#include "study/sdpa_bench_runner.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <set>

#include "base/cpu_cores.h"
#include "base/perf.h"
#include "check.h"
#include "memory_check.h"
#include "runtime/device.h"
#include "study/sdpa_case.h"
#include "text2semantic/model_config.h"

namespace reef {
namespace {

constexpr int64_t kMaxWidth = int64_t(1) << 24;           // 16M keys: beyond any fish-speech cache
constexpr int64_t kMaxCaptureElements = int64_t(1) << 20;  // capture_tensors is for tests
constexpr double kMemoryShare = 0.5;                       // of what is free now: others use the machine too

[[noreturn]] void bad(const std::string& msg, const std::string& hint = {}) {
    throw ReefError(ErrorCode::InvalidArgument, "sdpa-bench: " + msg, hint);
}

SdpaBenchModel model_from_config(const DualArConfig& c, std::string name) {
    SdpaBenchModel m;
    m.name = std::move(name);
    m.slow = {c.n_head, c.n_local_heads, c.head_dim, c.n_layer};
    m.fast = {c.fast_n_head, c.fast_n_local_heads, c.fast_head_dim, c.n_fast_layer};
    m.max_seq_len = c.max_seq_len;
    m.num_codebooks = c.num_codebooks;
    return m;
}

void check_dims(const AttentionDims& d, const char* which) {
    if (d.n_head <= 0 || d.n_kv_heads <= 0 || d.head_dim <= 0 || d.n_layer < 0)
        bad(std::string(which) + " attention dims must be positive");
    if (d.n_head % d.n_kv_heads != 0) bad(std::string(which) + " query heads must be a multiple of the KV heads");
}

void validate(const SdpaBenchRequest& r, const SdpaBenchModel& m) {
    check_dims(m.slow, "slow");
    if (m.slow.n_layer <= 0) bad("the slow transformer has no layers");
    if (m.max_seq_len <= 0) bad("max_seq_len must be positive");
    if (r.include_fast && m.fast.n_layer > 0) {
        check_dims(m.fast, "fast");
        if (m.num_codebooks <= 0) bad("num_codebooks must be positive for the fast decoder");
    }
    if (r.widths.empty()) bad("no key widths given", "e.g. --widths 128,512,2048");
    for (const int64_t w : r.widths) {
        if (w <= 0) bad("key width " + std::to_string(w) + " is not positive", "widths count keys: 1 or more");
        if (w > kMaxWidth) bad("key width " + std::to_string(w) + " is larger than " + std::to_string(kMaxWidth));
    }
    if (r.masks.empty()) bad("no mask variant given", "active, full or both");
    if (r.backends.empty()) bad("no backend given", "math, flash, efficient, cudnn");
    std::set<SdpaBackend> seen;
    for (const SdpaBackend b : r.backends) {
        policy_for(b);  // throws for a backend that cannot be forced
        if (!seen.insert(b).second) bad(std::string("backend '") + to_string(b) + "' is listed twice");
    }
    if (r.iters < 1) bad("--iters must be at least 1");
    if (r.warmup < 0) bad("--warmup must not be negative");
    if (r.cpu_threads < 0) bad("--threads must not be negative");
}

std::string gib(int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(int64_t(1) << 30));
    return buf;
}

std::vector<float> to_floats(const at::Tensor& t) {
    const at::Tensor f = t.to(at::kCPU, at::kFloat).contiguous();
    return std::vector<float>(f.data_ptr<float>(), f.data_ptr<float>() + f.numel());
}

double max_abs_diff(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(at::kFloat) - b.to(at::kFloat)).abs().max().item<double>();  // in fp32, as the table says
}

std::string iso_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

struct Runner {
    const SdpaBenchRequest& req;
    const SdpaBenchModel& model;
    at::ScalarType dtype;
    at::Device device;
    const std::function<void(const std::string&)>& progress;
    const std::function<bool()>& should_abort;

    void check_abort() const {
        if (should_abort && should_abort()) throw ReefError(ErrorCode::Cancelled, "sdpa-bench cancelled");
    }
    void say(const std::string& msg) const {
        if (progress) progress(msg);
    }

    bool wants(SdpaBenchMask m) const { return std::find(req.masks.begin(), req.masks.end(), m) != req.masks.end(); }

    // All rows of one width: both masks share one cache (active attends over its first W rows).
    std::vector<SdpaBenchRow> width_rows(int64_t width) const {
        const int64_t rows = find_multiple(wants(SdpaBenchMask::Full) ? std::max(width, model.max_seq_len) : width, 8);
        const int64_t need = sdpa_bench_bytes(model.slow, rows, int64_t(c10::elementSize(dtype)));
        // the same figure the engine's memory checks use (cgroup limits included)
        const std::optional<uint64_t> free_bytes = available_memory(to_torch_device(req.device, req.device_index));
        const int64_t avail = free_bytes ? int64_t(std::min<uint64_t>(*free_bytes, INT64_MAX)) : -1;
        std::string skipped;
        if (avail >= 0 && double(need) > kMemoryShare * double(avail))
            skipped = "skipped: needs about " + gib(need) + " (cache of " + std::to_string(rows) +
                      " rows + MATH's fp32 K/V copies and scores) but only " + gib(avail) + " is free on " +
                      to_string(req.device);
        if (req.capture_tensors && model.slow.n_kv_heads * rows * model.slow.head_dim > kMaxCaptureElements)
            bad("capture_tensors is only for small configurations (at most 1M cache elements)");

        std::vector<SdpaBenchRow> out;
        std::optional<DecodeAttentionCase> c;
        if (skipped.empty()) c = make_decode_case(model.slow, width, rows, dtype, device, req.seed);
        for (const SdpaBenchMask mask : req.masks) {
            SdpaBenchRow row;
            row.mask = mask;
            row.width = width;
            row.estimated_bytes = need;
            row.skipped = skipped;
            if (!c) {
                row.kv_rows = mask == SdpaBenchMask::Full ? rows : width;
                for (const SdpaBackend b : req.backends) {
                    SdpaBenchCell cell;
                    cell.requested = b;
                    cell.reason = skipped;
                    row.cells.push_back(std::move(cell));
                }
                out.push_back(std::move(row));
                say(std::string(to_string(mask)) + " W=" + std::to_string(width) + ": " + skipped);
                continue;
            }
            const DecodeAttentionCall call = decode_call(*c, mask);
            row.kv_rows = call.k.size(2);
            run_cells(row, call, CallSite::SlowDecode);
            if (req.capture_tensors) {
                row.q = to_floats(call.q[0].select(1, 0));  // [Hq, D]
                row.k = to_floats(call.k[0]);               // [Hkv, L, D]
                row.v = to_floats(call.v[0]);
            }
            out.push_back(std::move(row));
        }
        return out;
    }

    // Every requested backend on one call, then each output against MATH's.
    void run_cells(SdpaBenchRow& row, const DecodeAttentionCall& call, CallSite site) const {
        std::vector<at::Tensor> outs;
        at::Tensor reference;
        for (const SdpaBackend b : req.backends) {
            check_abort();
            TimedAttention t = time_attention(site, call, b, req.warmup, req.iters);
            SdpaBenchCell cell;
            cell.requested = b;
            cell.ran = t.ran;
            cell.reason = t.reason;
            cell.observed = t.observed;
            if (t.ran) {
                cell.ms_per_call = median(t.ms);
                cell.ms_min = *std::min_element(t.ms.begin(), t.ms.end());
                cell.ms_max = *std::max_element(t.ms.begin(), t.ms.end());
                if (b == SdpaBackend::Math) reference = t.out;
                if (req.capture_tensors) cell.output = to_floats(t.out[0].select(1, 0));  // [Hq, D]
            }
            say(std::string(to_string(row.mask)) + " W=" + std::to_string(row.width) + " " + to_string(b) + ": " +
                (t.ran ? std::to_string(cell.ms_per_call) + " ms, ran " + to_string(t.observed) : t.reason));
            outs.push_back(t.ran ? t.out : at::Tensor());
            row.cells.push_back(std::move(cell));
        }
        if (!reference.defined()) {  // MATH not asked for: one untimed call as the yardstick
            TimedAttention t = time_attention(site, call, SdpaBackend::Math, 0, 1);
            if (t.ran) reference = t.out;
        }
        if (!reference.defined()) return;
        for (size_t i = 0; i < row.cells.size(); ++i)
            if (outs[i].defined()) row.cells[i].max_abs_diff_vs_math = max_abs_diff(outs[i], reference);
    }

    // The fast decoder's attention over one frame: position p attends over p+1 keys of its
    // num_codebooks-row cache, n_layer times.
    SdpaBenchFastRow fast_row(SdpaBenchMask mask) const {
        SdpaBenchFastRow row;
        row.mask = mask;
        const int64_t n = model.num_codebooks;
        DecodeAttentionCase c = make_decode_case(model.fast, n, n, dtype, device, req.seed + 1);
        for (const SdpaBackend b : req.backends) {
            SdpaBenchFastCell cell;
            cell.requested = b;
            double per_frame = 0;
            for (int64_t p = 0; p < n; ++p) {
                check_abort();
                c.width = p + 1;
                const TimedAttention t = time_attention(CallSite::FastDecode, decode_call(c, mask), b, req.warmup, req.iters);
                if (!t.ran) {
                    cell.reason = "position " + std::to_string(p) + " (" + std::to_string(p + 1) + " keys): " + t.reason;
                    break;
                }
                if (p > 0 && t.observed != cell.observed) {
                    cell.reason = std::string("the observed kernel differs between positions (") +
                                  to_string(cell.observed) + ", " + to_string(t.observed) + ")";
                    break;
                }
                cell.observed = t.observed;
                per_frame += median(t.ms);
            }
            cell.ran = cell.reason.empty();
            if (cell.ran) cell.ms_per_frame = per_frame * double(model.fast.n_layer);
            say(std::string("fast ") + to_string(mask) + " " + to_string(b) + ": " +
                (cell.ran ? std::to_string(cell.ms_per_frame) + " ms/frame" : cell.reason));
            row.cells.push_back(std::move(cell));
        }
        return row;
    }
};

}  // namespace

const char* to_string(SdpaBenchMask v) { return v == SdpaBenchMask::Full ? "full" : "active"; }

std::optional<SdpaBenchMask> parse_sdpa_bench_mask(const std::string& s) {
    if (s == "active") return SdpaBenchMask::Active;
    if (s == "full") return SdpaBenchMask::Full;
    return std::nullopt;
}

SdpaBenchModel resolve_sdpa_bench_model(const SdpaBenchRequest& r) {
    const int sources = int(!r.model_dir.empty()) + int(!r.preset.empty()) + int(r.model.has_value());
    if (sources != 1) bad("give exactly one of a model folder, a preset or explicit dims", "-m DIR or --preset NAME");
    if (r.model) return *r.model;
    if (!r.model_dir.empty()) {
        namespace fs = std::filesystem;
        if (!fs::is_directory(r.model_dir))
            throw ReefError(ErrorCode::ModelNotFound, "sdpa-bench: model folder " + r.model_dir + " not found");
        if (!fs::exists(fs::path(r.model_dir) / "config.json"))
            throw ReefError(ErrorCode::ModelNotFound,
                            "sdpa-bench: " + (fs::path(r.model_dir) / "config.json").string() + " not found",
                            "sdpa-bench reads only config.json (no weights); or use --preset s1-mini|s2-pro");
        const DualArConfig c = load_model_config(r.model_dir);  // CorruptModel names the bad field
        return model_from_config(c, r.model_dir + "/config.json (" + c.model_type + ")");
    }
    // Presets carry the released models' dims; the vocabulary size does not matter here.
    const ModelLayout layout = r.preset == "s1-mini" ? ModelLayout::S1 : ModelLayout::S2;
    const char* name = r.preset == "s1-mini" ? "S1-mini" : r.preset == "s2-pro" ? "S2-Pro" : "demo";
    return model_from_config(preset_config(r.preset, layout, 1 << 16), std::string(name) + " (preset " + r.preset + ")");
}

int64_t sdpa_bench_bytes(const AttentionDims& d, int64_t rows, int64_t element_size) {
    const int64_t kv = 2 * d.n_kv_heads * rows * d.head_dim;  // K and V elements
    const int64_t draws = kv * (4 + element_size);            // fp32 draws + their cast copies
    const int64_t cache = kv * element_size;
    const int64_t math = kv * 4 + 3 * d.n_head * rows * 4;    // fp32 K/V, scores + softmax + mask bias
    return draws + cache + math;
}

SdpaBenchReport run_sdpa_bench(const SdpaBenchRequest& req, const std::function<void(const std::string&)>& progress,
                               const std::function<bool()>& should_abort) {
    const SdpaBenchModel model = resolve_sdpa_bench_model(req);
    validate(req, model);
    require_device(req.device, req.device_index, req.precision);
    if (req.cpu_threads > 0) apply_cpu_threads(req.cpu_threads);

    SdpaBenchReport report;
    report.reef_version = REEF_VERSION;
    report.libtorch_version = TORCH_VERSION;
    report.device = req.device;
    report.device_name = device_model_name(req.device);
    report.precision = to_string(req.precision);
    report.started_at = iso_now();
    report.cpu_threads = at::get_num_threads();
    report.load_before = host_load_average();
    report.iters = req.iters;
    report.warmup = req.warmup;
    report.model = model;
    report.backends = req.backends;
    if (!req.include_fast) report.model.fast.n_layer = 0;

    const Runner run{req, report.model, to_scalar_type(req.precision), to_torch_device(req.device, req.device_index), progress, should_abort};
    for (const int64_t w : req.widths)
        for (SdpaBenchRow& row : run.width_rows(w)) report.rows.push_back(std::move(row));
    if (report.model.fast.n_layer > 0)
        for (const SdpaBenchMask mask : req.masks) report.fast.push_back(run.fast_row(mask));
    report.load_after = host_load_average();
    return report;
}

}  // namespace reef
