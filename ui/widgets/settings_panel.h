// The settings dock: model folder, engine options, sampling and audio output. Every edit goes
// straight into Settings; options the device cannot run are disabled with the reason as tooltip.
#pragma once
#include <QWidget>
#include <map>
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
    QComboBox* languageCombo() const { return m_language; }
    class ServerSettings* serverSettings() const { return m_server; }

    QPushButton* compileSetupButton() const { return m_compileSetup; }
    QLabel* compileSetupStatus() const { return m_compileSetupStatus; }

Q_SIGNALS:
    void loadRequested();   // "Load model" pressed (the settings are already saved)
    void compileSetupFinished(bool ok);   // the aot-inductor venv set-up ended (the caps are stale now)

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

    Settings& m_settings;
    bool m_syncing = false;
    QLineEdit* m_modelDir = nullptr;
    QPushButton* m_load = nullptr;
    class ServerSettings* m_server = nullptr;
    QComboBox *m_device = nullptr, *m_precision = nullptr, *m_compile = nullptr, *m_sdpa = nullptr, *m_kvMode = nullptr;
    QSpinBox *m_threads = nullptr, *m_kvMargin = nullptr;
    QPushButton* m_compileSetup = nullptr;
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
