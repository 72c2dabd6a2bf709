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
std::string bench_sweep_markdown(const BenchReport& report);   // the context sweep's table
std::string bench_sweep_csv(const BenchReport& report);        // one row per arm x context
std::string bench_batch_markdown(const BenchReport& report);   // the batch table (BenchRequest::batch_sizes)

// The report for fish-speech PR #1337, ready to paste into a GitHub comment: hardware, software,
// the exact command, parameters, the matrix and sweep, quality checks with their tolerances, links
// to the per-arm WAVs, and the maintainers' confirmations stated from this run's observations.
struct PrReportOptions {
    std::string command;      // the command line that produced the report (empty: rebuilt from the request)
    std::string wav_dir;      // where the per-arm WAVs were written, relative to the report ("" = none)
};
std::string bench_pr_report_markdown(const BenchReport& report, const PrReportOptions& options);
Status write_bench_pr_report(const BenchReport& report, const PrReportOptions& options, const std::string& path);
// One word for a POSIX shell: as is when it holds only safe characters, else single-quoted.
std::string shell_quote(const std::string& word);
// `reef-cli bench ...` equivalent to a request (what the Compare view ran, as a command).
std::string bench_command_line(const BenchRequest& request);

Status write_bench_json(const BenchReport& report, const std::string& path);
Status write_bench_markdown(const BenchReport& report, const std::string& path);
Status write_bench_csv(const BenchReport& report, const std::string& path);

// Writes text to path through a temp file in the same folder + rename; Io error naming the path.
Status write_text_file_atomic(const std::string& path, const std::string& text);

}  // namespace reef
