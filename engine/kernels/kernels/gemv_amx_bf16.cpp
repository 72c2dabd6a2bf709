// The bf16 GEMV rows on CPUs with AMX (Sapphire Rapids, Emerald Rapids, Granite Rapids Xeons):
// the tile unit multiplies a 16 x 32 bf16 block by a 32 x 16 one into 16 x 16 fp32 sums in one
// instruction (tdpbf16ps), 16x the multiply-adds of a vdpbf16ps. A decode GEMV at batch 1 is bound
// by reading the weights either way; what AMX changes is a batch (issue #45): with vdpbf16ps each
// extra sequence costs as many multiply-adds as the first, and the cores, not the memory, set the
// pace from B = 2 on (bench/results/cpu/batch-zen5-bf16.md: 3.17x at B = 8). Here a batch of up to
// 16 sequences is one tile column each, so the weights are read once and multiplied against every
// input by the same instruction: the arithmetic is nearly free until B = 16.
//
// Layout. y^T = W · x^T with W the row-major [N, K] weight itself as the tiles' left operand
// (A: 16 rows of W, 32 bf16 of each, loaded with W's row stride: no repacking of the weights), and
// the inputs as the right operand in the pair-interleaved ("VNNI") layout tdpbf16ps wants:
// B[p][j] = (x[j][2p], x[j][2p + 1]). For one input that is x itself; for m inputs the pairs of
// the m rows are interleaved once per call.
//
// Exactness. Every output element is its own chain of tdpbf16ps steps over K in the same order,
// whatever the other rows and columns of the tile hold, so a sequence's result is the same bits
// alone and in any batch, and the same whichever rows r0..r1 a thread takes (tst_simd_kernels).
// The tile unit treats bf16 denormal inputs as zero and flushes denormal results, as the AVX-512
// BF16 instructions do; the results differ from the vdpbf16ps kernel's in the last bits (another
// summation order), which is why one kernel runs both the single and the batched rows.
#include <cstddef>
#include <cstring>
#include <vector>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace reef::kernels {
namespace {

#define REEF_AMX __attribute__((target("amx-tile,amx-bf16,avx512f,avx512bw")))

constexpr int64_t kStep = 32;   // bf16 values of K per tile step: one 64-byte line of each row
constexpr int64_t kBlock = 16;  // weight rows per tile

// ldtilecfg's operand: palette 1, then per tile its bytes per row and its rows.
struct alignas(64) TileConfig {
    uint8_t palette = 1;
    uint8_t start_row = 0;
    uint8_t reserved[14] = {};
    uint16_t colsb[16] = {};
    uint8_t rows[16] = {};
};
static_assert(sizeof(TileConfig) == 64);

// Tiles: the C accumulator of a row block (tmm0), its A operand (tmm1), the inputs (tmm2).
// GCC's tile intrinsics paste their operand into the register name, so the calls below spell the
// numbers out; these name them for the configuration.
enum : int { kC = 0, kA = 1, kB = 2 };

// `rows` (<= 16) weight rows per block: 16 for the whole blocks, fewer for a piece's last rows.
REEF_AMX void configure(int64_t m, int64_t rows) {
    TileConfig c;
    const auto out_bytes = uint16_t(m * 4);  // m fp32 sums, or m bf16 pairs, per tile row
    c.colsb[kC] = out_bytes, c.rows[kC] = uint8_t(rows);
    c.colsb[kA] = kStep * 2, c.rows[kA] = uint8_t(rows);
    c.colsb[kB] = out_bytes, c.rows[kB] = kStep / 2;
    _tile_loadconfig(&c);
}

// The m inputs' pairs interleaved: out[p * m + j] = pair p of input j ([K/2, m] 32-bit pairs).
// Bytes, not uint32_t: x's pairs need not be 4-byte aligned, and only the tile loads read them.
const char* interleave(const uint16_t* x, int64_t ldx, int64_t m, int64_t k) {
    if (m == 1) return reinterpret_cast<const char*>(x);  // already [K/2, 1]
    thread_local std::vector<uint32_t> packed;
    packed.resize(size_t(k / 2 * m));
    for (int64_t j = 0; j < m; ++j) {
        const uint16_t* xj = x + j * ldx;  // an odd ldx leaves the pairs off 4-byte boundaries
        for (int64_t p = 0; p < k / 2; ++p) std::memcpy(&packed[size_t(p * m + j)], xj + 2 * p, sizeof(uint32_t));
    }
    return reinterpret_cast<const char*>(packed.data());
}

// Writes the [rows, m] fp32 sums held in `sums` to y's rows n0.. of every input.
void put(const float* sums, int64_t rows, int64_t m, const uint16_t* b, int64_t n0, uint16_t* y, int64_t ldy) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < m; ++j) y[j * ldy + n0 + i] = bf16_output(sums[i * m + j], b, n0 + i);
}

