// The window shell: lays out the panels and wires them to the StudioController (projects, queue,
// takes, history, requests), the engine controller, the settings and the player. It holds no
// studio logic of its own: what it adds are dialogs, banners and the status bar.
#pragma once
#include <QMainWindow>
#include <QPointer>
#include <optional>

#include "audio/wav_file.h"
#include "qt/studio_controller.h"
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
class QuantizeDialog;
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

    StudioController& studio() const { return *m_studio; }
    QString statusDeviceText() const;
    QString statusStateText() const;
    // "bf16 weights, 1.72 GB in memory", "int8 weights, …": what the status line says of a local model.
    static QString weightsText(const ModelInfo& info);
    QString lastAttentionText() const { return m_studio->lastAttention(); }
    QPushButton* generateButton() const;
    QPushButton* stopButton() const;
    QPlainTextEdit* textEdit() const;
    Banner* banner() const { return m_banner; }
    SynthesisPanel* synthesisPanel() const { return m_synthesis; }
    SettingsPanel* settingsPanel() const { return m_settingsPanel; }
    PlayerBar* playerBar() const { return m_player; }
    PerfChartWidget* perfChart() const { return m_chart; }
    PerfHistoryModel& perfModel() const { return m_studio->perf(); }
    TakesModel& takesModel() const { return m_studio->takes(); }
    CompareView* compareView() const { return m_compare; }
    QuantizeDialog* quantizeDialog() const;   // the open one, if any
    ProjectModel& project() const { return m_studio->project(); }
    ProjectView* projectView() const { return m_projectView; }
    SynthesisQueue& queue() const { return m_studio->queue(); }
    QueueView* queueView() const { return m_queueView; }
    // Where the project dialogs (open, save as, export) start: the user's documents folder, else home.
    QString projectDialogDir() const;
    PronunciationDictionary& dictionary() const { return m_studio->dictionary(); }
    QTabWidget* tabs() const { return m_tabs; }

    // What the Export dialogs call with the chosen path (takeRow -1 = the player's clip, labelled
    // with the editor's text): see StudioController::exportTo.
    bool exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter = {});

    // Puts a .txt/.md file's text in the editor (File → Open text file…, or dropped on the window);
    // a bad file leaves the editor as it was and says why in the status bar and *error.
    bool openTextFile(const QString& path, QString* error);
    // An EPUB as a new project (File → Import EPUB…, or dropped): its chapters with their
    // headings; asks to save a modified project first (interactive) and says why a book is refused.
    bool importEpub(const QString& path, QString* error);
    // Project → Production… (cast, pauses, pace, loudness, the book's export).
    void showProduction();
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
    // "Quantize (int8/int4)…" (Settings → Engine, File menu): the dialog for the model folder in Settings.
    void quantizeModel();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;   // asks to save a modified project
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setupUi();
    void openTextFileInteractive();
    void importEpubInteractive();
    void addDroppedClip(const QString& path);
    bool filterFileDrop(QObject* watched, QEvent* event);
    void setupMenus();
    void connectEngine();
    void updateState();
    void onModelLoaded(const ModelInfo& info);
    void reuseTakeSettings(int row);
    bool maybeSaveProject();   // false: the user cancelled
    void openProjectInteractive();
    bool saveProjectInteractive(bool saveAs);
    void updateTitle();
    void showStatus(const QString& text, int timeoutMs);
    std::optional<audio::ExportFormat> askFormat(const QString& title);
    void exportProjectInteractive();
    void exportSegmentsInteractive();
    void exportAllTakesInteractive();
    void exportInteractive(const std::vector<float>* audio, int takeRow);

    EngineController& m_engine;
    Settings& m_settings;
    PlaybackController& m_playback;
    VoiceListModel& m_voices;
    StudioController* m_studio = nullptr;

    Banner* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    SynthesisPanel* m_synthesis = nullptr;
    SettingsPanel* m_settingsPanel = nullptr;
    PerfChartWidget* m_chart = nullptr;
    TakesView* m_takesView = nullptr;
    PlayerBar* m_player = nullptr;
    CompareView* m_compare = nullptr;
    QPointer<QuantizeDialog> m_quantize;
    ProjectView* m_projectView = nullptr;
    QueueView* m_queueView = nullptr;
    QLabel* m_stateLabel = nullptr;
    QLabel* m_deviceLabel = nullptr;
    QAction* m_openTextAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_generateAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_playAction = nullptr;
};

}  // namespace reef::ui
