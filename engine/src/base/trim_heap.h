// Loading a model frees large temporaries (a codec.pth read whole, its fp32 weights before they
// become bf16, merged and converted copies): glibc keeps freed heap memory below its mmap threshold
// for reuse, and the weights that follow live in their own mappings (base/weight_memory.h), so that
// memory would stay resident for the life of the process (measured on S2-Pro: ~1.2 GB of a synth's
// peak RSS). trim_heap() hands it back to the system.
#pragma once

namespace reef {

// Returns the heap's free pages to the system where the C library can (glibc's malloc_trim);
// elsewhere a no-op.
void trim_heap();

}  // namespace reef
