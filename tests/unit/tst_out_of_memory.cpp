// Failure while running (issue #13): a real CPU allocation failure in the middle of a synthesis
// becomes an InsufficientMemory error value at the facade, and the same Engine then synthesizes
// again, with the same codes as before the failure.
//
// The failure is the real one: at frame kLimitAtFrame the test lowers RLIMIT_AS (the address space
// the kernel lets this process map) to 1 MiB below what is mapped right now (a block the step frees
// in between must not make room for the next), so the next allocation that needs new memory fails
// inside libtorch's CPU allocator exactly as on a machine out of memory. glibc's
// malloc is told to take every block above a small threshold straight from mmap and to give it
// back at once, so the engine's activations do need new mappings (instead of reusing its heap).
#include <malloc.h>
#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <vector>

#include "check.h"
#include "reef/engine.h"
#include "text2semantic/kv_cache.h"

using namespace reef;

namespace {

constexpr int kLimitAtFrame = 6;
constexpr uint64_t kLimitMargin = 1 << 20;

uint64_t vm_size_bytes() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
    return 0;
}

// Lowers the soft RLIMIT_AS for its lifetime; the hard limit is untouched, so it can be raised back.
class AddressSpaceLimit {
public:
    AddressSpaceLimit() { getrlimit(RLIMIT_AS, &m_saved); }
    ~AddressSpaceLimit() { restore(); }
    bool lower_to(uint64_t bytes) {
        rlimit l = m_saved;
        l.rlim_cur = bytes;
        m_active = setrlimit(RLIMIT_AS, &l) == 0;
        return m_active;
    }
    void restore() {
        if (m_active) setrlimit(RLIMIT_AS, &m_saved);
        m_active = false;
    }

private:
    rlimit m_saved{};
    bool m_active = false;
};

SynthesisRequest request() {
    SynthesisRequest r;
    r.id = 7;
    r.text = "Memory runs out half-way through this sentence, and the next request must still work.";
    r.sampling.max_new_frames = 40;
    r.sampling.seed = 11;
    r.stream_chunk_frames = 8;
    return r;
}

// Synthesizes once (the reference), once with RLIMIT_AS lowered at frame kLimitAtFrame (must fail
// with InsufficientMemory), and once more (must give the reference's codes and audio again).
// Returns the frames decoded after the limit, -1 when a step did not go as required.
int fail_mid_run_then_recover(int stream_chunk_frames, bool codec_worker = true) {
    const auto dir = reef_test::temp_dir("out_of_memory_" + std::to_string(stream_chunk_frames)) / "tiny";
    const Status written = write_demo_model(dir.string(), "tiny", "s2");
    CHECK(written.ok());
    if (!written.ok()) return -1;
    Engine engine;
    EngineConfig config;
    config.model_dir = dir.string();
    config.cpu_threads = 1;
    config.codec_worker = codec_worker;
    const auto loaded = engine.load(config);
    CHECK(loaded.ok());
    if (!loaded.ok()) return -1;
    SynthesisRequest req = request();
    req.stream_chunk_frames = stream_chunk_frames;

    const auto before = engine.synthesize(req, {});
    CHECK(before.ok());
    if (!before.ok()) return -1;
    CHECK(before->metrics.frames > kLimitAtFrame + 1);  // the failure below is mid-run, not at the end

    AddressSpaceLimit limit;
    int frames = 0, frames_after_limit = 0;
    bool lowered = false;
    // Free blocks already in the heap serve an allocation without new memory, however low the
    // limit (how many depends on what ran before: the first run in a fresh test folder left enough
    // for 34 frames, once the sampler stopped mapping a fresh 623 KB draw every frame; CI runs of
    // c22a8c3, e8ed83f and e4f1953 failed so). So once the limit is down, the heap's free blocks of
    // 4 KiB and more are taken too, and held until the run has failed: from then on such a block
    // needs new memory, as on a machine that has run out.
    std::vector<void*> held;
    held.reserve(size_t(1) << 18);
    Callbacks cb;
    cb.on_frame = [&](uint64_t, int, const std::vector<int32_t>&) {
        ++frames;
        if (lowered) ++frames_after_limit;
        if (frames != kLimitAtFrame) return;
        // below what is mapped now by more than a step's short-lived blocks, so that one of them
        // unmapped in between does not leave room for the next
        lowered = limit.lower_to(vm_size_bytes() - kLimitMargin);
        for (const size_t size : {size_t(1) << 20, size_t(64) << 10, size_t(4) << 10})
            while (held.size() < held.capacity())
                if (void* p = std::malloc(size))
                    held.push_back(p);
                else
                    break;
    };
    const auto failed = engine.synthesize(req, cb);
    limit.restore();
    for (void* p : held) std::free(p);
    std::printf("held %zu free heap blocks\n", held.size());
    CHECK(lowered);
    CHECK(!failed.ok());
    if (failed.ok()) return -1;
    const EngineError& e = failed.error();
    std::printf("stream chunk %d: error after %d of %d frames (%d after the limit): %s\n", stream_chunk_frames, frames,
                before->metrics.frames, frames_after_limit, e.to_string().c_str());
    CHECK(e.code == ErrorCode::InsufficientMemory);
    CHECK(e.message.rfind("synthesize: out of memory: DefaultCPUAllocator: can't allocate memory", 0) == 0);
    CHECK(!e.hint.empty());
    CHECK(frames < before->metrics.frames);  // it stopped where memory ran out, mid-run

    const auto after = engine.synthesize(req, {});
    CHECK(after.ok());
    if (!after.ok()) {
        std::printf("next request: %s\n", after.error().to_string().c_str());
        return -1;
    }
    CHECK(after->codes.data == before->codes.data);  // same seed, same codes: nothing was left corrupt
    CHECK(after->audio == before->audio);
    return frames_after_limit;
}

}  // namespace

