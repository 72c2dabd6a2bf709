// StudioController: the data folder, the model, generating (requests, the queue, finished takes),
// playback of what was made and the voices' encoding. Files and exports: studio_files.cpp.
#include "qt/studio_controller.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/perf_history_model.h"
#include "qt/playback_controller.h"
#include "qt/model_fingerprint.h"
#include "qt/pause_markup.h"
#include "qt/project.h"
#include "qt/pronunciation_dictionary.h"
#include "qt/reference_audio.h"
#include "qt/secret_store.h"
#include "qt/settings.h"
#include "qt/synthesis_queue.h"
#include "qt/take_history.h"
#include "qt/takes_model.h"
#include "qt/voice_list_model.h"

namespace reef::ui {
namespace {

QString firstWords(const QString& text) {
    const QString t = text.simplified();
    return t.size() > 60 ? t.left(59) + QStringLiteral("…") : t;
}

}  // namespace

StudioController::StudioController(EngineController& engine, Settings& settings, PlaybackController& playback,
                                   VoiceListModel& voices, QObject* parent)
    : QObject(parent), m_engine(engine), m_settings(settings), m_playback(playback), m_voices(voices) {
    m_perf = new PerfHistoryModel(1200, this);
    m_takes = new TakesModel(50, this);
    m_project = new ProjectModel(this);
    m_queue = new SynthesisQueue(&m_engine, this);
    m_dictionary = new PronunciationDictionary(this);

    connect(m_queue, &SynthesisQueue::itemStarted, this, &StudioController::onQueueItemStarted);
    connect(m_queue, &SynthesisQueue::itemFinished, this, &StudioController::onQueueItemFinished);
    connect(m_project, &ProjectModel::modifiedChanged, this, &StudioController::documentChanged);
    connect(m_project, &QAbstractItemModel::modelReset, this, &StudioController::documentChanged);

    // Whatever the engine synthesises streams into the player and the perf chart.
    connect(&engine, &EngineController::synthesisStarted, this, [this](quint64 id) {
        m_perf->startRun(id);
        m_playback.beginStream(id);
    });
    // A batch streams nothing to the player (its items end one by one, each a take or segment
    // audio); the chart sums its members.
    connect(&engine, &EngineController::batchStarted, this, [this](const QList<quint64>& ids) {
        m_perf->startBatch(ids);
        m_batchRequests = QSet<quint64>(ids.begin(), ids.end());
    });
    connect(&engine, &EngineController::audioChunk, &m_playback, &PlaybackController::appendChunk);
    connect(&engine, &EngineController::perfSample, m_perf, &PerfHistoryModel::addSample);
    connect(&engine, &EngineController::synthesisFinished, this, &StudioController::onSynthesisFinished);
    connect(&engine, &EngineController::synthesisFailed, this, [this](quint64 id) { endRequest(id); });
    connect(&engine, &EngineController::synthesisCancelled, this, [this](quint64 id) { endRequest(id); });
    // Batching is the local engine's (a server's concurrency is the queue's lanes).
    connect(&settings, &Settings::batchSizeChanged, this, &StudioController::updateBatchSize);
    connect(&engine, &EngineController::modelLoaded, this, &StudioController::updateBatchSize);
    connect(&engine, &EngineController::modelLoaded, this, &StudioController::encodePendingVoices);
    connect(&engine, &EngineController::modelLoaded, this, &StudioController::updateLanes);
    connect(&engine, &EngineController::codesDecoded, this, [this](const SynthesisResult& r) {
        if (!m_redecoding.contains(r.request_id))
            return;
        const auto [segmentId, takeId] = m_redecoding.take(r.request_id);
        const int row = m_project->rowForId(segmentId);
        const auto& takes = row >= 0 ? m_project->segment(row).takes : std::vector<SegmentTake>{};
        const auto old = std::find_if(takes.begin(), takes.end(), [&](const SegmentTake& t) { return t.id == takeId; });
        if (old == takes.end()) {
            Q_EMIT statusMessage(tr("A segment or take was deleted while it was being re-decoded."), 8000);
            return;
        }
        m_project->addTake(segmentId, redecodedTake(*old, r.audio, QString::fromStdString(m_engine.modelInfo().name),
                                                    m_project->currentModelHash()));
    });
    connect(&engine, &EngineController::decodeFailed, this, [this](quint64 id, const QString& reason) {
        if (m_redecoding.remove(id))
            Q_EMIT statusMessage(tr("Re-decoding failed: %1").arg(reason), 10000);
    });
    // Takes made by another model than the loaded one say so in the project view.
    connect(&engine, &EngineController::modelLoaded, this, [this] {
        m_project->setCurrentModelHash(modelFingerprint(QString::fromStdString(m_engine.modelInfo().model_dir)));
        m_project->setModelSpeaksSeveralVoices(speaksSeveralVoices(m_engine.modelInfo()));
    });
    // A reconnect that failed keeps the connection that works, with the key it has: the key field
    // shows that key again, not the refused one (issue #47).
    connect(&engine, &EngineController::loadFailed, this, [this] {
        const std::optional<ServerProfile>& inUse = m_engine.loadedServer();
        if (!m_engine.isModelLoaded() || !inUse || inUse->url != m_settings.serverProfile().url)
            return;
        const QString key = QString::fromStdString(inUse->api_key);
        if (m_settings.serverKey() == key)
            return;
        m_settings.setServerKey(key);
        Q_EMIT statusMessage(tr("Reconnecting failed: the connection goes on with the key it had, shown again in Settings."), 10000);
    });
    // A key typed in Settings goes to the desktop's secret store, never to the settings file.
    m_secrets = new SecretStore(QStringLiteral("Reef server keys"), this);
    connect(&settings, &Settings::serverChanged, this, &StudioController::saveServerKey);
    connect(m_secrets, &SecretStore::failed, this, [this](const QString& account, const QString& reason) {
        if (account != QString::fromStdString(m_settings.serverProfile().url) || m_settings.serverKey().isEmpty())
            return;
        const QString why = tr("The server key is not saved (%1): Reef keeps it until it quits.").arg(reason);
        Q_EMIT statusMessage(why, 10000);
        Q_EMIT serverKeyNotSaved(reason);
    });
    connect(&engine, &EngineController::referenceEncoded, this, [this](quint64 id, const Codes& codes) {
        const QString voice = m_encoding.take(id);
        QString error;
        if (!voice.isEmpty() && !m_voices.setCodes(voice, codes, &error))
            Q_EMIT statusMessage(error, 8000);
    });
    connect(&engine, &EngineController::referenceFailed, this, [this](quint64 id, const QString& reason) {
        m_encoding.remove(id);
        Q_EMIT statusMessage(tr("Could not encode the reference clip: %1").arg(reason), 8000);
    });
}

StudioController::~StudioController() {
    m_queue->setExtraLanes({});   // before the lanes' controllers go
}

void StudioController::updateLanes() {
    m_queue->setExtraLanes({});
    m_lanes.clear();
    const ServerProfile profile = m_settings.serverProfile();
    if (!isRemote() || profile.concurrency <= 1)
        return;
#ifdef REEF_WITH_REMOTE
    QList<EngineController*> ready;
    for (int i = 1; i < profile.concurrency; ++i) {
        auto lane = std::make_unique<EngineController>(make_remote_backend(profile));
        EngineController* c = lane.get();
        // A lane joins the queue once its own connection answered; one that fails stays out.
        connect(c, &EngineController::modelLoaded, this, [this, c] {
            QList<EngineController*> lanes;
            for (const auto& l : m_lanes)
                if (l->isModelLoaded())
                    lanes << l.get();
            m_queue->setExtraLanes(lanes);
        });
        c->loadModel(m_settings.engineConfig());
        m_lanes.push_back(std::move(lane));
    }
#endif
}

// --- the data folder and the model --------------------------------------------------------------

void StudioController::openDataDir(const QString& dataDir) {
    m_dataDir = dataDir;
    m_history = std::make_unique<TakeHistory>(QDir(dataDir).filePath(QStringLiteral("history")), *m_takes,
                                              qint64(m_settings.historyLimitMb()) << 20);
    connect(m_history.get(), &TakeHistory::warning, this,
            [this](const QString& message) { Q_EMIT statusMessage(message, 10000); });
    connect(&m_settings, &Settings::historyLimitMbChanged, m_history.get(),
            [this](int mb) { m_history->setLimitBytes(qint64(mb) << 20); });
    QString error;
    if (!m_history->load(&error))
        Q_EMIT historyUnreadable(error);

    const QString dictionary = QDir(dataDir).filePath(QStringLiteral("dictionary.json"));
    if (QFileInfo::exists(dictionary) && !m_dictionary->load(dictionary, &error))
        Q_EMIT statusMessage(tr("Pronunciation dictionary not loaded: %1").arg(error), 10000);
    connect(m_dictionary, &PronunciationDictionary::changed, this, [this, dictionary] {
        QString why;
        if (!m_dictionary->save(dictionary, &why))
            Q_EMIT statusMessage(tr("Pronunciation dictionary not saved: %1").arg(why), 10000);
    });
}

bool StudioController::prepareModel(const QString& dataDir, QString* error) {
    openDataDir(dataDir);
    if (!m_settings.modelDir().isEmpty())
        return true;
    const QString demo = ensureDemoModel(dataDir, error);
    if (demo.isEmpty())
        return false;
    m_settings.setModelDir(demo);
    return true;
}

bool StudioController::loadModel(QString* error) {
    if (m_settings.useServer()) {
        if (m_settings.serverProfile().url.empty()) {
            if (error)
                *error = tr("Give the server's address first (Settings → Speech from a server).");
            return false;
        }
        m_engine.setServer(m_settings.serverProfile());
        m_engine.loadModel(m_settings.engineConfig());
        return true;
    }
    if (m_settings.modelDir().isEmpty()) {
        if (error)
            *error = tr("Choose a model folder first (File → Open model folder…).");
        return false;
    }
    // A combination the engine cannot run is refused here, before a load that would only fail.
    const EngineConfig c = m_settings.engineConfig();
    if (const ConfigConflict conflict = config_conflict(c.compile_mode, c.sdpa_policy, c.device)) {
        if (error)
            *error = tr("<b>These engine settings cannot run together.</b> %1: %2 (Settings → Engine).")
                         .arg(QString::fromStdString(conflict.reason).toHtmlEscaped(),
                              QString::fromStdString(conflict.hint).toHtmlEscaped());
        return false;
    }
    m_engine.setServer(std::nullopt);
    m_engine.loadModel(c);
    return true;
}

void StudioController::saveServerKey() {
    const QString url = QString::fromStdString(m_settings.serverProfile().url);
    const QString key = m_settings.serverKey();
    if (url.isEmpty() || key.isEmpty() || (url == m_storedKeyFor && key == m_storedKey))
        return;
    m_storedKeyFor = url;
    m_storedKey = key;
    m_secrets->write(url, key);
}

void StudioController::restoreServerKey(std::function<void()> then) {
    const QString url = QString::fromStdString(m_settings.serverProfile().url);
    if (url.isEmpty() || !m_settings.serverKey().isEmpty()) {
        then();
        return;
    }
    // One answer, whichever comes: the key, none, or no store. Both connections go with it, so
    // selecting profiles again and again leaves none behind.
    auto connections = std::make_shared<std::pair<QMetaObject::Connection, QMetaObject::Connection>>();
    auto finish = [this, url, then, connections](const QString& account, const QString& key) {
        if (account != url)
            return;
        disconnect(connections->first);
        disconnect(connections->second);
        if (!key.isEmpty()) {
            m_storedKeyFor = url;
            m_storedKey = key;
            m_settings.setServerKey(key);
        }
        then();
    };
    connections->first = connect(m_secrets, &SecretStore::secretRead, this, finish);
    connections->second = connect(m_secrets, &SecretStore::failed, this,
                                  [finish](const QString& account, const QString&) { finish(account, {}); });
    m_secrets->read(url);
}

bool StudioController::isRemote() const { return QString::fromStdString(m_engine.modelInfo().model_type).startsWith(QLatin1String("remote:")); }

// --- generating ---------------------------------------------------------------------------------

quint64 StudioController::enqueue(StudioJob job, const SamplingParams& sampling) {
    SynthesisRequest r;
    // What the model reads: the text without pause markup (the assembly makes the silence), with
    // the dictionary's replacements; the take keeps the text as written.
    r.text = m_dictionary->apply(job.spoken).toStdString();
    r.sampling = sampling;
    r.stream_chunk_frames = m_settings.streamChunkFrames();
    QStringList castNames;
    if (!job.castVoices.isEmpty()) {
        for (auto it = job.castVoices.begin(); it != job.castVoices.end(); ++it)
            if (const int row = m_voices.rowOfId(it.value()); row >= 0) {
                r.references.push_back(speakerReference(m_voices.reference(row), it.key()));
                r.references.back().audio_path = m_voices.voice(row).clipPath.toStdString();
                castNames << m_voices.voice(row).name;
            }
        // a voice deleted from the library since, or a model that speaks one voice: the segment
        // speaks with its first speaker's voice
        if (r.references.size() < 2 || !speaksSeveralVoices(m_engine.modelInfo())) {
            r.references.clear();
            job.castVoices.clear();
        }
    }
    if (!r.references.empty()) {
        job.voiceName = castNames.join(QStringLiteral(" + "));
    } else if (const int row = job.voiceId.isEmpty() ? -1 : m_voices.rowOfId(job.voiceId); row >= 0) {
        r.references.push_back(m_voices.reference(row));
        // A server takes the clip itself (its codes are this machine's codec's); the local
        // engine uses the cached codes when there are some.
        r.references.back().audio_path = m_voices.voice(row).clipPath.toStdString();
        job.voiceName = m_voices.voice(row).name;
    }
    const QString title = firstWords(job.text);
    return m_queue->enqueue(title, std::move(r), QVariant::fromValue(job));
}

QStringList StudioController::pendingEngineChanges() const {
    if (isRemote() || !m_engine.isModelLoaded() || m_settings.useServer())
        return {};
    return configChanges(m_engine.loadedConfig(), m_settings.engineConfig());
}

void StudioController::applyPendingEngineSettings() {
    const QStringList changes = pendingEngineChanges();
    if (changes.isEmpty())
        return;
    // Reloading cancels what runs: with the queue busy the new item runs with the loaded model's
    // settings, and the Settings panel's "Reload needed" line says which ones differ.
    if (m_queue->isRunning() || m_engine.state() != EngineState::Ready) {
        Q_EMIT statusMessage(tr("Runs with the loaded model's settings; the new ones (%1) need a reload: Settings → "
                                "Reload now.").arg(changes.join(QStringLiteral("; "))),
                             10000);
        return;
    }
    QString error;
    if (!loadModel(&error)) {
        Q_EMIT statusMessage(error, 10000);
        return;
    }
    Q_EMIT statusMessage(tr("Reloading the model to apply %1, then generating.").arg(changes.join(QStringLiteral("; "))),
                         10000);
}

quint64 StudioController::generateText(const QString& text, const QString& voiceId) {
    applyPendingEngineSettings();
    StudioJob job;
    job.kind = StudioJob::Kind::Take;
    job.text = text;
    job.spoken = spokenText(text);
    job.voiceId = voiceId;
    return enqueue(std::move(job), m_settings.sampling());
}

QList<quint64> StudioController::generateSegments(const QList<int>& rows) {
    applyPendingEngineSettings();
    QList<quint64> ids;
    for (int row : rows) {
        if (row < 0 || row >= m_project->segmentCount())
            continue;
        const Segment& s = m_project->segment(row);
        StudioJob job;
        job.kind = StudioJob::Kind::Segment;
        job.text = s.text;
        job.spoken = m_project->spokenTextOf(row);
        job.voiceId = m_project->effectiveVoice(row);
        job.castVoices = m_project->jointVoices(row);
        job.segmentId = s.id;
        ids << enqueue(std::move(job), s.sampling.value_or(m_settings.sampling()));
    }
    return ids;
}

int StudioController::redecodeSegments(const QList<int>& rows) {
    if (!m_engine.isModelLoaded() || isRemote())
        return 0;
    int started = 0;
    for (int row : rows) {
        if (row < 0 || row >= m_project->segmentCount() || !m_project->segment(row).hasAudio())
            continue;
        const Segment& s = m_project->segment(row);
        const SegmentTake& take = s.takes[size_t(s.currentTake)];
        if (take.codes.n_frames == 0)
            continue;
        m_redecoding.insert(m_engine.decodeCodes(take.codes), {s.id, take.id});
        ++started;
    }
    return started;
}

void StudioController::onQueueItemStarted(quint64 id, const QVariant& tag) {
    const QueueItem* item = m_queue->item(id);
    if (!item)
        return;
    m_runningRequest = item->request;
    const QString spoken = QString::fromStdString(item->request.text);
    if (spoken != tag.value<StudioJob>().spoken)
        Q_EMIT statusMessage(tr("Pronunciation dictionary: spoken as “%1”").arg(firstWords(spoken)), 8000);
}

void StudioController::onQueueItemFinished(quint64 id, const QVariant& tag, const SynthesisResult& result) {
    const QueueItem* item = m_queue->item(id);
    if (!item)
        return;
    const StudioJob job = tag.value<StudioJob>();
    if (job.kind == StudioJob::Kind::Segment) {
        SegmentTake take = takeFromResult(item->request, result, job.voiceId);
        take.text = job.text;   // as written: the request's is the dictionary's spoken form
        take.madeWith = QString::fromStdString(m_engine.modelInfo().name);   // a server's name says where
        take.modelHash = m_project->currentModelHash();   // the loaded model's, computed once at load
        take.castVoices = job.castVoices;
        if (!m_project->addTake(job.segmentId, std::move(take)))
            Q_EMIT statusMessage(tr("A segment was deleted while it was being generated; its audio was dropped."), 8000);
        const int row = m_project->rowForId(job.segmentId);
        Q_EMIT jobFinished(tr("Segment %1 done: %2 frames, %3 s of audio")
                               .arg(row + 1)
                               .arg(result.metrics.frames)
                               .arg(result.metrics.audio_seconds, 0, 'f', 1));
        return;
    }
    Take take;
    take.created = QDateTime::currentDateTime();
    take.text = job.text;
    take.voice = job.voiceName;
    take.modelName = QString::fromStdString(m_engine.modelInfo().name);
    // What made it, not what Settings shows now: the loaded model's config, or the server.
    take.config = m_engine.loadedConfig();
    if (isRemote()) {
        take.server = QString::fromStdString(m_engine.modelInfo().model_dir);
        take.servedWith = QString::fromStdString(m_engine.modelInfo().served_with);
        take.config.model_dir = m_engine.modelInfo().model_dir;
    }
    take.sampling = item->request.sampling;
    take.metrics = result.metrics;
    take.audio = result.audio;
    const QString summary = take.statsSummary();
    const QString attention = take.backendSummary();
    m_takes->addTake(std::move(take));
    // Second line: which SDPA backend ran at each attention call site (also in the take's tooltip).
    m_lastAttention = attention;
    const QString done = isRemote() ? tr("Done: %1").arg(summary)   // a server does not say why it stopped
                                    : tr("Done (%1): %2").arg(QString::fromStdString(result.metrics.stop_reason), summary);
    Q_EMIT jobFinished(done +
                       (attention.isEmpty() ? QString() : QStringLiteral("\n") + attention));
}

std::optional<QString> StudioController::reuseTakeSettings(int row) {
    if (row < 0 || row >= m_takes->rowCount())
        return std::nullopt;
    const Take& take = m_takes->take(row);
    applyTakeSettings(take, m_settings);
    Q_EMIT statusMessage(tr("Settings of take %1 are now the current ones (seed %2).").arg(take.number).arg(take.sampling.seed),
                         6000);
    if (take.voice.isEmpty())
        return QString();
    for (int r = 0; r < m_voices.rowCount(); ++r)
        if (m_voices.voice(r).name == take.voice)
            return m_voices.voice(r).id;
    return std::nullopt;
}

// --- playback -----------------------------------------------------------------------------------

void StudioController::updateBatchSize() { m_queue->setBatchSize(isRemote() ? 1 : m_settings.batchSize()); }

bool StudioController::endRequest(quint64 id) {
    m_perf->endRequest(id);
    if (m_batchRequests.remove(id))
        return true;
    m_playback.endStream();
    return false;
}

void StudioController::onSynthesisFinished(const SynthesisResult& result) {
    if (m_batchRequests.contains(result.request_id)) {
        endRequest(result.request_id);
        return;   // a batch member: its take or segment holds the audio; the player is left alone
    }
    // Streamed chunks already hold the audio; a run without streaming delivers it only here.
    if (m_playback.samples().size() != result.audio.size()) {
        m_playback.setClip(result.audio);
        if (m_settings.autoplay())
            m_playback.play();
    }
    endRequest(result.request_id);
}

bool StudioController::playClip(const std::vector<float>& samples) {
    if (samples.empty()) {
        Q_EMIT statusMessage(tr("Nothing to play yet: generate it first."), 5000);
        return false;
    }
    m_playback.setClip(samples);
    m_playback.play();
    return true;
}

void StudioController::playSegment(int row) { playClip(m_project->segmentAudio(row)); }
void StudioController::playProject(int crossfadeMs) { playClip(m_project->renderProject(crossfadeMs)); }

void StudioController::replayTake(int row) {
    if (row >= 0 && row < m_takes->rowCount())
        playClip(m_takes->take(row).audio);
}

// --- voices -------------------------------------------------------------------------------------

void StudioController::encodeVoice(const QString& voiceId) {
    const int row = m_voices.rowOfId(voiceId);
    if (row < 0 || m_voices.voice(row).hasCodes() || !m_engine.isModelLoaded() || isRemote())
        return;   // encoded later, once a local model is loaded (a server takes the clip itself)
    QString error;
    std::vector<float> audio = loadMono44k(m_voices.voice(row).clipPath, &error);
    if (audio.empty()) {
        Q_EMIT statusMessage(tr("Cannot read the reference clip: %1").arg(error), 8000);
        return;
    }
    m_encoding.insert(m_engine.encodeReference(std::move(audio)), voiceId);
}

void StudioController::encodePendingVoices() {
    for (int r = 0; r < m_voices.rowCount(); ++r)
        if (!m_voices.voice(r).hasCodes())
            encodeVoice(m_voices.voice(r).id);
}

}  // namespace reef::ui
