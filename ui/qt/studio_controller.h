// The studio's logic without a window: it owns the project, the generation queue, the takes and
// their history on disk, the pronunciation dictionary and the voices' encoding, and builds every
// synthesis request. MainWindow only lays out widgets and wires them to it; Qt Test drives it
// directly (tests/ui/tst_studio_controller.cpp).
//
// What it tells the window: statusMessage (transient lines for the status bar), jobFinished (the
// line under the progress bar), historyUnreadable (worth a banner), documentChanged (the title).
// Every file operation also returns its error as a value.
#pragma once
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "audio/wav_file.h"
#include "reef/engine_types.h"

namespace reef::ui {

class EngineController;
class PerfHistoryModel;
class PlaybackController;
class ProjectModel;
class PronunciationDictionary;
class SecretStore;
class Settings;
class SynthesisQueue;
class TakeHistory;
class TakesModel;
class VoiceListModel;

// What a queue item is for; the queue carries it as the item's tag and hands it back with the result.
struct StudioJob {
    enum class Kind { Take, Segment };
    Kind kind = Kind::Take;
    QString text;        // as the user wrote it (the request holds the dictionary's spoken form)
    QString voiceId;     // empty = no reference voice
    QString voiceName;
    QString segmentId;   // Kind::Segment only
    QString spoken;      // what the model reads before the dictionary: no pause markup (a segment's:
                         // ProjectModel::spokenTextOf)
    // Speaker -> voice id of a segment whose speakers speak together (ProjectModel::jointVoices); the
    // request then has one reference per speaker. Cleared where the model speaks one voice.
    QMap<QString, QString> castVoices;
};

class StudioController : public QObject {
    Q_OBJECT
public:
    StudioController(EngineController& engine, Settings& settings, PlaybackController& playback,
                     VoiceListModel& voices, QObject* parent = nullptr);
    ~StudioController() override;

    PerfHistoryModel& perf() const { return *m_perf; }
    TakesModel& takes() const { return *m_takes; }
    ProjectModel& project() const { return *m_project; }
    SynthesisQueue& queue() const { return *m_queue; }
    PronunciationDictionary& dictionary() const { return *m_dictionary; }
    TakeHistory* history() const { return m_history.get(); }
    QString dataDir() const { return m_dataDir; }

    // --- the data folder and the model (studio_controller.cpp) ----------------------------------
    // Opens the take history and the pronunciation dictionary under dataDir. An unreadable history
    // index is reported through historyUnreadable (new takes are still saved).
    void openDataDir(const QString& dataDir);
    // openDataDir, then, with no model configured, creates the demo model under dataDir and makes
    // it the configured one. False with the reason when that fails; loading is the caller's next step.
    bool prepareModel(const QString& dataDir, QString* error);
    // Asks the engine to load the configured model, or to connect to the configured server
    // (Settings → Speech from a server); false (with the reason) when neither is configured.
    bool loadModel(QString* error);
    bool isRemote() const;   // the loaded "model" is a server
    // The server's key from the desktop's secret store into the settings (this session), then
    // `then` — also when there is none or no store (the key is then asked for in Settings).
    void restoreServerKey(std::function<void()> then);

    // --- generating -----------------------------------------------------------------------------
    // What the engine settings in Settings would change in the loaded local model ("SDPA policy
    // math (loaded: auto)"); empty when they match, or speech comes from a server.
    QStringList pendingEngineChanges() const;
    // Generate applies changed engine settings (issue #47): with nothing running it reloads the
    // model first (the queue waits for it), saying so; otherwise it says that a reload is needed.
    void applyPendingEngineSettings();
    // Queues a take of text (with the voice of that id, empty for none) with the current settings.
    quint64 generateText(const QString& text, const QString& voiceId);
    // Queues (re-)generation of these project segments, in order; rows out of range are skipped.
    QList<quint64> generateSegments(const QList<int>& rows);
    // A new take for each row whose current take kept its codes: the codes decoded again by the
    // loaded model's codec (e.g. after switching the precision), never sampled again. Rows
    // without codes (older or a server's takes) are skipped; the count started is returned.
    int redecodeSegments(const QList<int>& rows);
    // The request the running queue item was built into (what its progress is measured against).
    const SynthesisRequest& runningRequest() const { return m_runningRequest; }
    // "attention: …" of the last finished take: which SDPA backend ran at each call site.
    QString lastAttention() const { return m_lastAttention; }
    // Makes take row's settings the current ones; returns the id of the take's voice when the
    // library still has it, an empty string for a take without voice, nullopt otherwise.
    std::optional<QString> reuseTakeSettings(int row);

