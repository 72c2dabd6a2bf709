// Several synthesis requests generated together (issue #27): a project's segments decode in one
// batch (text2semantic/batch_generator.h), each streaming its own audio through its own codec
// worker, each with its own result or error. A request's later text batches (S2 chunking) join
// the batch when its previous one finishes, with the same conversation history and generator as
// run_synthesis gives them, so every request's codes equal what run_synthesis makes of it alone.
#pragma once
#include <functional>
#include <vector>

#include "reef/backend.h"
#include "reef/result.h"
#include "runtime/synthesis.h"

namespace reef {

// Up to max_batch sequences decode together; max_batch 0 (or below) = auto_batch_size, told
// through callbacks.on_status. Compile mode aot-inductor (a compiled step decodes one sequence)
// and max_batch 1 run the requests one by one through run_synthesis, and say so through
// callbacks.on_status. A cancel (callbacks.should_abort) ends every request with Cancelled,
// cancel_request(id) that request alone. Results in the requests' order; on_done hears each as it ends.
std::vector<Result<SynthesisResult>> run_synthesis_batch(Pipeline& p, const std::vector<SynthesisRequest>& requests,
                                                         int max_batch, const Callbacks& callbacks,
                                                         const RunOptions& options,
                                                         const std::function<bool(uint64_t)>& cancel_request = {},
                                                         const RequestDone& on_done = {});

}  // namespace reef
