// Helpers shared by reef-cli's engine commands: load or fail, print metrics, exit on errors.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "reef/engine.h"

namespace reef::cli {

// Prints "error: <message>" (+ hint) to stderr and throws CLI::RuntimeError(exit_code).
[[noreturn]] void fail(const EngineError& error, int exit_code = 1);
[[noreturn]] void fail(const std::string& message, int exit_code = 1);

template <class T>
T unwrap(Result<T> r) {
    if (!r) fail(r.error());
    return std::move(r.value());
}

ModelInfo load_or_fail(TtsBackend& engine, const EngineConfig& config);
void print_metrics(const RunMetrics& m);
// Callbacks::on_status for a terminal: prints a status line when its text changes (the trailing
// "(N s)" aside) and every 10 s while it does not.
std::function<void(const std::string&)> status_printer();
// Ctrl-C sets this; commands pass it as Callbacks::should_abort.
bool interrupted();
void install_interrupt_handler();

}  // namespace reef::cli
