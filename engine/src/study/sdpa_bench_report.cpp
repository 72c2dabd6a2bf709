// The SDPA bench report: Markdown (fish-speech PR #1337's table, one row per width × mask, columns
// per backend) and JSON (schema "reef-sdpa-bench/1": every field of SdpaBenchReport).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "reef/bench_report.h"
#include "reef/sdpa_bench.h"

namespace reef {
namespace {

using nlohmann::json;

std::string fmt(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}
// Times span 0.01 ms .. seconds: three significant-ish digits without scientific notation.
std::string ms(double v) { return fmt(v, v < 1 ? 4 : v < 100 ? 3 : 1); }
std::string diff(double v) {
    if (v < 0) return "-";
    if (v == 0) return "0";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

std::string dims_text(const AttentionDims& d) {
    return "Hq " + std::to_string(d.n_head) + ", Hkv " + std::to_string(d.n_kv_heads) + ", D " +
           std::to_string(d.head_dim) + ", " + std::to_string(d.n_layer) + " layers";
}

// Backends that ran in at least one slow cell get columns; the rest are only listed with reasons.
std::vector<size_t> shown_backends(const SdpaBenchReport& r) {
    std::vector<size_t> shown;
    for (size_t b = 0; b < r.backends.size(); ++b)
        for (const auto& row : r.rows)
            if (b < row.cells.size() && row.cells[b].ran) {
                shown.push_back(b);
                break;
            }
    return shown;
}

const SdpaBenchFastCell* fast_cell(const SdpaBenchReport& r, SdpaBenchMask mask, size_t b) {
    for (const auto& f : r.fast)
        if (f.mask == mask && b < f.cells.size()) return &f.cells[b];
    return nullptr;
}

// "reason" -> the cells it kept from running, so one libtorch explanation is printed once.
void add_reason(std::vector<std::pair<std::string, std::vector<std::string>>>& out, const std::string& reason,
                const std::string& where) {
    for (auto& [text, places] : out)
        if (text == reason) {
            places.push_back(where);
            return;
        }
    out.push_back({reason, {where}});
}

}  // namespace

std::string sdpa_bench_markdown(const SdpaBenchReport& r) {
    const auto& m = r.model;
    const std::vector<size_t> shown = shown_backends(r);
    std::ostringstream s;
    s << "# SDPA bench: " << m.name << "\n\n";
    s << "- Slow transformer attention: " << dims_text(m.slow) << "; max_seq_len " << m.max_seq_len << "\n";
    if (m.fast.n_layer > 0)
        s << "- Fast decoder attention: " << dims_text(m.fast) << "; " << m.num_codebooks << " positions per frame\n";
    s << "- Device: " << to_string(r.device) << " (" << r.device_name << "), libtorch " << r.libtorch_version << ", "
      << r.cpu_threads << " threads, " << r.precision << ", Reef " << r.reef_version << ", " << r.started_at << "\n";
    if (!r.load_before.empty())
        s << "- Load average (1/5/15 min) before: " << r.load_before << ", after: " << r.load_after
          << " (other work on these cores inflates multi-threaded CPU times)\n";
    s << "- Per call: median of " << r.iters << " timed calls after " << r.warmup
      << " warm-up calls of Reef's decode attention (one query; GQA folded to [1, Hkv, Hq/Hkv, D] as decode runs "
         "it), one backend forced at a time\n";
    s << "- `active` (fish-speech #1312): k/v = the first W cache rows, no mask. `full` (before #1312): k/v = the "
         "whole cache of max(W, max_seq_len) rows (rounded up to 8; \"keys\"), a bool mask admitting the first W\n";
    s << "- \"ran\" is the SDPA kernel the dispatcher actually ran (RecordFunction), not libtorch's prediction; "
         "max |Δ| is against MATH's output on the same inputs, computed in fp32\n";
    s << "- \"slow/frame\" = ms/call × " << m.slow.n_layer
      << " slow layers: **the slow transformer's attention only**" << (m.fast.n_layer > 0 ? " (fast decoder below)" : "")
      << "\n\n";

    s << "| mask | W | keys |";
    for (size_t b : shown) {
        const char* n = to_string(r.backends[b]);
        s << " " << n << " ms/call | " << n << " slow/frame ms | " << n << " ran | " << n << " max abs Δ |";
    }
    s << "\n|---|---:|---:|";
    for (size_t i = 0; i < shown.size(); ++i) s << "---:|---:|---|---:|";
    s << "\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    for (const auto& row : r.rows) {
        s << "| " << to_string(row.mask) << " | " << row.width << " | " << row.kv_rows << " |";
        for (size_t b : shown) {
            const SdpaBenchCell& c = row.cells[b];
            if (!c.ran) {
                s << " n/a | n/a | not run | - |";
                continue;
            }
            s << " " << ms(c.ms_per_call) << " | " << ms(c.ms_per_call * double(m.slow.n_layer)) << " | "
              << to_string(c.observed) << " | " << diff(c.max_abs_diff_vs_math) << " |";
        }
        s << "\n";
        for (size_t b = 0; b < row.cells.size(); ++b)
            if (!row.cells[b].ran)
                add_reason(reasons, std::string(to_string(r.backends[b])) + ": " + row.cells[b].reason,
                           std::string(to_string(row.mask)) + " W=" + std::to_string(row.width));
    }

