// KvCache sizing, growth and index writes; the attention span of each KvMode; the memory caches and
// weights lie in (huge pages where their first touch is measured cheap, base/huge_page_advice.h).
#include <ATen/ATen.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "env_scope.h"
#include "base/huge_page_advice.h"
#include "base/kernel_switch.h"
#include "base/weight_memory.h"
#include "reef/result.h"
#include "text2semantic/kv_cache.h"

using namespace reef;

namespace {

// The VmFlags of the mapping that holds `p`, from /proc/self/smaps: the kernel's own record of the
// advice given for it ("hg": MADV_HUGEPAGE). "" when no mapping holds it.
std::string vm_flags_of(const void* p) {
    const auto a = reinterpret_cast<uintptr_t>(p);
    std::ifstream in("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (line.find(':') == std::string::npos || line.find('-') < line.find(':')) {  // "lo-hi perms ..." starts a mapping
            if (head >> std::hex >> lo >> dash >> hi && dash == '-') inside = a >= lo && a < hi;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) return line.substr(8) + " ";
    }
    return "";
}

bool advised_huge(const at::Tensor& t) { return vm_flags_of(t.data_ptr()).find(" hg ") != std::string::npos; }


bool huge_pages_testable() { return weight_memory_enabled() && std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

}  // namespace

TEST_CASE(capacity_is_sized_to_the_request) {
    CHECK_EQ(kv_capacity_for(100, 50, 64, 32768), 216);   // round_up(214, 8)
    CHECK_EQ(kv_capacity_for(100, 50, 0, 32768), 152);
    CHECK_EQ(kv_capacity_for(4000, 1024, 64, 4093), 4096);  // capped at max_seq_len rounded to 8
    KvCache c(2, 2, 4, 13, at::TensorOptions().dtype(at::kFloat));
    CHECK_EQ(c.capacity(), 16);
    CHECK_EQ(c.n_layer(), 2);
    CHECK_EQ(c.bytes(), int64_t(2 * 2 * 2 * 16 * 4 * 4));
    CHECK_EQ(c.keys(1, 16).size(2), 16);
}

TEST_CASE(update_writes_rows_and_growth_keeps_them) {
    KvCache c(1, 2, 3, 8, at::TensorOptions().dtype(at::kFloat));
    const at::Tensor k = at::arange(2 * 2 * 3, at::kFloat).view({1, 2, 2, 3});
    c.update(0, 5, k, -k);
    CHECK(at::equal(c.keys(0, 7).narrow(2, 5, 2), k));
    CHECK(at::equal(c.values(0, 7).narrow(2, 5, 2), -k));
    CHECK_EQ(c.keys(0, 5).abs().sum().item<float>(), 0.0f);
    c.ensure_capacity(9);
    CHECK_EQ(c.capacity(), 16);
    CHECK(at::equal(c.keys(0, 7).narrow(2, 5, 2), k));
    CHECK_EQ(c.keys(0, 16).narrow(2, 8, 8).abs().sum().item<float>(), 0.0f);
    c.ensure_capacity(4);  // never shrinks
    CHECK_EQ(c.capacity(), 16);
    bool threw = false;
    try {
        c.update(0, 15, k, k);  // rows 15..16 overflow
    } catch (const ReefError&) {
        threw = true;
    }
    CHECK(threw);
    c.reset();
    CHECK_EQ(c.keys(0, 16).abs().sum().item<float>(), 0.0f);
}

