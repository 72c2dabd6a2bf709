// A lock-free single-producer / single-consumer ring buffer for audio blocks.
//
// The consumer is the PortAudio callback, so read() must never lock, allocate or log: it only
// touches two atomics and copies memory. The producer is the player's non-real-time side.
// Indices grow without bound (unsigned wrap-around is well defined) and are masked into a
// power-of-two buffer, so the full capacity is usable and "full" and "empty" never look alike.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace reef::audio {

template <typename T>
class SpscRingBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "the ring copies samples with memcpy");

public:
    // capacity is rounded up to a power of two (at least 2).
    explicit SpscRingBuffer(size_t min_capacity) {
        size_t cap = 2;
        while (cap < min_capacity) cap <<= 1;
        buf_.resize(cap);
        mask_ = cap - 1;
    }
    SpscRingBuffer(const SpscRingBuffer&) = delete;
    SpscRingBuffer& operator=(const SpscRingBuffer&) = delete;

    size_t capacity() const noexcept { return buf_.size(); }

    // Producer side: copies up to n items, returns how many fit.
    size_t write(const T* src, size_t n) noexcept {
        if (n == 0) return 0;  // before any load: a caller's literal 0 folds the copy away
        const size_t head = head_.load(std::memory_order_relaxed);  // only we write head_
        const size_t tail = tail_.load(std::memory_order_acquire);  // see the consumer's frees
        n = std::min(n, capacity() - (head - tail));
        copy_in(head, src, n);
        head_.store(head + n, std::memory_order_release);  // publish the items
        return n;
    }

    // Consumer side: copies up to n items out, returns how many were there.
    size_t read(T* dst, size_t n) noexcept {
        if (n == 0) return 0;
        const size_t tail = tail_.load(std::memory_order_relaxed);  // only we write tail_
        const size_t head = head_.load(std::memory_order_acquire);  // see the producer's items
        n = std::min(n, head - tail);
        copy_out(tail, dst, n);
        tail_.store(tail + n, std::memory_order_release);  // hand the slots back
        return n;
    }

    // Exact for the consumer; a lower bound for the producer.
    size_t read_available() const noexcept {
        return head_.load(std::memory_order_acquire) - tail_.load(std::memory_order_acquire);
    }
    // Exact for the producer; a lower bound for the consumer.
    size_t write_available() const noexcept { return capacity() - read_available(); }

    // Drops everything. Only while neither side runs (the player stops the stream first).
    void reset() noexcept {
        head_.store(0, std::memory_order_relaxed);
        tail_.store(0, std::memory_order_relaxed);
    }

private:
    // n == 0 returns early: src / dst may then be an empty vector's null data(), and memcpy from or
    // to a null pointer is undefined even for 0 bytes (UBSan reports it from AudioPlayer). n is 0
    // here too when the buffer is full (write) or empty (read).
    void copy_in(size_t at, const T* src, size_t n) noexcept {
        if (n == 0) return;
        const size_t i = at & mask_;
        const size_t first = std::min(n, capacity() - i);  // up to the physical end, then wrap
        std::memcpy(buf_.data() + i, src, first * sizeof(T));
        std::memcpy(buf_.data(), src + first, (n - first) * sizeof(T));
    }
    void copy_out(size_t at, T* dst, size_t n) const noexcept {
        if (n == 0) return;
        const size_t i = at & mask_;
        const size_t first = std::min(n, capacity() - i);
        std::memcpy(dst, buf_.data() + i, first * sizeof(T));
        std::memcpy(dst + first, buf_.data(), (n - first) * sizeof(T));
    }

    std::vector<T> buf_;
    size_t mask_ = 0;
    // Separate cache lines: the two threads each write one index.
    alignas(64) std::atomic<size_t> head_{0};  // next slot to write (producer-owned)
    alignas(64) std::atomic<size_t> tail_{0};  // next slot to read (consumer-owned)
};

using FloatRingBuffer = SpscRingBuffer<float>;

}  // namespace reef::audio