    if (!r.fast.empty()) {
        s << "\n## Fast decoder attention per frame\n\n";
        s << "Position p of " << m.num_codebooks << " attends over p+1 keys (`active`) or over its whole "
          << "cache with a mask (`full`); ms/frame = Σ over positions of the median call × " << m.fast.n_layer
          << " fast layers.\n\n| mask |";
        for (size_t b = 0; b < r.backends.size(); ++b)
            s << " " << to_string(r.backends[b]) << " ms/frame | " << to_string(r.backends[b]) << " ran |";
        s << "\n|---|";
        for (size_t b = 0; b < r.backends.size(); ++b) s << "---:|---|";
        s << "\n";
        for (const auto& f : r.fast) {
            s << "| " << to_string(f.mask) << " |";
            for (size_t b = 0; b < f.cells.size(); ++b) {
                const auto& c = f.cells[b];
                if (c.ran)
                    s << " " << ms(c.ms_per_frame) << " | " << to_string(c.observed) << " |";
                else {
                    s << " n/a | not run |";
                    add_reason(reasons, std::string(to_string(r.backends[b])) + ": " + c.reason,
                               std::string("fast ") + to_string(f.mask));
                }
            }
            s << "\n";
        }

        s << "\n## Projected attention per frame (slow + fast), ms\n\n| mask | W |";
        for (size_t b : shown) s << " " << to_string(r.backends[b]) << " |";
        s << "\n|---|---:|";
        for (size_t i = 0; i < shown.size(); ++i) s << "---:|";
        s << "\n";
        for (const auto& row : r.rows) {
            s << "| " << to_string(row.mask) << " | " << row.width << " |";
            for (size_t b : shown) {
                const SdpaBenchCell& c = row.cells[b];
                const SdpaBenchFastCell* f = fast_cell(r, row.mask, b);
                if (c.ran && f && f->ran)
                    s << " " << ms(c.ms_per_call * double(m.slow.n_layer) + f->ms_per_frame) << " |";
                else
                    s << " n/a |";
            }
            s << "\n";
        }
    }

    if (!reasons.empty()) {
        s << "\n## Not run\n\n";
        for (const auto& [text, places] : reasons) {
            s << "- **" << text.substr(0, text.find(':')) << "** (";
            for (size_t i = 0; i < places.size(); ++i) s << (i ? ", " : "") << places[i];
            s << "): " << text.substr(text.find(':') + 2) << "\n";
        }
    }
    return s.str();
}

std::string sdpa_bench_json(const SdpaBenchReport& r) {
    auto dims = [](const AttentionDims& d) {
        return json{{"n_head", d.n_head}, {"n_kv_heads", d.n_kv_heads}, {"head_dim", d.head_dim}, {"n_layer", d.n_layer}};
    };
    json rows = json::array();
    for (const auto& row : r.rows) {
        json cells = json::array();
        for (const auto& c : row.cells) {
            json j{{"backend", to_string(c.requested)}, {"ran", c.ran}, {"reason", c.reason}};
            if (c.ran) {
                j["observed"] = to_string(c.observed);
                j["ms_per_call"] = c.ms_per_call;
                j["ms_min"] = c.ms_min;
                j["ms_max"] = c.ms_max;
                j["slow_ms_per_frame"] = c.ms_per_call * double(r.model.slow.n_layer);
                j["max_abs_diff_vs_math"] = c.max_abs_diff_vs_math < 0 ? json(nullptr) : json(c.max_abs_diff_vs_math);
            }
            cells.push_back(j);
        }
        rows.push_back({{"mask", to_string(row.mask)}, {"width", row.width}, {"kv_rows", row.kv_rows},
                        {"estimated_bytes", row.estimated_bytes}, {"skipped", row.skipped}, {"cells", cells}});
    }
    json fast = json::array();
    for (const auto& f : r.fast) {
        json cells = json::array();
        for (const auto& c : f.cells) {
            json j{{"backend", to_string(c.requested)}, {"ran", c.ran}, {"reason", c.reason}};
            if (c.ran) {
                j["observed"] = to_string(c.observed);
                j["ms_per_frame"] = c.ms_per_frame;
            }
            cells.push_back(j);
        }
        fast.push_back({{"mask", to_string(f.mask)}, {"positions", r.model.num_codebooks}, {"cells", cells}});
    }
    json backends = json::array();
    for (const auto b : r.backends) backends.push_back(to_string(b));
    const json j{{"schema", "reef-sdpa-bench/1"},
                 {"reef_version", r.reef_version},
                 {"libtorch_version", r.libtorch_version},
                 {"device", to_string(r.device)},
                 {"device_name", r.device_name},
                 {"precision", r.precision},
                 {"cpu_threads", r.cpu_threads},
                 {"load_average_before", r.load_before},
                 {"load_average_after", r.load_after},
                 {"iters", r.iters},
                 {"warmup", r.warmup},
                 {"started_at", r.started_at},
                 {"model",
                  {{"name", r.model.name},
                   {"slow", dims(r.model.slow)},
                   {"fast", dims(r.model.fast)},
                   {"max_seq_len", r.model.max_seq_len},
                   {"num_codebooks", r.model.num_codebooks}}},
                 {"backends", backends},
                 {"rows", rows},
                 {"fast", fast}};
    return j.dump(2) + "\n";
}

Status write_sdpa_bench_markdown(const SdpaBenchReport& r, const std::string& path) {
    return write_text_file_atomic(path, sdpa_bench_markdown(r));
}

Status write_sdpa_bench_json(const SdpaBenchReport& r, const std::string& path) {
    return write_text_file_atomic(path, sdpa_bench_json(r));
}

}  // namespace reef
