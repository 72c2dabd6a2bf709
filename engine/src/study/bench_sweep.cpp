#include "study/bench_sweep.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "check.h"
#include "study/bench_runner.h"
#include "base/perf.h"
#include "runtime/synthesis.h"

namespace reef {
namespace {

// Ordinary narration to lengthen prompts: what the prefix holds does not change the cost of
// attending over it, but a real sentence keeps the tokenizer on its usual path.
constexpr const char* kFiller =
    "The harbour was quiet in the early morning, and the fishing boats rocked gently against the pier. "
    "A light wind came in from the sea, carrying the smell of salt and the calls of the gulls. "
    "Along the water the old lighthouse keeper walked slowly, counting the boats as he always did. "
    "Nobody remembered when the tradition began, but every child in the village knew the story of the reef. "
    "When the tide was low, the coral rose close to the surface and the water turned a brighter blue.";

// Longest run of filler text a sweep point may build (the tokenizer runs over it a few dozen times).
constexpr size_t kMaxSweepTextBytes = 1'000'000;

std::vector<std::string> filler_words() {
    std::vector<std::string> words;
    std::istringstream in(kFiller);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

std::string text_with_words(const std::string& base, const std::vector<std::string>& words, int64_t n) {
    std::string t = base;
    for (int64_t i = 0; i < n; ++i) {
        t += ' ';
        t += words[size_t(i) % words.size()];
    }
    return t;
}

SynthesisRequest sweep_request(const BenchRequest& req, std::string text) {
    SynthesisRequest s = greedy_request(req);
    s.text = std::move(text);
    return s;
}

}  // namespace

std::string text_for_context(const Pipeline& p, const BenchRequest& req, int64_t target, int64_t* prompt_tokens) {
    const std::vector<std::string> words = filler_words();
    auto length = [&](int64_t n) { return first_prompt_length(p, sweep_request(req, text_with_words(req.text, words, n))); };
    // Grow an upper bound, then bisect for the most words whose prompt still fits: the prompt
    // never gets shorter as words are added.
    int64_t lo = 0, lo_len = length(0);
    if (lo_len >= target) {
        *prompt_tokens = lo_len;  // the bench text alone is already that long
        return req.text;
    }
    int64_t hi = 1;
    for (int64_t len; (len = length(hi)) <= target;) {
        lo = hi, lo_len = len;
        hi *= 2;
        if (text_with_words(req.text, words, hi).size() > kMaxSweepTextBytes)
            throw ReefError(ErrorCode::InvalidArgument, "a prompt of " + std::to_string(target) + " tokens needs more than " +
                                                            std::to_string(kMaxSweepTextBytes) + " bytes of text");
    }
    while (hi - lo > 1) {  // lo_len stays the prompt length of lo words: no tokenizing it again
        const int64_t mid = lo + (hi - lo) / 2, len = length(mid);
        if (len <= target) lo = mid, lo_len = len;
        else hi = mid;
    }
    *prompt_tokens = lo_len;
    return text_with_words(req.text, words, lo);
}

void run_context_sweep(Pipeline& p, const BenchRequest& req, BenchReport& report, ArmModel::Spares& spares,
                       const std::function<void(int, const std::string&)>& progress, const Callbacks& cb) {
    const int64_t max_seq_len = p.model->config().max_seq_len;
    const size_t n_arms = report.arms.size();
    for (int context : req.contexts) {
        const size_t first = report.sweep.size();
        for (size_t i = 0; i < n_arms; ++i) {
            SweepPoint pt;
            pt.arm = int(i);
            pt.context = context;
            report.sweep.push_back(pt);
        }
        auto refuse_all = [&](const std::string& why) {
            for (size_t i = 0; i < n_arms; ++i) report.sweep[first + i].error = why;
        };
        std::string text;
        int64_t prompt_tokens = 0;
        if (context < 1) {
            refuse_all("a context must be at least 1 token");
            continue;
        }
        if (int64_t(context) + req.frames > max_seq_len) {
            refuse_all("context " + std::to_string(context) + " + " + std::to_string(req.frames) +
                       " frames exceeds this model's max_seq_len " + std::to_string(max_seq_len));
            continue;
        }
        try {
            text = text_for_context(p, req, context, &prompt_tokens);
        } catch (const ReefError& e) {
            if (e.error().code == ErrorCode::Cancelled) throw;
            refuse_all(e.error().message);
            continue;
        }
        std::vector<std::vector<double>> fps(n_arms), step(n_arms), prefill(n_arms);
        for (int rep = 0; rep < req.sweep_repeats; ++rep)
            for (size_t i = 0; i < n_arms; ++i) {
                SweepPoint& pt = report.sweep[first + i];
                pt.prompt_tokens = int(prompt_tokens);
                if (!report.arms[i].error.empty() && pt.error.empty()) pt.error = report.arms[i].error;  // refused in the matrix
                if (!pt.error.empty()) continue;
                if (progress)
                    progress(int(i), report.arms[i].arm.name() + " @ " + std::to_string(prompt_tokens) + " tokens: repeat " +
                                         std::to_string(rep + 1) + "/" + std::to_string(req.sweep_repeats));
                try {
                    const ArmModel weights(p, spares, report.arms[i].arm);
                    p.caches = Text2SemanticCaches{};  // each point sizes its own cache; cold costs stay in prefill
                    RunOptions o = run_options(p, req, report.arms[i].arm);
                    o.capture_logits_frames = 0;
                    o.max_text_bytes = kMaxSweepTextBytes;
                    const SynthesisResult res = run_synthesis(p, sweep_request(req, text), cb, o);
                    fps[i].push_back(res.metrics.warm_frames_per_s);
                    const auto& ms = res.metrics.step_ms;
                    const size_t skip = std::min(ms.size(), size_t(std::max(0, req.warmup)));
                    step[i].push_back(median(std::vector<double>(ms.begin() + std::ptrdiff_t(skip), ms.end())));
                    prefill[i].push_back(res.metrics.prefill_ms);
                    pt.memory.cpu_peak_rss_bytes = std::max(pt.memory.cpu_peak_rss_bytes, res.metrics.memory.cpu_peak_rss_bytes);
                    pt.memory.cuda_peak_allocated_bytes =
                        std::max(pt.memory.cuda_peak_allocated_bytes, res.metrics.memory.cuda_peak_allocated_bytes);
                    pt.backends = res.metrics.backends;
                } catch (const ReefError& e) {
                    if (e.error().code == ErrorCode::Cancelled) throw;
                    pt.error = e.error().message;
                }
            }
        for (size_t i = 0; i < n_arms; ++i) {
            SweepPoint& pt = report.sweep[first + i];
            if (!pt.error.empty() || fps[i].empty()) continue;
            pt.ran = true;
            pt.warm_frames_per_s = median(fps[i]);
            pt.step_ms = median(step[i]);
            pt.prefill_ms = median(prefill[i]);
        }
    }
    p.caches = Text2SemanticCaches{};  // leave no sweep-sized cache behind
}

}  // namespace reef
