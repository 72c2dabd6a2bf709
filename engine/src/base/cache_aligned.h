// Scratch vectors whose data starts on a cache line. The GEMV rows read their prepared input with
// 256- and 512-bit loads at offsets that are multiples of 64 bytes from its start; a std::vector's
// data is only 16-byte aligned (glibc's malloc), so most of those loads straddled two cache lines.
// Measured on the AMX Xeon (one thread, a 1 MB int4 matrix in the caches, K 1024, group 128): the
// input 16 bytes past a line read 23.9 GB/s of weights, on a line 25.6; AVX2 forced 19.4 and 20.3.
#pragma once
#include <cstddef>
#include <new>
#include <vector>

namespace reef {

inline constexpr std::size_t kCacheLine = 64;

template <typename T>
struct CacheAlignedAllocator {
    using value_type = T;
    CacheAlignedAllocator() = default;
    template <typename U>
    CacheAlignedAllocator(const CacheAlignedAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kCacheLine})); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{kCacheLine}); }
    template <typename U>
    bool operator==(const CacheAlignedAllocator<U>&) const {
        return true;
    }
};

template <typename T>
using CacheAlignedVector = std::vector<T, CacheAlignedAllocator<T>>;

// A reused scratch's data with room for n elements, grown but never shrunk. The GEMVs of a decode
// frame reuse one scratch across calls of several sizes, and resize() value-initializes what it
// adds: each call larger than the one before zero-filled the difference (~20 KB a layer of an
// s1-mini int4 frame, 2.3 % of the engine thread's samples on the Zen 4). Callers pass their own
// sizes: the vector's size() is only the largest asked so far.
template <typename V>
auto* scratch_for(V& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
}

}  // namespace reef
