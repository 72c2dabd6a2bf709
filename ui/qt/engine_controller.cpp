#include "qt/engine_controller.h"

#include "qt/backend_router.h"

#include <limits>

namespace reef::ui {

QString stateName(EngineState s) {
    switch (s) {
    case EngineState::NoModel: return EngineController::tr("no model");
    case EngineState::Loading: return EngineController::tr("loading");
    case EngineState::Ready: return EngineController::tr("ready");
    case EngineState::Generating: return EngineController::tr("generating");
    case EngineState::Stopping: return EngineController::tr("stopping");
    case EngineState::Benchmarking: return EngineController::tr("benchmarking");
    case EngineState::Quantizing: return EngineController::tr("quantizing");
    }
    return {};
}

EngineController::EngineController(std::unique_ptr<TtsBackend> backend, QObject* parent) : QObject(parent) {
    registerEngineMetaTypes();
    qRegisterMetaType<reef::ui::EngineState>();
    m_thread.setObjectName(QStringLiteral("reef-engine"));
    auto router = std::make_unique<BackendRouter>(std::move(backend));
    m_router = router.get();
    m_worker = new EngineWorker(std::move(router), m_cancel);
    m_worker->moveToThread(&m_thread);
    connectWorker();
    m_thread.start();
    refreshCaps();
}

void EngineController::setServer(std::optional<ServerProfile> server) {
    m_nextServer = server;
    m_router->setServer(std::move(server));
}

EngineController::~EngineController() {
    m_cancel->cancelledThrough.store(std::numeric_limits<quint64>::max());
    m_thread.quit();
    m_thread.wait();
    delete m_worker;   // the thread has finished, so nothing else can touch it
}

void EngineController::connectWorker() {
    EngineWorker* w = m_worker;
    connect(w, &EngineWorker::capsReady, this, [this](const DeviceCaps& caps) {
        m_caps = caps;
        Q_EMIT capsChanged(caps);
    });
    connect(w, &EngineWorker::loaded, this, &EngineController::onLoaded);
    connect(w, &EngineWorker::loadFailed, this, &EngineController::onLoadFailed);
    connect(w, &EngineWorker::progress, this, [this](quint64 id, int frames, double ms) {
        if (isSynthesizing(id))
            Q_EMIT progress(id, frames, ms);
    });
    connect(w, &EngineWorker::status, this, [this](quint64 id, const QString& message) {
        if (isSynthesizing(id))
            Q_EMIT status(id, message);
    });
    connect(w, &EngineWorker::audioChunk, this, [this](const AudioChunk& c) {
        if (isSynthesizing(c.request_id))
            Q_EMIT audioChunk(c);
    });
    connect(w, &EngineWorker::perfSample, this, [this](const PerfSample& s) {
        if (isSynthesizing(s.request_id))
            Q_EMIT perfSample(s);
    });
    connect(w, &EngineWorker::synthesisFinished, this, &EngineController::onSynthesisFinished);
    connect(w, &EngineWorker::synthesisFailed, this, &EngineController::onSynthesisFailed);
    connect(w, &EngineWorker::referenceEncoded, this, &EngineController::referenceEncoded);
    connect(w, &EngineWorker::referenceFailed, this,
            [this](quint64 id, const EngineError& e) { Q_EMIT referenceFailed(id, errorText(e)); });
    connect(w, &EngineWorker::codesDecoded, this, &EngineController::codesDecoded);
    connect(w, &EngineWorker::decodeFailed, this,
            [this](quint64 id, const EngineError& e) { Q_EMIT decodeFailed(id, errorText(e)); });
    connect(w, &EngineWorker::benchProgress, this, [this](quint64 id, int arm, const QString& msg) {
        if (id == m_benchId)
            Q_EMIT benchProgress(arm, msg);
    });
    connect(w, &EngineWorker::benchFinished, this, &EngineController::onBenchFinished);
    connect(w, &EngineWorker::benchFailed, this, &EngineController::onBenchFailed);
    connect(w, &EngineWorker::quantizeProgress, this, &EngineController::quantizeProgress);
    connect(w, &EngineWorker::quantizeFinished, this, [this](quint64 id, qulonglong before, qulonglong after) {
        endQuantize(id);
        Q_EMIT quantizeFinished(id, before, after);
    });
    connect(w, &EngineWorker::quantizeFailed, this, [this](quint64 id, const EngineError& e) {
        endQuantize(id);
        Q_EMIT quantizeFailed(id, errorText(e));
    });
}

void EngineController::refreshCaps() {
    QMetaObject::invokeMethod(m_worker, &EngineWorker::queryCaps, Qt::QueuedConnection);
}

void EngineController::cancelThrough(quint64 id) {
    quint64 cur = m_cancel->cancelledThrough.load();
    while (cur < id && !m_cancel->cancelledThrough.compare_exchange_weak(cur, id)) {
    }
}

void EngineController::supersedeSynthesis() {
    QList<quint64> old = m_batch;
    if (m_synthId)
        old << m_synthId;
    m_synthId = 0;
    m_batch.clear();
    for (quint64 id : old) {
        cancelThrough(id);
        Q_EMIT synthesisCancelled(id);
    }
}

quint64 EngineController::loadModel(const EngineConfig& config) {
    const quint64 id = nextId();
    supersedeSynthesis();   // a load supersedes a running synthesis: cancel it, forget its results
    if (m_benchId) {
        m_benchId = 0;
        Q_EMIT benchFailed(tr("cancelled: a model load was requested"));
    }
    cancelThrough(id - 1);
    m_loadId = id;
    m_loadingConfig = config;
    m_loadingServer = m_nextServer;
    m_stopping = false;
    updateState();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, config] { w->load(id, config); }, Qt::QueuedConnection);
    return id;
}

