// The bench's context sweep (BenchRequest::contexts): every arm decodes after real prompts of
// about each requested length, so attention backends are compared at the short prefixes of
// everyday speech and at long ones, as fish-speech #1337's maintainers asked.
#pragma once
#include <functional>
#include <string>

#include "reef/bench.h"
#include "runtime/pipeline.h"
#include "study/arm_model.h"

namespace reef {

// Fills report.sweep (arms already named in report.arms). Per context: the prompt is built once
// (the bench text extended with filler sentences to the longest prompt of at most that many
// tokens), then the arms run interleaved, sweep_repeats times; each run prefills the prompt and
// decodes request.frames greedy frames, with the arm's weights (a quantized arm's copy from
// `spares`). A point that cannot run carries its reason.
void run_context_sweep(Pipeline& p, const BenchRequest& request, BenchReport& report, ArmModel::Spares& spares,
                       const std::function<void(int, const std::string&)>& progress, const Callbacks& callbacks);

// The text whose first-batch prompt is the longest that does not exceed `target` tokens (the
// bench text plus filler words, found by bisection); sets *prompt_tokens to that prompt's length.
std::string text_for_context(const Pipeline& p, const BenchRequest& request, int64_t target, int64_t* prompt_tokens);

}  // namespace reef
