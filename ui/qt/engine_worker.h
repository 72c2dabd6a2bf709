// The engine thread's QObject: runs every TtsBackend call, turns the engine's callbacks into
// throttled value-type signals, and never lets an exception escape a slot (docs/architecture.md, rules 3–5).
#pragma once
#include <QObject>
#include <QString>
#include <QList>
#include <QSet>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "qt/engine_types_qt.h"
#include "reef/backend.h"

namespace reef::ui {

// Shared by the controller (GUI thread) and the worker: every request with id <= cancelledThrough
// aborts at its next frame. A counter, not a bool, so a new request is never cancelled by the old flag.
// One request of a batch is cancelled alone through cancelOne (the others go on).
struct CancelState {
    std::atomic<quint64> cancelledThrough{0};
    bool isCancelled(quint64 id) const {
        if (id <= cancelledThrough.load(std::memory_order_acquire))
            return true;
        const std::lock_guard<std::mutex> lock(mutex);
        return cancelledOne.contains(id);
    }
    void cancelOne(quint64 id) {
        const std::lock_guard<std::mutex> lock(mutex);
        cancelledOne.insert(id);
    }
    void forget(quint64 id) {   // the request ended: its entry is no longer needed
        const std::lock_guard<std::mutex> lock(mutex);
        cancelledOne.remove(id);
    }

private:
    mutable std::mutex mutex;
    QSet<quint64> cancelledOne;
};

class EngineWorker : public QObject {
    Q_OBJECT
public:
    EngineWorker(std::unique_ptr<TtsBackend> backend, std::shared_ptr<CancelState> cancel);
    ~EngineWorker() override;
    // Progress and perf signals are coalesced to at most one per this many milliseconds (~20 Hz).
    static constexpr int kThrottleMs = 50;

public Q_SLOTS:
    void queryCaps();
    void load(quint64 id, const reef::EngineConfig& config);
    void synthesize(const reef::SynthesisRequest& request);
    // Up to maxBatch of the requests decode together (0 = auto); each ends with its own
    // synthesisFinished or synthesisFailed as soon as it is done.
    void synthesizeBatch(const QList<reef::SynthesisRequest>& requests, int maxBatch);
    void encodeReference(quint64 id, const std::vector<float>& mono44k);
    // A take's stored codes decoded again by this model's codec (its precision, its device): no
    // sampling. codesDecoded carries a SynthesisResult with the request id, the codes and the audio.
    void decodeCodes(quint64 id, const reef::Codes& codes);
    void runBench(quint64 id, const reef::BenchRequest& request);
    // "Quantize this model" (issue #44): the folder `in` written as weight-only int8, or int4 in
    // groups of `group`, into `out` (reef/quantize.h; QuantizeOptions format and group). Libtorch
    // work, so on this thread; cancelled like a bench, before anything is written.
    void quantizeModel(quint64 id, const QString& in, const QString& out, const QString& format, int group,
                       bool embeddings = false);

Q_SIGNALS:
    void capsReady(const reef::DeviceCaps& caps);
    void loaded(quint64 id, const reef::ModelInfo& info, const reef::DeviceCaps& caps);
    void loadFailed(quint64 id, const reef::EngineError& error, bool stillLoaded);
    void progress(quint64 id, int frames, double elapsedMs);
    // A long preparation before the first frame, e.g. "compiling the decode step: ... (41 s)".
    void status(quint64 id, const QString& message);
    void audioChunk(const reef::AudioChunk& chunk);
    void perfSample(const reef::PerfSample& sample);
    void synthesisFinished(const reef::SynthesisResult& result);
    void synthesisFailed(quint64 id, const reef::EngineError& error);
    void referenceEncoded(quint64 id, const reef::Codes& codes);
    void referenceFailed(quint64 id, const reef::EngineError& error);
    void codesDecoded(const reef::SynthesisResult& result);
    void decodeFailed(quint64 id, const reef::EngineError& error);
    void benchProgress(quint64 id, int arm, const QString& message);
    void benchFinished(quint64 id, const reef::BenchReport& report);
    void benchFailed(quint64 id, const reef::EngineError& error);
    void quantizeProgress(quint64 id, int done, int total);   // tensors, throttled like progress
    void quantizeFinished(quint64 id, qulonglong bytesBefore, qulonglong bytesAfter);
    void quantizeFailed(quint64 id, const reef::EngineError& error);

private:
    struct Throttle;
    Callbacks makeCallbacks(quint64 id);   // also sets m_flush
    // Callbacks::on_status: each new line as status(id, line), a repeated one once.
    std::function<void(const std::string&)> statusLines(quint64 id);
    // A request's end: synthesisFinished (under id) or synthesisFailed.
    void emitResult(quint64 id, Result<SynthesisResult> r);
    // One Callbacks for every request of a batch, throttled per request; flush(id) emits what the
    // throttle held back for that request.
    Callbacks makeBatchCallbacks(const QList<quint64>& ids, std::function<void(quint64)>* flush);

    std::unique_ptr<TtsBackend> m_backend;
    std::shared_ptr<CancelState> m_cancel;
    std::function<void()> m_flush;   // emits what the throttle held back at the end of a run
};

}  // namespace reef::ui