quint64 EngineController::synthesize(SynthesisRequest request) {
    const quint64 id = nextId();
    supersedeSynthesis();
    request.id = id;
    m_synthId = id;
    m_stopping = false;
    updateState();
    Q_EMIT synthesisStarted(id);
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, request] { w->synthesize(request); }, Qt::QueuedConnection);
    return id;
}

QList<quint64> EngineController::synthesizeBatch(const QList<SynthesisRequest>& requests, int maxBatch) {
    supersedeSynthesis();
    QList<SynthesisRequest> todo = requests;
    for (SynthesisRequest& r : todo)
        r.id = nextId();
    m_batch.clear();
    for (const SynthesisRequest& r : todo)
        m_batch << r.id;
    m_stopping = false;
    updateState();
    const QList<quint64> ids = m_batch;
    Q_EMIT batchStarted(ids);
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, todo, maxBatch] { w->synthesizeBatch(todo, maxBatch); }, Qt::QueuedConnection);
    return ids;
}

void EngineController::cancelRequest(quint64 id) {
    if (id && id == m_quantizeId)
        return cancelThrough(id);   // quantizeFailed ("cancelled") when the worker stops
    if (id && id == m_synthId)
        return cancel();
    if (m_batch.contains(id))
        m_cancel->cancelOne(id);   // synthesisCancelled when the worker confirms
}

quint64 EngineController::encodeReference(std::vector<float> mono44k) {
    const quint64 id = nextId();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, s = std::move(mono44k)] { w->encodeReference(id, s); }, Qt::QueuedConnection);
    return id;
}

quint64 EngineController::decodeCodes(Codes codes) {
    const quint64 id = nextId();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, c = std::move(codes)] { w->decodeCodes(id, c); }, Qt::QueuedConnection);
    return id;
}

quint64 EngineController::runBench(BenchRequest request) {
    const quint64 id = nextId();
    if (m_benchId)
        cancelThrough(m_benchId);
    m_benchId = id;
    m_stopping = false;
    updateState();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, request] { w->runBench(id, request); }, Qt::QueuedConnection);
    return id;
}

quint64 EngineController::quantizeModel(const QString& in, const QString& out, const QString& format, int group,
                                        bool embeddings) {
    const quint64 id = nextId();
    m_quantizeId = id;
    updateState();
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, in, out, format, group, embeddings] { w->quantizeModel(id, in, out, format, group, embeddings); },
        Qt::QueuedConnection);
    return id;
}

void EngineController::endQuantize(quint64 id) {
    if (id != m_quantizeId)
        return;
    m_quantizeId = 0;
    updateState();
}

void EngineController::cancel() {
    if (m_quantizeId)
        cancelThrough(m_quantizeId);
    quint64 target = std::max(m_synthId, m_benchId);
    for (quint64 id : m_batch)
        target = std::max(target, id);
    if (!target)
        return;
    cancelThrough(target);
    m_stopping = true;
    updateState();
}

void EngineController::updateState() {
    EngineState s = m_modelLoaded ? EngineState::Ready : EngineState::NoModel;
    if (m_loadId)
        s = EngineState::Loading;
    else if (m_synthId || !m_batch.isEmpty())
        s = m_stopping ? EngineState::Stopping : EngineState::Generating;
    else if (m_benchId)
        s = m_stopping ? EngineState::Stopping : EngineState::Benchmarking;
    else if (m_quantizeId)
        s = EngineState::Quantizing;
    if (s == m_state)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

void EngineController::onLoaded(quint64 id, const ModelInfo& info, const DeviceCaps& caps) {
    if (id != m_loadId)
        return;   // an older load finished after a newer one was asked for
    m_loadId = 0;
    m_modelLoaded = true;
    m_modelInfo = info;
    m_loadedConfig = m_loadingConfig;
    m_loadedServer = m_loadingServer;
    m_caps = caps;
    Q_EMIT capsChanged(caps);
    Q_EMIT modelLoaded(info);
    updateState();
}

void EngineController::onLoadFailed(quint64 id, const EngineError& error, bool stillLoaded) {
    if (id != m_loadId)
        return;
    m_loadId = 0;
    m_modelLoaded = stillLoaded;
    if (!stillLoaded)
        m_modelInfo = {};
    Q_EMIT loadFailed(errorText(error));
    updateState();
}

bool EngineController::endSynthesis(quint64 id) {
    if (!isSynthesizing(id))
        return false;   // superseded: its result is dropped
    if (id == m_synthId)
        m_synthId = 0;
    m_batch.removeOne(id);
    if (!m_synthId && m_batch.isEmpty())
        m_stopping = false;
    return true;
}

void EngineController::onSynthesisFinished(const SynthesisResult& result) {
    if (!endSynthesis(result.request_id))
        return;
    Q_EMIT synthesisFinished(result);
    updateState();
}

void EngineController::onSynthesisFailed(quint64 id, const EngineError& error) {
    if (!endSynthesis(id))
        return;
    if (error.code == ErrorCode::Cancelled)
        Q_EMIT synthesisCancelled(id);
    else
        Q_EMIT synthesisFailed(id, errorText(error));
    updateState();
}

void EngineController::onBenchFinished(quint64 id, const BenchReport& report) {
    if (id != m_benchId)
        return;
    m_benchId = 0;
    m_stopping = false;
    Q_EMIT benchFinished(report);
    updateState();
}

void EngineController::onBenchFailed(quint64 id, const EngineError& error) {
    if (id != m_benchId)
        return;
    m_benchId = 0;
    m_stopping = false;
    Q_EMIT benchFailed(errorText(error));
    updateState();
}

}  // namespace reef::ui
