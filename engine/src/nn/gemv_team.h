// The second core during a CPU decode step (issue #26).
//
// A decode step is a chain of GEMVs that stream weights at the memory's speed, with serial work
// between them: norms, RoPE, attention, residual adds, sampling. On libtorch's OpenMP pool the other
// threads wait through that serial part, and so does the memory. A GemvTeam runs the whole step
// inside one OpenMP parallel region instead: this thread runs the step, the team's other threads
// serve its GEMVs (their share of the rows) and, once their rows are done, read ahead the weights
// the next GEMV will stream, so those bytes come from the caches when it starts. Which matrix comes
// next is learned: a decode step calls its GEMVs in the same order every frame, so the one that
// followed a matrix last time is the one to read after it.
//
// Inside the region libtorch's own ops run on this thread alone (OpenMP nesting is off), and the
// team's threads do not compete with libtorch's for the cores. Most of them are small; the one that
// grows with the context, decode attention, is split by KV heads across the team's threads, each
// running the same SDPA on its share (run_each, nn/attention.cpp). So a step's bits are those of
// the step without a team on one thread: the GEMV rows' bits do not depend on the thread count
// (nn/gemv.cpp), the read-ahead only loads, a KV head's attention is computed alone either way, and
// libtorch's other ops are what they are on one thread (on the pool its flash attention also splits
// a decode query's keys across threads, which rounds differently by about an ulp; greedy codes are
// the same, tests/unit/tst_gemv_team.cpp).
//
// Opt-in (GemvTeamOn, REEF_GEMV_TEAM=1): on the 2-core Zen 4 VM (fp32 s1-mini,
// bench/results/cpu/gemv-team-*.md) short-context frames ran within the machine's noise of the
// pool's (frame-paired roofline medians 0-8 % apart, either way between runs); at a 3072-token
// context attention on one thread made frames 30 % slower (3.91 against 5.56 frames/s); with
// attention split by heads, attention alone runs at the pool's speed and those frames are 15-20 %
// slower in three runs (cause of the rest not found): no run has shown it faster than the pool.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace at {
class Tensor;
}

namespace reef {

class GemvTeam {
public:
    GemvTeam();
    ~GemvTeam();
    GemvTeam(const GemvTeam&) = delete;
    GemvTeam& operator=(const GemvTeam&) = delete;

    // Runs step() on this thread with the team (at::get_num_threads() threads in all) serving its
    // GEMVs where the team is switched on (GemvTeamOn, REEF_GEMV_TEAM=1); step() alone otherwise and
    // where a team cannot help: one thread, a GemvPause (libtorch's linear wants its threads), or
    // already inside a parallel region. The caller runs only steps whose GEMVs the kernels take (CPU, bf16/fp32). Exceptions
    // from step() pass through. Engine thread only.
    void run(const std::function<void()>& step);

    struct State;

private:
    std::unique_ptr<State> m_state;  // the learned GEMV order (references to its weights) and the team's mailbox
};

// Steps this thread has run with a team so far (the bench reports whether an arm's did: what ran).
int64_t gemv_team_steps();

// The team is opt-in: GemvTeam::run uses it only while a GemvTeamOn(true) is alive on this thread
// (bench ":team" arms: its A/B within one run) or the process runs with REEF_GEMV_TEAM=1.
class GemvTeamOn {
public:
    explicit GemvTeamOn(bool on);
    ~GemvTeamOn();
    GemvTeamOn(const GemvTeamOn&) = delete;
    GemvTeamOn& operator=(const GemvTeamOn&) = delete;

private:
    bool m_previous;
};

namespace gemv_team {

// For nn/gemv.cpp. The team of the step running on this thread, or null.
GemvTeam::State* active();
// Team threads serving rows: this one included.
int threads(const GemvTeam::State& team);
// rows() on every team thread (it takes pieces of one GEMV's rows until none are left); returns
// when all have returned. w: the GEMV's weight, which names the matrix to read ahead afterwards.
void run_rows(GemvTeam::State& team, const at::Tensor& w, const std::function<void()>& rows);
// job(t) on every team thread t (0: this one, up to threads() - 1), the others in this thread's
// libtorch state (inference mode, dispatch keys: at::ThreadLocalState), so they can run ATen ops
// (decode attention split by heads, nn/attention.cpp); returns when all have. What a job throws is
// rethrown here once every thread is done (this thread's first).
void run_each(GemvTeam::State& team, const std::function<void(int thread)>& job);

}  // namespace gemv_team
}  // namespace reef
