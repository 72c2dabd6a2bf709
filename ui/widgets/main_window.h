// The window shell: composes the panels and wires them to the engine controller, the settings,
// the player and the models. Holds no engine logic of its own.
#pragma once
#include <QHash>
#include <QMainWindow>

#include "reef/engine_types.h"

class QAction;
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

    // First start: with no model configured, create and open the demo model under dataDir.
    void startUp(const QString& dataDir);

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
    QTabWidget* tabs() const { return m_tabs; }

    bool exportAudio(const QString& path, QString* error);   // the player's current clip
    bool exportTake(int row, const QString& path, QString* error);
    // What the Export dialogs call with the chosen path (takeRow -1 = the player's clip): writes the
    // WAV, or puts a clear message in the status bar and *error; never leaves a partial file.
    bool exportTo(int takeRow, const QString& path, QString* error);

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
    void openModelFolder();
    void manageVoices();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
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
    void onFinished(const SynthesisResult& result);
    void encodeVoice(const QString& voiceId);
    void encodePendingVoices();
    void exportInteractive(const std::vector<float>* audio, int takeRow);

    EngineController& m_engine;
    Settings& m_settings;
    PlaybackController& m_playback;
    VoiceListModel& m_voices;
    PerfHistoryModel* m_perf = nullptr;
    TakesModel* m_takes = nullptr;

    Banner* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    SynthesisPanel* m_synthesis = nullptr;
    SettingsPanel* m_settingsPanel = nullptr;
    PerfChartWidget* m_chart = nullptr;
    TakesView* m_takesView = nullptr;
    PlayerBar* m_player = nullptr;
    CompareView* m_compare = nullptr;
    QLabel* m_stateLabel = nullptr;
    QLabel* m_deviceLabel = nullptr;
    QAction* m_openTextAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_generateAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_playAction = nullptr;

    SynthesisRequest m_lastRequest;     // what the running synthesis was asked for (for its take)
    QString m_lastVoiceName;
    QString m_lastAttention;
    QHash<quint64, QString> m_encoding;   // encodeReference request id -> voice id
};

}  // namespace reef::ui
