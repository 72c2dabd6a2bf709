// Number and backend formatting shared by the bench's report writers (Markdown, CSV, PR report).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "reef/engine_types.h"

namespace reef {

inline std::string fmt(double v, int digits = 2) {
    if (!std::isfinite(v)) return "inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

inline std::string mib(int64_t bytes) { return bytes < 0 ? "-" : fmt(double(bytes) / (1024.0 * 1024.0), 1); }

// "slow-decode: flash x64; fast-decode: math x576"
inline std::string backends_text(const std::vector<BackendUse>& uses) {
    std::string s;
    for (const auto& u : uses) {
        if (!s.empty()) s += "; ";
        s += std::string(to_string(u.site)) + ": " + to_string(u.backend) + (u.compiled ? " (compiled)" : "") + " x" +
             std::to_string(u.calls);
    }
    return s.empty() ? "-" : s;
}

// Text for a Markdown table cell: a pipe would end the cell, a newline the row.
inline std::string md_cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

struct BenchReport;
// The matrix as one Markdown table, one row per arm (bench_report.cpp).
std::string bench_arms_table_markdown(const BenchReport& report);

}  // namespace reef
