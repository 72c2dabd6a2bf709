#include "text2semantic/per_sequence.h"

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>

namespace reef {

void for_each_sequence(size_t n, const std::function<void(size_t)>& fn) {
    if (n <= 1 || at::get_num_threads() <= 1 || at::in_parallel_region()) {
        for (size_t i = 0; i < n; ++i) fn(i);
        return;
    }
    const at::ThreadLocalState caller;  // this thread's InferenceMode and dispatch state, for the pool's threads
    at::parallel_for(0, int64_t(n), 1, [&](int64_t begin, int64_t end) {
        const at::ThreadLocalStateGuard state(caller);
        for (int64_t i = begin; i < end; ++i) fn(size_t(i));
    });
}

}  // namespace reef
