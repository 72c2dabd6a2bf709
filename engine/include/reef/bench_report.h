// Writers for the A/B bench report: JSON (schema in docs/bench-schema.md), Markdown and CSV.
// Each writes atomically (temp file + rename) and returns an error value on failure.
#pragma once
#include <string>

#include "reef/bench.h"
#include "reef/result.h"

namespace reef {

std::string bench_report_json(const BenchReport& report);      // pretty-printed JSON text
std::string bench_report_markdown(const BenchReport& report);
std::string bench_report_csv(const BenchReport& report);       // one row per arm

Status write_bench_json(const BenchReport& report, const std::string& path);
Status write_bench_markdown(const BenchReport& report, const std::string& path);
Status write_bench_csv(const BenchReport& report, const std::string& path);

// Writes text to path through a temp file in the same folder + rename; Io error naming the path.
Status write_text_file_atomic(const std::string& path, const std::string& text);

}  // namespace reef
