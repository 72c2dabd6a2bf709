#include "qt/engine_worker.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <exception>
#include <optional>

#include "reef/quantize.h"

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

// One request's progress and perf throttle; all on the engine thread.
struct EngineWorker::Throttle {
    QElapsedTimer run, lastProgress, lastPerf;
    std::optional<PerfSample> pendingPerf;
    int frames = 0;
    Throttle() {
        run.start();
        lastProgress.start();
        lastPerf.start();
    }
    void frame(EngineWorker* w, quint64 id, int frame) {
        frames = frame + 1;
        // The first frame goes out at once: the views time decoding from it (a compile or the
        // prefill before it is not decode time).
        if (frame == 0 || lastProgress.elapsed() >= kThrottleMs) {
            lastProgress.restart();
            Q_EMIT w->progress(id, frames, double(run.nsecsElapsed()) / 1e6);
        }
    }
    void perf(EngineWorker* w, quint64 id, const PerfSample& s) {
        pendingPerf = s;
        pendingPerf->request_id = id;
        if (lastPerf.elapsed() >= kThrottleMs) {
            lastPerf.restart();
            Q_EMIT w->perfSample(*pendingPerf);
            pendingPerf.reset();
        }
    }
    void flush(EngineWorker* w, quint64 id) {
        if (pendingPerf)
            Q_EMIT w->perfSample(*pendingPerf);
        pendingPerf.reset();
        Q_EMIT w->progress(id, frames, double(run.nsecsElapsed()) / 1e6);
    }
};

std::function<void(const std::string&)> EngineWorker::statusLines(quint64 id) {
    return [this, id, last = std::make_shared<QString>()](const std::string& message) {
        const QString text = QString::fromStdString(message);
        if (text == *last)
            return;  // the engine repeats a line while the seconds have not moved
        *last = text;
        Q_EMIT status(id, text);
    };
}

void EngineWorker::emitResult(quint64 id, Result<SynthesisResult> r) {
    if (r.ok()) {
        r.value().request_id = id;
        Q_EMIT synthesisFinished(r.value());
    } else {
        Q_EMIT synthesisFailed(id, r.error());
    }
}

Callbacks EngineWorker::makeCallbacks(quint64 id) {
    // The throttle lives in a shared block the lambdas capture; all on this thread.
    auto t = std::make_shared<Throttle>();
    Callbacks cb;
    cb.on_frame = [this, t, id](uint64_t, int frame, const std::vector<int32_t>&) { t->frame(this, id, frame); };
    cb.on_audio_chunk = [this, id](const AudioChunk& chunk) {
        AudioChunk c = chunk;
        c.request_id = id;
        Q_EMIT audioChunk(c);
    };
    cb.on_perf = [this, t, id](const PerfSample& s) { t->perf(this, id, s); };
    cb.should_abort = [cancel = m_cancel, id] { return cancel->isCancelled(id); };
    cb.on_status = statusLines(id);
    // Flushes what the throttle held back, so the chart and progress show the final state.
    m_flush = [this, t, id] { t->flush(this, id); };
    return cb;
}

Callbacks EngineWorker::makeBatchCallbacks(const QList<quint64>& ids, std::function<void(quint64)>* flush) {
    auto throttles = std::make_shared<QHash<quint64, std::shared_ptr<Throttle>>>();
    for (quint64 id : ids)
        throttles->insert(id, std::make_shared<Throttle>());
    Callbacks cb;
    // The engine tags every frame, chunk and sample with its request's id; ids not of this batch
    // cannot come, but are dropped rather than trusted.
    cb.on_frame = [this, throttles](uint64_t id, int frame, const std::vector<int32_t>&) {
        if (auto t = throttles->value(id))
            t->frame(this, id, frame);
    };
    cb.on_audio_chunk = [this, throttles](const AudioChunk& chunk) {
        if (throttles->contains(chunk.request_id))
            Q_EMIT audioChunk(chunk);
    };
    cb.on_perf = [this, throttles](const PerfSample& s) {
        if (auto t = throttles->value(s.request_id))
            t->perf(this, s.request_id, s);
    };
    // The batch's status lines (e.g. the batch size auto picked) under its first request's id.
    cb.on_status = statusLines(ids.value(0));
    *flush = [this, throttles](quint64 id) {
        if (auto t = throttles->value(id))
            t->flush(this, id);
    };
    return cb;
}

