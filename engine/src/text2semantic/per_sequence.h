// A batch frame's per-sequence work (sampling: each member's main token and codes) across the
// intra-op threads. On one thread it was a fifth of a B = 8 frame (s1-mini-sized S2 demo, bf16,
// 2-core AMX VM: 39 of 201 ms; the main token alone draws 2 x 155,776 exponentials to keep
// fish-speech's RNG stream) while the other core waited at a barrier.
#pragma once
#include <cstddef>
#include <functional>

namespace reef {

// fn(i) for every i in [0, n): split across at::get_num_threads() threads when n > 1 and this
// thread is not already in a parallel region, else in order on this thread. Each fn(i) runs on one
// thread with the caller's thread-local state (inference mode, dispatch keys), so member i's ops
// are the ones it runs alone: libtorch's ops run serially inside a parallel region, and those a
// sequence's sampling uses give the same bits serially as split (elementwise ops, one-row sorts,
// softmax and cumsum, the generator's serial draws; tst_batch_generate compares batch and alone
// bit for bit). fn must touch only member i's state. The first exception is re-thrown.
void for_each_sequence(size_t n, const std::function<void(size_t)>& fn);

}  // namespace reef
