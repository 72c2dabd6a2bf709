// Settings → "Speech from a server": where speech is made, this machine's engine or a server
// (fish-speech's api_server, SGLang-Omni, vLLM-Omni, Fish Audio's API, reef-cli serve): its address,
// protocol, key and model. The key goes to the desktop's secret store (StudioController), never to
// the settings file.
#pragma once
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace reef::ui {

class Settings;

class ServerSettings : public QGroupBox {
    Q_OBJECT
public:
    explicit ServerSettings(Settings& settings, QWidget* parent = nullptr);
    QCheckBox* useServerCheck() const { return m_use; }
    QLineEdit* urlEdit() const { return m_url; }
    QComboBox* flavourCombo() const { return m_flavour; }
    QLineEdit* keyEdit() const { return m_key; }
    QLineEdit* modelEdit() const { return m_model; }
    QSpinBox* concurrencySpin() const { return m_concurrency; }
    QPushButton* connectButton() const { return m_connect; }
    QComboBox* profileCombo() const { return m_profile; }
    // "Save as…" without its dialog (what the dialog calls with the name typed).
    bool saveProfileAs(const QString& name);

Q_SIGNALS:
    void connectRequested();   // "Connect" pressed (the settings are already saved)
    void profileSelected();    // a saved profile became the current one (its key is to be restored)

private:
    void syncFromSettings();
    void syncProfiles();
    void push();

    Settings& m_settings;
    bool m_syncing = false;
    QCheckBox* m_use = nullptr;
    QLineEdit* m_url = nullptr;
    QComboBox* m_flavour = nullptr;
    QLineEdit* m_key = nullptr;
    QLineEdit* m_model = nullptr;
    QSpinBox* m_concurrency = nullptr;
    QPushButton* m_connect = nullptr;
    QComboBox* m_profile = nullptr;
    QPushButton* m_saveAs = nullptr;
    QPushButton* m_remove = nullptr;
};

}  // namespace reef::ui
