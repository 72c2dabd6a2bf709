// The window shell: composes the panels and wires them to the engine controller, the settings,
// the player and the models. Holds no engine logic of its own.
#pragma once
#include <QHash>
#include <QMainWindow>
#include <QVariantMap>
#include <memory>
#include <optional>

#include "audio/wav_file.h"
#include "reef/engine_types.h"

class QAction;
class QCloseEvent;
class QDragEnterEvent;
class QDropEvent;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace reef::ui {

class Banner;
class CompareView;
class EngineController;
class PerfChartWidget;
class ProjectModel;
class ProjectView;
class PronunciationDictionary;
class QueueView;
class SynthesisQueue;
class TakeHistory;
class PerfHistoryModel;
class PlaybackController;
class PlayerBar;
class Settings;
class SettingsPanel;
class SynthesisPanel;
class TakesModel;
class TakesView;
class VoiceListModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(EngineController& engine, Settings& settings, PlaybackController& playback, VoiceListModel& voices,
               QWidget* parent = nullptr);
    ~MainWindow() override;

    // First start: opens the take history and the pronunciation dictionary under dataDir; with no
    // model configured, creates and opens the demo model there.
    void startUp(const QString& dataDir);
    // Only the history and the dictionary (what startUp does besides the model).
    void openDataDir(const QString& dataDir);

    QString statusDeviceText() const;
    QString statusStateText() const;
    QString lastAttentionText() const;   // "attention: slow-prefill math, …" of the last run (shown under Done)
    QPushButton* generateButton() const;
    QPushButton* stopButton() const;
    QPlainTextEdit* textEdit() const;
    Banner* banner() const { return m_banner; }
    SynthesisPanel* synthesisPanel() const { return m_synthesis; }
    SettingsPanel* settingsPanel() const { return m_settingsPanel; }
    PlayerBar* playerBar() const { return m_player; }
    PerfChartWidget* perfChart() const { return m_chart; }
    PerfHistoryModel& perfModel() const { return *m_perf; }
    TakesModel& takesModel() const { return *m_takes; }
    CompareView* compareView() const { return m_compare; }
    ProjectModel& project() const { return *m_project; }
    ProjectView* projectView() const { return m_projectView; }
    SynthesisQueue& queue() const { return *m_queue; }
    QueueView* queueView() const { return m_queueView; }
    PronunciationDictionary& dictionary() const { return *m_dictionary; }
    TakeHistory* history() const { return m_history.get(); }

    // Queues (re-)generation of these project segments, in order.
    void generateSegments(const QList<int>& rows);
    bool openProject(const QString& path, QString* error);
    bool saveProject(const QString& path, QString* error);
    // The project as one file / one file per segment (what the export dialogs call).
    bool exportProjectTo(const QString& path, audio::ExportFormat format, QString* error);
    QStringList exportSegmentsTo(const QString& dir, audio::ExportFormat format, QString* error);
    void reuseTakeSettings(int row);
    QTabWidget* tabs() const { return m_tabs; }

    // The player's current clip / a take into path, in the format its suffix (or the save dialog's
    // selected filter) names: WAV, FLAC, Ogg Vorbis, MP3 where libsndfile writes it.
    bool exportAudio(const QString& path, QString* error, const QString& selectedFilter = {});
    bool exportTake(int row, const QString& path, QString* error, const QString& selectedFilter = {});
    // What the Export dialogs call with the chosen path (takeRow -1 = the player's clip): writes the
    // file, or puts a clear message in the status bar and *error; never leaves a partial file.
    bool exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter = {});

    // Puts a .txt/.md file's text in the editor (File → Open text file…, or dropped on the window);
    // a bad file leaves the editor as it was and says why in the status bar and *error.
    bool openTextFile(const QString& path, QString* error);
    QAction* generateAction() const { return m_generateAction; }
    QAction* stopAction() const { return m_stopAction; }
    QAction* playAction() const { return m_playAction; }

public Q_SLOTS:
    void generate();
    void loadModel();
    void showAbout();
    void showShortcuts();
    void showDictionary();
    void newProject();
    void openModelFolder();
    void manageVoices();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;   // asks to save a modified project
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setupUi();
    void openTextFileInteractive();
    void addDroppedClip(const QString& path);
    bool filterFileDrop(QObject* watched, QEvent* event);
    void setupMenus();
    void connectEngine();
    void updateState();
    void onModelLoaded(const ModelInfo& info);
    void onEngineFinished(const SynthesisResult& result);
    quint64 enqueue(const QString& text, const QString& voiceId, const SamplingParams& sampling, QVariantMap tag);
    void onQueueItemStarted(quint64 id, const QVariant& tag);
    void onQueueItemFinished(quint64 id, const QVariant& tag, const SynthesisResult& result);
    bool maybeSaveProject();   // false: the user cancelled
    void openProjectInteractive();
    bool saveProjectInteractive(bool saveAs);
    void updateTitle();
    void playClip(const std::vector<float>& samples);
    std::optional<audio::ExportFormat> askFormat(const QString& title);
    // The format a path (and the save dialog's filter) names, or nullopt with the reason in *error.
    static std::optional<audio::ExportFormat> exportFormatOrError(const QString& path, const QString& filter,
                                                                  QString* error);
    void exportProjectInteractive();
    void exportSegmentsInteractive();
    void exportAllTakesInteractive();
    void encodeVoice(const QString& voiceId);
    void encodePendingVoices();
    void exportInteractive(const std::vector<float>* audio, int takeRow);

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

    Banner* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    SynthesisPanel* m_synthesis = nullptr;
    SettingsPanel* m_settingsPanel = nullptr;
    PerfChartWidget* m_chart = nullptr;
    TakesView* m_takesView = nullptr;
    PlayerBar* m_player = nullptr;
    CompareView* m_compare = nullptr;
    ProjectView* m_projectView = nullptr;
    QueueView* m_queueView = nullptr;
    QLabel* m_stateLabel = nullptr;
    QLabel* m_deviceLabel = nullptr;
    QAction* m_openTextAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_generateAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_playAction = nullptr;

    SynthesisRequest m_lastRequest;     // what the running synthesis was asked for (for its progress)
    QString m_lastAttention;
    QHash<quint64, QString> m_encoding;   // encodeReference request id -> voice id
};

}  // namespace reef::ui
