#include "base/weight_memory.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "check.h"
#include "base/huge_page_advice.h"
#include "base/kernel_switch.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define REEF_WEIGHT_MEMORY_MMAP 1
#endif

namespace reef {
namespace {

#ifdef REEF_WEIGHT_MEMORY_MMAP
constexpr size_t kHugePage = size_t(2) << 20;

struct Region {
    void* addr;
    size_t len;
    bool advised;  // MADV_HUGEPAGE given (base/huge_page_advice.h)
};

// The DataPtr deleter of weight memory: also how in_weight_memory recognises it.
void release_region(void* ctx) {
    auto* r = static_cast<Region*>(ctx);
    ::munmap(r->addr, r->len);
    delete r;
}

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

// An anonymous mapping of `bytes` (rounded to pages) starting on a 2 MB boundary: map 2 MB more
// than needed, then unmap the slack before the boundary and past the end, so only the tail
// piece smaller than 2 MB ends in 4 KB pages.
Region map_region(size_t bytes, const char* what) {
    const size_t page = size_t(::sysconf(_SC_PAGESIZE));
    const size_t len = round_up(bytes, page);
    void* raw = ::mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw ReefError(ErrorCode::InsufficientMemory, "cannot map " + std::to_string(bytes) + " bytes for " + what + ": " +
                                                    std::strerror(errno));
    const auto base = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t start = round_up(base, kHugePage);
    if (start > base) ::munmap(raw, start - base);
    const uintptr_t end = start + len, raw_end = base + len + kHugePage;
    if (raw_end > end) ::munmap(reinterpret_cast<void*>(end), raw_end - end);
    bool advised = false;
#ifdef MADV_HUGEPAGE
    // advice: refused or ignored is fine
    if (advise_huge_pages()) advised = ::madvise(reinterpret_cast<void*>(start), len, MADV_HUGEPAGE) == 0;
#endif
    return {reinterpret_cast<void*>(start), len, advised};
}

const Region* region_of(const at::Tensor& t) {
    const c10::DataPtr& p = t.storage().data_ptr();
    return p.get_deleter() == &release_region ? static_cast<const Region*>(p.get_context()) : nullptr;
}
#endif

// Writes `out` (fresh weight memory, or any tensor) for the first time, `write(row0, rows)` over
// dim 0 in pieces of about 8 MB. Where `out` lies in huge-page-advised memory and the huge pages
// are being measured (base/huge_page_advice.h), each piece's first-touch speed is recorded, and
// once they are found dear the region's untouched rest is advised back to 4 KB pages.
template <typename Write>
void first_write(const at::Tensor& out, Write&& write) {
    const int64_t n = out.dim() == 0 ? 1 : out.size(0);
    const size_t row_bytes = n > 0 ? size_t(out.numel() / n) * out.element_size() : 0;
#ifdef REEF_WEIGHT_MEMORY_MMAP
    const Region* region = region_of(out);
    bool measuring = region && region->advised && huge_pages_setting() == HugePages::Measured && !huge_pages_found_dear();
#else
    constexpr bool measuring = false;
#endif
    if (!measuring || row_bytes == 0) {
        write(int64_t(0), n);
        return;
    }
#ifdef REEF_WEIGHT_MEMORY_MMAP
    const int64_t step = std::max<int64_t>(1, int64_t((size_t(8) << 20) / row_bytes));
    for (int64_t r = 0; r < n; r += step) {
        const int64_t rows = std::min(step, n - r);
        const auto t0 = std::chrono::steady_clock::now();
        write(r, rows);
        if (!measuring) continue;
        record_huge_page_fill(size_t(rows) * row_bytes, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (!huge_pages_found_dear()) continue;
        measuring = false;
#ifdef MADV_NOHUGEPAGE
        const auto base = reinterpret_cast<uintptr_t>(region->addr);
        const uintptr_t from = round_up(base + size_t(r + rows) * row_bytes, kHugePage), end = base + region->len;
        if (from < end) ::madvise(reinterpret_cast<void*>(from), end - from, MADV_NOHUGEPAGE);
#endif
    }
#endif
}

bool wanted(size_t bytes) { return bytes >= kWeightMemoryMinBytes && weight_memory_enabled(); }

}  // namespace

bool weight_memory_enabled() {
#ifdef REEF_WEIGHT_MEMORY_MMAP
    static const bool on = kernel_switched_on("REEF_WEIGHT_MEMORY");
    return on;
#else
    return false;
#endif
}

bool in_weight_memory(const at::Tensor& t) {
#ifdef REEF_WEIGHT_MEMORY_MMAP
    return t.defined() && t.has_storage() && t.storage().data_ptr().get_deleter() == &release_region;
#else
    (void)t;
    return false;
#endif
}

namespace {

// empty_weight_memory, `what` naming the memory's use in an error
at::Tensor empty_in_region(at::IntArrayRef sizes, at::ScalarType dtype, const char* what) {
    const size_t bytes = size_t(c10::multiply_integers(sizes)) * c10::elementSize(dtype);
    if (!wanted(bytes)) return at::empty(sizes, at::TensorOptions().dtype(dtype));
#ifdef REEF_WEIGHT_MEMORY_MMAP
    const Region r = map_region(bytes, what);  // the pages (huge where granted) are faulted in by the first write
    return at::for_blob(r.addr, sizes)
        .context(new Region(r), &release_region)
        .options(at::TensorOptions().dtype(dtype))
        .make_tensor();
#else
    return at::empty(sizes, at::TensorOptions().dtype(dtype));
#endif
}

}  // namespace

at::Tensor empty_weight_memory(at::IntArrayRef sizes, at::ScalarType dtype) { return empty_in_region(sizes, dtype, "weights"); }

at::Tensor kv_cache_zeros(at::IntArrayRef sizes, const at::TensorOptions& options) {
    static const bool on = kernel_switched_on("REEF_KV_MEMORY");
    if (!on || !options.device().is_cpu()) return at::zeros(sizes, options);
    // a fresh mapping reads as zeros already; writing them commits the pages now, as at::zeros does,
    // so a cache that does not fit fails here and not half-way through a request
    at::Tensor t = empty_in_region(sizes, c10::typeMetaToScalarType(options.dtype()), "a KV cache");
    first_write(t, [&](int64_t r, int64_t rows) { t.narrow(0, r, rows).zero_(); });
    return t;
}

at::Tensor weight_memory_from(const void* src, size_t bytes, at::IntArrayRef sizes, at::ScalarType dtype) {
    REEF_CHECK(bytes == size_t(c10::multiply_integers(sizes)) * c10::elementSize(dtype),
               "weight memory: the byte count does not match the shape");
    at::Tensor t = empty_weight_memory(sizes, dtype);
    const size_t row_bytes = t.dim() == 0 || t.size(0) == 0 ? bytes : bytes / size_t(t.size(0));
    first_write(t, [&](int64_t r, int64_t rows) {
        std::memcpy(static_cast<char*>(t.data_ptr()) + size_t(r) * row_bytes, static_cast<const char*>(src) + size_t(r) * row_bytes,
                    size_t(rows) * row_bytes);
    });
    return t;
}

at::Tensor to_weight_memory(const at::Tensor& t, at::ScalarType dtype) {
    if (!t.defined()) return t;
    if (!t.device().is_cpu()) return t.to(dtype);
    if (t.scalar_type() == dtype && in_weight_memory(t)) return t;
    if (!wanted(size_t(t.numel()) * c10::elementSize(dtype))) return t.to(dtype);
    at::Tensor out = empty_weight_memory(t.sizes(), dtype);
    first_write(out, [&](int64_t r, int64_t rows) {
        if (out.dim() == 0) out.copy_(t);
        else out.narrow(0, r, rows).copy_(t.narrow(0, r, rows));  // converts, and makes it contiguous
    });
    return out;
}

at::Tensor to_weight_memory(const at::Tensor& t) { return t.defined() ? to_weight_memory(t, t.scalar_type()) : t; }

}  // namespace reef
