// The bench's batch table (BenchRequest::batch_sizes, issue #27): for each batch size B, B
// different prompts decode together through one BatchGenerator, and the report gives aggregate
// and per-sequence frames/s, the speed-up against B = 1 of the same run, and what the weight
// reads and the multiply-adds reached.
#pragma once
#include <functional>
#include <string>

#include "reef/bench.h"
#include "runtime/pipeline.h"
#include "study/arm_model.h"
#include "study/roofline.h"

namespace reef {

// Fills report.batch. Runs with the reference arm's settings when it is eager, else the first
// eager arm's, and with its weights (a quantized arm's copy from `spares`); every point says why
// when it cannot run (no eager arm, KV memory). bw: the bench's read bandwidth, for the roofline
// share (the re-reads at the arm's own fast-stack size where its repeats probed one); head_rows:
// the output head's rows a frame multiplies by.
void run_batch_table(Pipeline& p, const BenchRequest& request, BenchReport& report, const ReadBandwidth& bw,
                     int64_t head_rows, ArmModel::Spares& spares,
                     const std::function<void(int, const std::string&)>& progress,
                     const std::function<bool()>& should_abort);

// The prompt text of batch member i: the bench text with a sentence of its own after it, so the
// members' prompts (and so their positions) differ as a project's segments do.
std::string batch_member_text(const std::string& base, int i);

}  // namespace reef