// One block of `rows` weight rows from n0 against the inputs, written to y.
REEF_AMX void block(const uint16_t* w, const char* xp, int64_t m, const uint16_t* b, int64_t k, int64_t n0,
                    int64_t rows, uint16_t* y, int64_t ldy) {
    const int64_t xstride = m * 4, wstride = k * 2;  // bytes between tile rows
    const uint16_t* wa = w + n0 * k;
    alignas(64) float sums[kBlock * kBlock];
    _tile_zero(0);
    for (int64_t i = 0; i < k; i += kStep) {
        _tile_loadd(2, xp + i / 2 * xstride, xstride);  // pair row i/2
        _tile_loadd(1, wa + i, wstride);
        _tile_dpbf16ps(0, 1, 2);
    }
    _tile_stored(0, sums, xstride);
    put(sums, rows, m, b, n0, y, ldy);
}

REEF_AMX void rows(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                   int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    const char* xp = interleave(x, ldx, m, k);
    // One block of 16 rows at a time: 16 row streams. (Two blocks per pass, 32 streams, read
    // s1-mini-shaped rows ~8 % slower at batch 1 on the Xeon this was written on; prefetching
    // the rows ahead did not help either.)
    configure(m, kBlock);
    int64_t n0 = r0;
    for (; n0 + kBlock <= r1; n0 += kBlock) block(w, xp, m, b, k, n0, kBlock, y, ldy);
    if (n0 < r1) {  // the last rows, fewer than 16: the same steps over shorter tiles
        configure(m, r1 - n0);
        block(w, xp, m, b, k, n0, r1 - n0, y, ldy);
    }
    _tile_release();  // no tile state kept between calls (it would be saved at every context switch)
    note_ran(kRanAmxBf16);
}

}  // namespace

// Linux hands a process the AMX tile state only after asking (arch_prctl ARCH_REQ_XCOMP_PERM for
// XTILEDATA); without it the first tile instruction is SIGILL. The permission is process-wide.
bool amx_bf16_permitted() {
    static const bool permitted = [] {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("amx-tile") || !__builtin_cpu_supports("amx-bf16") ||
            !__builtin_cpu_supports("avx512bf16"))
            return false;
        constexpr long kArchReqXcompPerm = 0x1023;
        constexpr long kXfeatureXtiledata = 18;
        return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
    }();
    return permitted;
}

void gemv_rows_bf16_amx(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                        int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    rows(w, x, ldx, m, b, k, r0, r1, y, ldy);
}

}  // namespace reef::kernels

#else  // not x86-64 Linux: never selected (amx_bf16_permitted() is false), defined for the linker

namespace reef::kernels {
bool amx_bf16_permitted() { return false; }
void gemv_rows_bf16_amx(const uint16_t*, const uint16_t*, int64_t, int64_t, const uint16_t*, int64_t, int64_t, int64_t,
                        uint16_t*, int64_t) {}
}  // namespace reef::kernels

#endif
