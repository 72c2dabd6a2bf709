// The settings dock: model folder, engine options, sampling and audio output. Every edit goes
// straight into Settings; options the device cannot run are disabled with the reason as tooltip.
#pragma once
#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reef/engine_types.h"
#include "reef/sampling_settings.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace reef::ui {

class Settings;

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(Settings& settings, QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

    void setDeviceCaps(const DeviceCaps& caps);
    void setAudioDevices(const QStringList& devices);
    QComboBox* sdpaCombo() const { return m_sdpa; }
    QComboBox* deviceCombo() const { return m_device; }
    QComboBox* compileCombo() const { return m_compile; }
    // One spin box per sampling setting, its range and step from the engine's description
    // (reef/sampling_settings.h); the seed is a text field, as a spin box holds no 64-bit value.
    QDoubleSpinBox* samplingSpin(SamplingKey key) const { return m_samplingSpins.at(key); }
    QLineEdit* seedEdit() const { return m_seed; }
    QPushButton* loadButton() const { return m_load; }
    QLabel* modelSizeLabel() const { return m_modelSize; }
    QComboBox* languageCombo() const { return m_language; }
    class ServerSettings* serverSettings() const { return m_server; }

    QSpinBox* threadsSpin() const { return m_threads; }
    // Shown when the CPU threads exceed the cores this process may use (cgroup-aware, from the caps).
    QLabel* threadsWarning() const { return m_threadsWarning; }
    QCheckBox* adaptiveThreadsCheck() const { return m_adaptiveThreads; }
    // "Reload needed": the engine settings differ from those the loaded model runs with; the
    // label says which, the button reloads with the panel's settings.
    QLabel* pendingLabel() const { return m_pending; }
    QPushButton* reloadNowButton() const { return m_reloadNow; }
    // The config the loaded model runs with; nullopt when none is loaded or speech comes from a server.
    void setLoadedConfig(const std::optional<EngineConfig>& loaded);
    // Speech comes from a server (its name, and what it says of its engine, may be empty): the
    // Engine group is this computer's, so it is disabled with a note saying where speech is made.
    // std::nullopt: this computer's engine again.
    void setServedBy(const std::optional<QString>& server, const QString& servedWith = {});
    QLabel* servedByNote() const { return m_servedBy; }
    QWidget* engineGroup() const { return m_engineGroup; }

    QPushButton* compileSetupButton() const { return m_compileSetup; }
    QPushButton* quantizeButton() const { return m_quantize; }
    QLabel* compileSetupStatus() const { return m_compileSetupStatus; }

Q_SIGNALS:
    void loadRequested();   // "Load model" pressed (the settings are already saved)
    void compileSetupFinished(bool ok);   // the aot-inductor venv set-up ended (the caps are stale now)
    void quantizeRequested();   // "Quantize (int8/int4)...": MainWindow shows the dialog for the model folder

public Q_SLOTS:
    void syncFromSettings();

private:
    QWidget* createModelGroup();
    QWidget* createEngineGroup();
    QWidget* createSamplingGroup();
    QWidget* createAudioGroup();
    QWidget* createInterfaceGroup();
    void pushEngineConfig();
    void pushSampling();
    // The device combo from the engine's list: item data = what --device takes ("cuda:1").
    void setDeviceList(const std::vector<DeviceInfo>& devices);
    void selectDevice(const EngineConfig& c);
    void browseModel();
    void runCompileSetup();
    // The device caps, then the combinations the engine refuses (config_conflict), on the precision,
    // compile and SDPA items; the threads warning; the "reload needed" row.
    void applyEngineAvailability();
    void updateThreadsWarning();
    void updatePending();
    // "bf16 weights: 9.14 GB in memory; an int8 copy: 5.10 GB, an int4 copy (group 128): 2.9 GB"
    // for a float folder in Settings, "int4-g128 weights: 2.9 GB in memory" for a quantized one
    // (hidden when there is none, or it is not a model).
    void updateModelSize();

    Settings& m_settings;
    QWidget* m_inner = nullptr;   // the groups, inside the scroll area
    bool m_syncing = false;
    QLineEdit* m_modelDir = nullptr;
    QLabel* m_modelSize = nullptr;
    QPushButton* m_load = nullptr;
    class ServerSettings* m_server = nullptr;
    QComboBox *m_device = nullptr, *m_precision = nullptr, *m_compile = nullptr, *m_sdpa = nullptr, *m_kvMode = nullptr;
    QSpinBox *m_threads = nullptr, *m_kvMargin = nullptr;
    QLabel* m_threadsWarning = nullptr;
    QCheckBox* m_adaptiveThreads = nullptr;
    QLabel* m_servedBy = nullptr;
    QWidget* m_engineGroup = nullptr;
    QWidget* m_engineControls = nullptr;
    QLabel* m_pending = nullptr;
    QPushButton* m_reloadNow = nullptr;
    QWidget* m_pendingRow = nullptr;
    std::optional<EngineConfig> m_loaded;
    DeviceCaps m_caps;
    QPushButton* m_compileSetup = nullptr;
    QPushButton* m_quantize = nullptr;
    QLabel* m_compileSetupStatus = nullptr;
    class CompileSetupJob* m_setupJob = nullptr;
    bool m_setupSucceeded = false;  // the last set-up worked: its "ready" line stays until the next one
    std::map<SamplingKey, QDoubleSpinBox*> m_samplingSpins;
    QLineEdit* m_seed = nullptr;
    QComboBox* m_audioDevice = nullptr;
    QCheckBox* m_autoplay = nullptr;
    QComboBox* m_language = nullptr;
    QSpinBox* m_historyLimit = nullptr;
    QComboBox* m_batchSize = nullptr;
};

// Disables the items of combo (item data = the engine's name) that caps marks unavailable.
void applyCapabilities(QComboBox* combo, const std::map<std::string, Capability>& caps);

}  // namespace reef::ui
