#include "qt/engine_worker.h"

#include <QElapsedTimer>
#include <exception>
#include <optional>

namespace reef::ui {
namespace {

EngineError internalError(const char* what, const char* where) {
    return EngineError{ErrorCode::Internal, std::string("unexpected error in ") + where + ": " + what, {}};
}

EngineError cancelledError() { return EngineError{ErrorCode::Cancelled, "cancelled before it started", {}}; }

// Runs body; any exception becomes onError(EngineError). Exceptions must never leave a Qt slot.
template <class Body, class OnError>
void guardedSlot(const char* where, Body&& body, OnError&& onError) {
    try {
        body();
    } catch (const std::exception& e) {
        onError(internalError(e.what(), where));
    } catch (...) {
        onError(internalError("unknown exception", where));
    }
}

}  // namespace

EngineWorker::EngineWorker(std::unique_ptr<TtsBackend> backend, std::shared_ptr<CancelState> cancel)
    : m_backend(std::move(backend)), m_cancel(std::move(cancel)) {}

EngineWorker::~EngineWorker() = default;

void EngineWorker::queryCaps() {
    guardedSlot("device query", [&] { Q_EMIT capsReady(m_backend->device_caps()); }, [](const EngineError&) {});
}

void EngineWorker::load(quint64 id, const reef::EngineConfig& config) {
    guardedSlot(
        "load",
        [&] {
            Result<ModelInfo> r = m_backend->load(config);
            if (r.ok())
                Q_EMIT loaded(id, r.value(), m_backend->device_caps());
            else
                Q_EMIT loadFailed(id, r.error(), m_backend->is_loaded());
        },
        [&](const EngineError& e) { Q_EMIT loadFailed(id, e, false); });
}

Callbacks EngineWorker::makeCallbacks(quint64 id) {
    // The timers and pending sample live in a shared block the lambdas capture; all on this thread.
    struct Throttle {
        QElapsedTimer run, lastProgress, lastPerf;
        std::optional<PerfSample> pendingPerf;
        int frames = 0;
    };
    auto t = std::make_shared<Throttle>();
    t->run.start();
    t->lastProgress.start();
    t->lastPerf.start();
    Callbacks cb;
    cb.on_frame = [this, t, id](uint64_t, int frame, const std::vector<int32_t>&) {
        t->frames = frame + 1;
        if (t->lastProgress.elapsed() >= kThrottleMs) {
            t->lastProgress.restart();
            Q_EMIT progress(id, t->frames, double(t->run.nsecsElapsed()) / 1e6);
        }
    };
    cb.on_audio_chunk = [this, id](const AudioChunk& chunk) {
        AudioChunk c = chunk;
        c.request_id = id;
        Q_EMIT audioChunk(c);
    };
    cb.on_perf = [this, t, id](const PerfSample& s) {
        t->pendingPerf = s;
        t->pendingPerf->request_id = id;
        if (t->lastPerf.elapsed() >= kThrottleMs) {
            t->lastPerf.restart();
            Q_EMIT perfSample(*t->pendingPerf);
            t->pendingPerf.reset();
        }
    };
    cb.should_abort = [cancel = m_cancel, id] { return cancel->isCancelled(id); };
    cb.on_status = [this, id, last = std::make_shared<QString>()](const std::string& message) {
        const QString text = QString::fromStdString(message);
        if (text == *last)
            return;  // the engine repeats a line while the seconds have not moved
        *last = text;
        Q_EMIT status(id, text);
    };
    // Flushes what the throttle held back, so the chart and progress show the final state.
    m_flush = [this, t, id] {
        if (t->pendingPerf)
            Q_EMIT perfSample(*t->pendingPerf);
        Q_EMIT progress(id, t->frames, double(t->run.nsecsElapsed()) / 1e6);
    };
    return cb;
}

void EngineWorker::synthesize(const reef::SynthesisRequest& request) {
    const quint64 id = request.id;
    guardedSlot(
        "synthesis",
        [&] {
            if (m_cancel->isCancelled(id)) {
                Q_EMIT synthesisFailed(id, cancelledError());
                return;
            }
            const Callbacks cb = makeCallbacks(id);
            Result<SynthesisResult> r = m_backend->synthesize(request, cb);
            if (m_flush)
                m_flush();
            m_flush = nullptr;
            if (r.ok()) {
                r.value().request_id = id;
                Q_EMIT synthesisFinished(r.value());
            } else {
                Q_EMIT synthesisFailed(id, r.error());
            }
        },
        [&](const EngineError& e) {
            m_flush = nullptr;
            Q_EMIT synthesisFailed(id, e);
        });
}

void EngineWorker::encodeReference(quint64 id, const std::vector<float>& mono44k) {
    guardedSlot(
        "reference encoding",
        [&] {
            Result<Codes> r = m_backend->encode_reference(mono44k);
            if (r.ok())
                Q_EMIT referenceEncoded(id, r.value());
            else
                Q_EMIT referenceFailed(id, r.error());
        },
        [&](const EngineError& e) { Q_EMIT referenceFailed(id, e); });
}

void EngineWorker::runBench(quint64 id, const reef::BenchRequest& request) {
    guardedSlot(
        "bench",
        [&] {
            if (m_cancel->isCancelled(id)) {
                Q_EMIT benchFailed(id, cancelledError());
                return;
            }
            auto progressFn = [this, id](int arm, const std::string& msg) {
                Q_EMIT benchProgress(id, arm, QString::fromStdString(msg));
            };
            auto abortFn = [cancel = m_cancel, id] { return cancel->isCancelled(id); };
            Result<BenchReport> r = m_backend->bench(request, progressFn, abortFn);
            if (r.ok())
                Q_EMIT benchFinished(id, r.value());
            else
                Q_EMIT benchFailed(id, r.error());
        },
        [&](const EngineError& e) { Q_EMIT benchFailed(id, e); });
}

}  // namespace reef::ui
