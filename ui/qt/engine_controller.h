// GUI-thread front of the engine: owns the engine QThread and its EngineWorker, hands out request
// ids, drops late results of superseded requests, and derives one EngineState for the views.
// Nothing here blocks the GUI thread, also while a model loads (mandelbrot + hotspot JobTracker).
#pragma once
#include <QObject>
#include <QThread>
#include <memory>

#include "qt/engine_worker.h"
#include "reef/remote.h"

namespace reef::ui {

class BackendRouter;
enum class EngineState { NoModel, Loading, Ready, Generating, Stopping, Benchmarking, Quantizing };
QString stateName(EngineState s);

class EngineController : public QObject {
    Q_OBJECT
public:
    explicit EngineController(std::unique_ptr<TtsBackend> backend, QObject* parent = nullptr);
    ~EngineController() override;   // cancels everything, quits the thread and waits for it

    EngineState state() const { return m_state; }
    bool isModelLoaded() const { return m_modelLoaded; }
    const ModelInfo& modelInfo() const { return m_modelInfo; }
    // The config the loaded model was loaded with (meaningful while isModelLoaded()): what runs,
    // whatever Settings holds now.
    const EngineConfig& loadedConfig() const { return m_loadedConfig; }
    // The server the loaded "model" is (its profile, key included), nullopt for this machine's engine.
    const std::optional<ServerProfile>& loadedServer() const { return m_loadedServer; }
    const DeviceCaps& deviceCaps() const { return m_caps; }
    quint64 currentSynthesisId() const { return m_synthId; }   // the one-request synthesis, 0 = none
    // The requests of the running batch that have not ended yet.
    const QList<quint64>& batchIds() const { return m_batch; }
    bool isSynthesizing(quint64 id) const { return id && (id == m_synthId || m_batch.contains(id)); }

    // Where speech is made from the next loadModel on: a server, or (nullopt) this machine's engine.
    void setServer(std::optional<ServerProfile> server);
    // Each returns the request's id. A new load or synthesis supersedes (and cancels) a running one.
    quint64 loadModel(const EngineConfig& config);
    quint64 synthesize(SynthesisRequest request);
    // Several requests, up to maxBatch decoding together (0 = auto by free memory): their ids, in
    // order. Each ends with its own synthesisFinished / synthesisFailed / synthesisCancelled, as
    // soon as it is done. Like synthesize, it supersedes what runs; a later synthesize or load
    // supersedes it. The batch's audio streams with each chunk's request id; nothing plays it live.
    QList<quint64> synthesizeBatch(const QList<SynthesisRequest>& requests, int maxBatch);
    // Stops one request (of the batch, or the one-request synthesis); the rest go on.
    void cancelRequest(quint64 id);
    quint64 encodeReference(std::vector<float> mono44k);
    // Decodes stored codes again (EngineWorker::decodeCodes): codesDecoded or decodeFailed.
    quint64 decodeCodes(Codes codes);
    quint64 runBench(BenchRequest request);
    // Writes a quantized copy of the model folder `in` into `out` (reef/quantize.h) on the engine
    // thread: `format` "int8" (a scale per row) or "int4" (a scale and zero per `group` weights: 32,
    // 64, 128 or 256; the engine refuses others). quantizeProgress/Finished/Failed carry its id,
    // cancelRequest(id) or cancel() stop it before anything is written. Other requests wait behind
    // it (state Quantizing).
    quint64 quantizeModel(const QString& in, const QString& out, const QString& format = QStringLiteral("int8"),
                          int group = 128, bool embeddings = false);
    void refreshCaps();

public Q_SLOTS:
    void cancel();   // stops the running synthesis or bench at its next frame

Q_SIGNALS:
    void stateChanged(reef::ui::EngineState state);
    void capsChanged(const reef::DeviceCaps& caps);
    void modelLoaded(const reef::ModelInfo& info);
    void loadFailed(const QString& reason);
    void synthesisStarted(quint64 id);
    void batchStarted(const QList<quint64>& ids);
    void progress(quint64 id, int frames, double elapsedMs);
    void status(quint64 id, const QString& message);  // e.g. compiling the decode step
    void audioChunk(const reef::AudioChunk& chunk);
    void perfSample(const reef::PerfSample& sample);
    void synthesisFinished(const reef::SynthesisResult& result);
    void synthesisFailed(quint64 id, const QString& reason);
    void synthesisCancelled(quint64 id);
    void referenceEncoded(quint64 id, const reef::Codes& codes);
    void referenceFailed(quint64 id, const QString& reason);
    void codesDecoded(const reef::SynthesisResult& result);   // result.request_id: decodeCodes' id
    void decodeFailed(quint64 id, const QString& reason);
    void benchProgress(int arm, const QString& message);
    void benchFinished(const reef::BenchReport& report);
    void benchFailed(const QString& reason);
    void quantizeProgress(quint64 id, int done, int total);
    void quantizeFinished(quint64 id, qulonglong bytesBefore, qulonglong bytesAfter);
    void quantizeFailed(quint64 id, const QString& reason);   // a cancel too (its reason says so)

private:
    void connectWorker();
    quint64 nextId() { return ++m_lastId; }
    void cancelThrough(quint64 id);
    void updateState();
    void onLoaded(quint64 id, const ModelInfo& info, const DeviceCaps& caps);
    void onLoadFailed(quint64 id, const EngineError& error, bool stillLoaded);
    void onSynthesisFinished(const SynthesisResult& result);
    void onSynthesisFailed(quint64 id, const EngineError& error);
    void onBenchFinished(quint64 id, const BenchReport& report);
    void onBenchFailed(quint64 id, const EngineError& error);

    QThread m_thread;
    EngineWorker* m_worker = nullptr;   // lives on m_thread; deleted after the thread has stopped
    BackendRouter* m_router = nullptr;   // owned by m_worker; setServer is thread-safe
    std::shared_ptr<CancelState> m_cancel = std::make_shared<CancelState>();

    quint64 m_lastId = 0;
    quint64 m_loadId = 0;    // pending load, 0 = none
    quint64 m_synthId = 0;   // pending synthesis, 0 = none
    QList<quint64> m_batch;  // pending requests of a batch
    void supersedeSynthesis();   // cancels what synthesises now and says so
    bool endSynthesis(quint64 id);   // false when id is not (or no longer) one of ours
    quint64 m_benchId = 0;   // pending bench, 0 = none
    quint64 m_quantizeId = 0;   // pending quantize, 0 = none
    void endQuantize(quint64 id);
    bool m_stopping = false;
    bool m_modelLoaded = false;
    ModelInfo m_modelInfo;
    EngineConfig m_loadingConfig;   // of the pending load
    EngineConfig m_loadedConfig;    // of the loaded model
    std::optional<ServerProfile> m_nextServer, m_loadingServer, m_loadedServer;   // setServer's, the pending load's, the loaded
    DeviceCaps m_caps;
    EngineState m_state = EngineState::NoModel;
};

}  // namespace reef::ui

Q_DECLARE_METATYPE(reef::ui::EngineState)