TEST_CASE(allocation_failure_in_the_decode_step_is_an_error_and_the_engine_stays_usable) {
    // No streaming: the codec runs only after the last frame, so what fails is the text-to-semantic
    // model's decode step. Every block of 4 KiB or more comes from mmap, as the step's are.
    // One malloc arena for every thread: the free blocks the test takes after the limit are then
    // the ones every thread would be served from, and a thread's own arena cannot grow inside the
    // 64 MiB glibc reserved for it without a new mapping (the main arena grows by brk, which the
    // limit stops).
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 4 * 1024);
    mallopt(M_TRIM_THRESHOLD, 4 * 1024);
    const int after = fail_mid_run_then_recover(0);
    CHECK(after >= 0 && after <= 1);  // the frame being decoded when the limit came
}

TEST_CASE(allocation_failure_while_streaming_is_an_error_and_the_engine_stays_usable) {
    // Streaming chunks of 8 frames, as the GUI asks, decoded between frames (codec_worker off).
    // With the codec worker on, this way of running out was not provoked: the run completed
    // although the limit came at frame 6 (presumably every allocation after it fitted in address
    // space already reserved, such as the worker thread's malloc arena, which glibc grows inside
    // its reservation). That a worker-side error reaches the facade as the same error value is
    // tst_engine_pipeline's worker case.
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024);
    CHECK(fail_mid_run_then_recover(8, /*codec_worker=*/false) >= 0);
}

TEST_CASE(kv_cache_growth_that_runs_out_half_way_leaves_an_empty_cache) {
    // Room for one grown layer tensor (128 MiB) but not two: layer 0's keys grow, its values fail.
    // A cache left with mixed capacities would fail every later request; an empty one is rebuilt.
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    KvCache cache(2, 2, 16, 64, at::TensorOptions().dtype(at::kFloat));
    const int64_t rows = int64_t(1) << 20;
    const uint64_t one_tensor = uint64_t(rows) * 2 * 16 * 4;
    bool threw = false;
    {
        AddressSpaceLimit limit;
        CHECK(limit.lower_to(vm_size_bytes() + one_tensor + one_tensor / 2));
        try {
            cache.ensure_capacity(rows);
        } catch (const c10::Error& e) {  // libtorch's allocator (REEF_KV_MEMORY=0)
            threw = std::string(e.what()).find("can't allocate memory") != std::string::npos;
        } catch (const ReefError& e) {  // the caches' own mapping (base/weight_memory.h)
            threw = e.error().code == ErrorCode::InsufficientMemory &&
                    std::string(e.what()).find("for a KV cache") != std::string::npos;
        }
    }
    CHECK(threw);
    CHECK(cache.empty());
    CHECK_EQ(cache.capacity(), int64_t(0));
    KvCache fresh(2, 2, 16, 128, at::TensorOptions().dtype(at::kFloat));  // with the limit gone it fits
    CHECK_EQ(fresh.capacity(), int64_t(128));
}

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer reserves terabytes of shadow address space at start-up, so an address-space limit
// (RLIMIT_AS) cannot be set under it: the sanitizer build skips this test (ctest's code 77).
int main() {
    std::printf("skipped: RLIMIT_AS cannot be used under AddressSanitizer\n");
    return 77;
}
#else
TEST_MAIN()
#endif