void EngineWorker::synthesizeBatch(const QList<reef::SynthesisRequest>& requests, int maxBatch) {
    QList<quint64> ids;
    for (const SynthesisRequest& r : requests)
        ids << r.id;
    QSet<quint64> open(ids.begin(), ids.end());   // requests not yet told of
    auto done = [&](quint64 id, const Result<SynthesisResult>& r) {
        if (!open.remove(id))
            return;
        m_cancel->forget(id);
        emitResult(id, r);
    };
    guardedSlot(
        "batch synthesis",
        [&] {
            std::vector<SynthesisRequest> todo;
            for (const SynthesisRequest& r : requests) {
                if (m_cancel->isCancelled(r.id))
                    done(r.id, cancelledError());
                else
                    todo.push_back(r);
            }
            if (todo.empty())
                return;
            std::function<void(quint64)> flush;
            const Callbacks cb = makeBatchCallbacks(ids, &flush);
            const auto cancelRequest = [cancel = m_cancel](uint64_t id) { return cancel->isCancelled(id); };
            (void)m_backend->synthesize_batch(todo, maxBatch, cb, cancelRequest, [&](uint64_t id, const Result<SynthesisResult>& r) {
                flush(id);
                done(id, r);
            });
        },
        [&](const EngineError& e) {
            for (quint64 id : ids)
                done(id, e);
        });
    for (quint64 id : ids)   // a backend that forgot one: never leave a request without an end
        done(id, EngineError{ErrorCode::Internal, "the backend returned no result for this request", {}});
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
            emitResult(id, std::move(r));
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

void EngineWorker::decodeCodes(quint64 id, const reef::Codes& codes) {
    guardedSlot(
        "decoding codes",
        [&] {
            Result<std::vector<float>> r = m_backend->decode_codes(codes);
            if (!r.ok())
                return Q_EMIT decodeFailed(id, r.error());
            SynthesisResult out;
            out.request_id = id;
            out.codes = codes;
            out.audio = std::move(r.value());
            out.metrics.frames = codes.n_frames;
            out.metrics.audio_seconds = double(out.audio.size()) / kSampleRate;
            Q_EMIT codesDecoded(out);
        },
        [&](const EngineError& e) { Q_EMIT decodeFailed(id, e); });
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

void EngineWorker::quantizeModel(quint64 id, const QString& in, const QString& out, const QString& format, int group,
                                 bool embeddings) {
    guardedSlot(
        "quantize",
        [&] {
            if (m_cancel->isCancelled(id)) {
                Q_EMIT quantizeFailed(id, cancelledError());
                return;
            }
            QElapsedTimer since;
            since.start();
            QuantizeOptions options;
            options.format = format.toStdString();
            options.group = group;
            options.embeddings = embeddings;
            options.progress = [&](int done, int total, const std::string&) {
                if (done == total || since.elapsed() >= kThrottleMs) {
                    since.restart();
                    Q_EMIT quantizeProgress(id, done, total);
                }
                return !m_cancel->isCancelled(id);
            };
            const Result<QuantizeSummary> r = quantize_model(QFile::encodeName(in).toStdString(),
                                                             QFile::encodeName(out).toStdString(), options);
            if (r.ok())
                Q_EMIT quantizeFinished(id, r.value().bytes_before, r.value().bytes_after);
            else
                Q_EMIT quantizeFailed(id, r.error());
        },
        [&](const EngineError& e) { Q_EMIT quantizeFailed(id, e); });
}

}  // namespace reef::ui
