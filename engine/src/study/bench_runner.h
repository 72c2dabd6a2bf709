// The A/B matrix (docs/bench-schema.md): every arm on the same prompt and seed, greedy, a fixed number
// of frames; quality measured against the reference arm.
#pragma once
#include <functional>
#include <string>

#include "reef/bench.h"
#include "runtime/pipeline.h"
#include "runtime/synthesis.h"

namespace reef {

BenchReport run_bench(Pipeline& p, const BenchRequest& request,
                      const std::function<void(int, const std::string&)>& progress,
                      const std::function<bool()>& should_abort);

// What every timed bench run uses: greedy, im_end suppressed, exactly `frames` frames, one batch.
SynthesisRequest greedy_request(const BenchRequest& request);
RunOptions run_options(const Pipeline& p, const BenchRequest& request, const BenchArm& arm);

// Default max |Δ logit| tolerance for a precision (fp32 1e-3, fp16 0.25, bf16 0.5).
double default_logit_tolerance(Precision precision);

}  // namespace reef
