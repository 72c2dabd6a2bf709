// The sum of a vector's lanes once stored to memory, in lane order, in Acc: the hand-written x86
// rows reduce this way (GCC 12's reduce and extract intrinsics warn of an uninitialised operand in
// their own header); once per row, so its cost does not show.
#pragma once
#include <cstddef>

namespace reef::kernels {

template <typename Acc, typename T, size_t N>
inline Acc sum_lanes(const T (&lanes)[N]) {
    Acc total = 0;
    for (const T& lane : lanes) total += Acc(lane);
    return total;
}

}  // namespace reef::kernels
