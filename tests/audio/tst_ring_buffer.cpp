// The SPSC ring under the PortAudio callback: capacity, wrap-around, full/empty, and a
// two-thread stress run that checks every sample arrives once and in order.
#include <numeric>
#include <thread>
#include <vector>

#include "audio/ring_buffer.h"
#include "check.h"

using reef::audio::FloatRingBuffer;
using reef::audio::SpscRingBuffer;

TEST_CASE(capacity_rounds_up_to_power_of_two) {
    CHECK_EQ(FloatRingBuffer(1000).capacity(), size_t(1024));
    CHECK_EQ(FloatRingBuffer(1024).capacity(), size_t(1024));
    CHECK_EQ(FloatRingBuffer(0).capacity(), size_t(2));
}

// Note: CHECK_EQ evaluates its arguments twice, so every call with side effects is stored first.
TEST_CASE(full_and_empty) {
    FloatRingBuffer r(8);
    float out[16];
    CHECK_EQ(r.read_available(), size_t(0));
    size_t n = r.read(out, 4);
    CHECK_EQ(n, size_t(0));  // empty: nothing to read
    std::vector<float> in(12);
    std::iota(in.begin(), in.end(), 1.0f);
    n = r.write(in.data(), 12);
    CHECK_EQ(n, size_t(8));  // only the capacity fits
    CHECK_EQ(r.write_available(), size_t(0));
    n = r.write(in.data(), 1);
    CHECK_EQ(n, size_t(0));  // full: nothing more goes in
    n = r.read(out, 16);
    CHECK_EQ(n, size_t(8));
    for (int i = 0; i < 8; ++i) CHECK_EQ(out[i], float(i + 1));
    CHECK_EQ(r.read_available(), size_t(0));
    CHECK_EQ(r.write_available(), size_t(8));
}

TEST_CASE(wrap_around_keeps_order) {
    FloatRingBuffer r(8);
    float next_in = 0, next_out = 0;
    float block[5], out[5];
    size_t n = 0;
    // Blocks of 5 into 8 slots: most writes and reads straddle the physical end.
    for (int round = 0; round < 50; ++round) {
        for (float& x : block) x = next_in++;
        n = r.write(block, 5);
        CHECK_EQ(n, size_t(5));
        n = r.read(out, 5);
        CHECK_EQ(n, size_t(5));
        for (float x : out) {
            CHECK_EQ(x, next_out);
            next_out += 1;
        }
    }
    // Partial fills across the seam: 5 in, then only 3 of the next 5 fit.
    for (float& x : block) x = next_in++;
    n = r.write(block, 5);
    CHECK_EQ(n, size_t(5));
    for (float& x : block) x = next_in++;
    n = r.write(block, 5);
    CHECK_EQ(n, size_t(3));
    next_in -= 2;  // the last two did not go in
    n = r.read(out, 5);
    CHECK_EQ(n, size_t(5));
    for (float x : out) {
        CHECK_EQ(x, next_out);
        next_out += 1;
    }
    n = r.read(out, 5);
    CHECK_EQ(n, size_t(3));
    for (int i = 0; i < 3; ++i) {
        CHECK_EQ(out[i], next_out);
        next_out += 1;
    }
    CHECK_EQ(next_in, next_out);
}

TEST_CASE(reset_empties) {
    FloatRingBuffer r(4);
    const float in[3] = {1, 2, 3};
    r.write(in, 3);
    r.reset();
    CHECK_EQ(r.read_available(), size_t(0));
    CHECK_EQ(r.write_available(), size_t(4));
}

// AudioPlayer feeds an empty clip as (vector.data() == nullptr, 0). memcpy with a null pointer is
// undefined even for 0 bytes: the asan preset's UBSan (scripts/asan.sh) fails this case without
// the early return in copy_in / copy_out.
TEST_CASE(zero_items_through_null_pointers) {
    FloatRingBuffer r(4);
    const std::vector<float> empty;
    const size_t wrote = r.write(empty.data(), 0);
    CHECK_EQ(wrote, size_t(0));
    std::vector<float> out;
    const size_t got = r.read(out.data(), 0);
    CHECK_EQ(got, size_t(0));
    CHECK_EQ(r.read_available(), size_t(0));
}

TEST_CASE(two_thread_stress_sequence) {
    // 8 M samples through a 1024-slot ring with uneven block sizes on both sides. Integers
    // (exact in uint32_t) make any lost, duplicated or reordered sample visible.
    constexpr uint32_t kTotal = 8u << 20;
    SpscRingBuffer<uint32_t> r(1024);
    std::thread producer([&] {
        std::vector<uint32_t> block(333);
        uint32_t next = 0;
        size_t turn = 0;
        while (next < kTotal) {
            const size_t want = std::min<size_t>(1 + (turn++ * 7919) % block.size(), kTotal - next);
            for (size_t i = 0; i < want; ++i) block[i] = next + uint32_t(i);
            size_t done = 0;
            while (done < want) {
                const size_t n = r.write(block.data() + done, want - done);
                if (n == 0) std::this_thread::yield();
                done += n;
            }
            next += uint32_t(want);
        }
    });
    std::vector<uint32_t> block(517);
    uint32_t expect = 0, bad = 0;
    size_t turn = 0;
    while (expect < kTotal) {
        const size_t n = r.read(block.data(), 1 + (turn++ * 104729) % block.size());
        if (n == 0) std::this_thread::yield();
        for (size_t i = 0; i < n; ++i) bad += block[i] != expect++ ? 1 : 0;
    }
    producer.join();
    CHECK_EQ(bad, 0u);
    CHECK_EQ(expect, kTotal);
    CHECK_EQ(r.read_available(), size_t(0));
}

TEST_MAIN()
