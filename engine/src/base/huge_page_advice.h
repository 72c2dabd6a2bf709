// Whether new weight memory (base/weight_memory.h) asks the kernel for transparent huge pages.
//
// Huge pages make decode read its weights faster (fewer TLB misses: +9 % frames/s at B = 1 on the
// 2-core AMX Xeon VM, docs/cpu-kernels.md), but getting them can cost far more than it gives back:
// on a virtual machine whose host takes freed memory back (free page reporting), every fresh 2 MB
// page is first touched on the host too, and a memcpy into huge-page-advised memory there ran at
// 0.12-0.35 GB/s against ~2 GB/s in 4 KB pages: loading a bf16 s1-mini took 7-11 s instead of 1.3-1.8.
// On bare metal the same fill runs at several GB/s. So by default the advice is measured: the fills
// of advised memory report their first-touch speed, and once 32 MB of them ran below 1 GB/s, new
// memory is left in 4 KB pages for the rest of the process (and the untouched part of a region
// being filled is advised back, MADV_NOHUGEPAGE).
#pragma once
#include <cstddef>

namespace reef {

// REEF_HUGE_PAGES: "1" always advise, "0" never, anything else (or unset) measured as above. Read
// at each call, so that a test can switch it.
enum class HugePages { Measured, Always, Never };
HugePages huge_pages_setting();

// Advise the next region? Always: yes; Never: no; Measured: until the fills say they are dear.
bool advise_huge_pages();

// An advised region's first `bytes` were written (first touch) in `seconds`.
void record_huge_page_fill(size_t bytes, double seconds);

// The process's verdict so far, for reports: true when measured fills made the advice stop.
bool huge_pages_found_dear();

// Forget the fills measured so far (tests).
void reset_huge_page_measure();

// Bytes measured before a verdict, and the first-touch speed below which huge pages are dear.
inline constexpr size_t kHugePageMeasureBytes = size_t(32) << 20;
inline constexpr double kHugePageDearBelowBytesPerSecond = 1e9;

}  // namespace reef