    // --- playback -------------------------------------------------------------------------------
    bool playClip(const std::vector<float>& samples);   // false (and a status line) when empty
    void playSegment(int row);
    void playProject(int crossfadeMs);
    void replayTake(int row);

    // --- voices ---------------------------------------------------------------------------------
    // Encodes a library voice's clip into reference codes (later, once a model is loaded).
    void encodeVoice(const QString& voiceId);
    void encodePendingVoices();

    // --- the project file (studio_files.cpp) ----------------------------------------------------
    void newProject();
    bool openProject(const QString& path, QString* error);
    bool saveProject(const QString& path, QString* error);
    // What the window title names: the file's base name, the title, "Untitled project", or empty
    // when there is no project at all.
    QString documentName() const;
    bool isModified() const;
    QString suggestedProjectFileName() const;   // <title or Untitled project>.reefproj

    // --- exporting (studio_files.cpp) -----------------------------------------------------------
    bool exportProjectTo(const QString& path, audio::ExportFormat format, int crossfadeMs, QString* error);
    QStringList exportSegmentsTo(const QString& dir, audio::ExportFormat format, QString* error);
    QStringList exportAllTakesTo(const QString& dir, audio::ExportFormat format, QString* error);
    // A take (row >= 0) or the player's clip (row -1, labelled with clipText) into path, in the
    // format its suffix or the save dialog's filter names. Writes a temp file and renames it: a
    // failure leaves nothing behind and says why in *error and the status line.
    bool exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter = {},
                  const QString& clipText = {});

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);
    void jobFinished(const QString& summary);        // "Done (…): …" / "Segment 3 done: …"
    void historyUnreadable(const QString& reason);
    void documentChanged();                           // the project's name or modified state
    void serverKeyNotSaved(const QString& reason);    // no secret store: the key lives until Reef quits

private:
    quint64 enqueue(StudioJob job, const SamplingParams& sampling);
    void onQueueItemStarted(quint64 id, const QVariant& tag);
    void onQueueItemFinished(quint64 id, const QVariant& tag, const SynthesisResult& result);
    void onSynthesisFinished(const SynthesisResult& result);
    // A request ended: it leaves the chart's batch sums; true for a batch member, otherwise the
    // player's stream ends.
    bool endRequest(quint64 id);
    void updateBatchSize();
    bool exportTake(int row, const QString& path, QString* error, const QString& selectedFilter);
    bool exportClip(const QString& path, const QString& text, QString* error, const QString& selectedFilter);
    void fail(const QString& why, QString* error);   // status line + *error

    EngineController& m_engine;
    Settings& m_settings;
    PlaybackController& m_playback;
    VoiceListModel& m_voices;
    PerfHistoryModel* m_perf = nullptr;
    TakesModel* m_takes = nullptr;
    ProjectModel* m_project = nullptr;
    SynthesisQueue* m_queue = nullptr;
    PronunciationDictionary* m_dictionary = nullptr;
    std::unique_ptr<TakeHistory> m_history;
    QString m_dataDir;
    SynthesisRequest m_runningRequest;
    QString m_lastAttention;
    QHash<quint64, QString> m_encoding;
    QHash<quint64, std::pair<QString, QString>> m_redecoding;   // request -> segment id, take id
    QSet<quint64> m_batchRequests;   // the running batch's requests that have not ended   // encodeReference request id -> voice id
    // With a server that takes N requests at once: N - 1 more connections, each its own engine
    // thread, as the queue's extra lanes (the main controller is the first).
    std::vector<std::unique_ptr<EngineController>> m_lanes;
    void updateLanes();
    SecretStore* m_secrets = nullptr;
    QString m_storedKeyFor, m_storedKey;   // what the secret store holds (or was asked to), by URL
    void saveServerKey();
};

}  // namespace reef::ui

Q_DECLARE_METATYPE(reef::ui::StudioJob)