TEST_CASE(a_cpu_cache_lies_in_huge_page_advised_memory) {
    if (!weight_memory_enabled()) return reef_test::skip("REEF_WEIGHT_MEMORY=0");
    if (!kernel_switched_on("REEF_KV_MEMORY")) return reef_test::skip("REEF_KV_MEMORY=0");
    if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) return reef_test::skip("a kernel without huge pages");
    reef_test::EnvScope env;
    env.set("REEF_HUGE_PAGES", "1");  // not left to this machine's measured first touch
    // s1-mini's 8 KV heads of 128 over 512 rows: 2 MB a tensor, streamed by every decode step.
    // Like the weights, each starts on a 2 MB boundary in memory advised for huge pages (the OS's
    // record, /proc/self/smaps), zeroed, and stays so when the cache grows.
    KvCache c(2, 8, 128, 512, at::TensorOptions().dtype(at::kFloat));
    auto check_memory = [&] {
        for (int64_t il = 0; il < c.n_layer(); ++il)
            for (const at::Tensor& t : {c.keys(il, c.capacity()), c.values(il, c.capacity())}) {
                CHECK_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % (uintptr_t(2) << 20), uintptr_t(0));
                CHECK(vm_flags_of(t.data_ptr()).find(" hg ") != std::string::npos);
            }
    };
    check_memory();
    CHECK_EQ(c.keys(1, 512).abs().sum().item<float>(), 0.0f);
    const at::Tensor k = at::randn({1, 8, 3, 128});
    c.update(1, 500, k, k);
    c.ensure_capacity(1000);
    check_memory();
    CHECK(at::equal(c.keys(1, 503).narrow(2, 500, 3), k));
    CHECK_EQ(c.values(1, 1000).narrow(2, 503, 497).abs().sum().item<float>(), 0.0f);
    // a cache too small to fill a huge page stays where libtorch puts it
    KvCache small(1, 2, 4, 16, at::TensorOptions().dtype(at::kFloat));
    CHECK(vm_flags_of(small.keys(0, 16).data_ptr()).find(" hg ") == std::string::npos);
}

TEST_CASE(huge_page_advice_follows_the_measured_first_touch) {
    if (!huge_pages_testable()) return reef_test::skip("REEF_WEIGHT_MEMORY=0 or a kernel without huge pages");
    reef_test::EnvScope env;
    env.set("REEF_HUGE_PAGES", nullptr);  // measured
    reset_huge_page_measure();
    const auto fresh = [] { return empty_weight_memory({int64_t(4) << 20}, at::kByte); };
    CHECK(advised_huge(fresh()));  // nothing measured yet
    record_huge_page_fill(kHugePageMeasureBytes, 1.0);  // 32 MB first touched in 1 s: dear
    CHECK(!advised_huge(fresh()));
    {
        reef_test::EnvScope always;
        always.set("REEF_HUGE_PAGES", "1");
        CHECK(advised_huge(fresh()));
    }
    reset_huge_page_measure();
    record_huge_page_fill(kHugePageMeasureBytes, 0.001);  // 32 GB/s: cheap
    CHECK(advised_huge(fresh()));
    {
        reef_test::EnvScope never;
        never.set("REEF_HUGE_PAGES", "0");
        CHECK(!advised_huge(fresh()));
    }
    // A real fill measures itself: 72 MB copied into weight memory in 8 MB pieces, windows of 32 MB.
    // Where a window was found dear, the region's untouched rest was advised back to 4 KB pages
    // (the kernel's record, "nh"): so the last 8 MB carry "nh" exactly when the verdict is dear.
    reset_huge_page_measure();
    std::vector<uint8_t> src(size_t(72) << 20);
    for (size_t i = 0; i < src.size(); i += 4093) src[i] = uint8_t(i / 4093);
    const at::Tensor w = weight_memory_from(src.data(), src.size(), {9, int64_t(8) << 20}, at::kByte);
    CHECK(std::memcmp(w.data_ptr(), src.data(), src.size()) == 0);
    CHECK(advised_huge(w));
    const std::string tail = vm_flags_of(static_cast<const uint8_t*>(w.data_ptr()) + src.size() - 1);
    CHECK_EQ(tail.find(" nh ") != std::string::npos, huge_pages_found_dear());
    reset_huge_page_measure();
}

TEST_CASE(attention_span_per_mode) {
    // ActivePrefix decode: exact-length prefix, no mask
    AttentionSpan s = attention_span(KvMode::ActivePrefix, 9, 1, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 10);
    CHECK(!s.mask.has_value());
    // ActivePrefix prefill: causal T x T
    s = attention_span(KvMode::ActivePrefix, 0, 4, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 4);
    CHECK(s.mask.has_value());
    CHECK(at::equal(s.mask->view({4, 4}), at::ones({4, 4}, at::kBool).tril()));
    // Full decode: the whole capacity, keys <= position visible
    s = attention_span(KvMode::Full, 9, 1, 32, at::kCPU);
    CHECK_EQ(s.kv_len, 32);
    CHECK_EQ(s.mask->sum().item<int64_t>(), 10);
    CHECK(s.mask->view({32})[9].item<bool>());
    CHECK(!s.mask->view({32})[10].item<bool>());
    // Full prefill: causal rows padded with false
    s = attention_span(KvMode::Full, 0, 3, 8, at::kCPU);
    CHECK_EQ(s.mask->sum().item<int64_t>(), 6);
}

TEST_MAIN()
