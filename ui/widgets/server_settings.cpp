#include "widgets/server_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "qt/settings.h"

namespace reef::ui {

ServerSettings::ServerSettings(Settings& settings, QWidget* parent)
    : QGroupBox(tr("Speech from a server"), parent), m_settings(settings) {
    auto* f = new QFormLayout(this);
    m_use = new QCheckBox(tr("Make speech on a server instead of this computer"));
    m_use->setObjectName(QStringLiteral("useServerCheck"));
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("serverUrlEdit"));
    m_url->setPlaceholderText(QStringLiteral("http://192.168.1.20:8080"));
    m_url->setAccessibleName(tr("Server address"));
    m_flavour = new QComboBox;
    m_flavour->setObjectName(QStringLiteral("serverFlavourCombo"));
    m_flavour->addItem(tr("ask the server"), QStringLiteral("auto"));
    m_flavour->addItem(QStringLiteral("fish-speech / Fish Audio"), QStringLiteral("fish-speech"));
    m_flavour->addItem(QStringLiteral("SGLang-Omni"), QStringLiteral("sglang-omni"));
    m_flavour->addItem(QStringLiteral("vLLM-Omni"), QStringLiteral("vllm-omni"));
    m_key = new QLineEdit;
    m_key->setObjectName(QStringLiteral("serverKeyEdit"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("none"));
    m_key->setToolTip(tr("Sent as \"Authorization: Bearer\". Kept in the desktop's secret store (for this session only where there is none), never in the settings file."));
    m_key->setAccessibleName(tr("API key"));
    m_model = new QLineEdit;
    m_model->setPlaceholderText(tr("the server's default"));
    m_model->setToolTip(tr("OpenAI-compatible servers: the model name; Fish Audio: its model (s1, s2-pro…)"));
    m_concurrency = new QSpinBox;
    m_concurrency->setObjectName(QStringLiteral("serverConcurrencySpin"));
    m_concurrency->setRange(1, Settings::kMaxServerConcurrency);
    m_concurrency->setToolTip(tr("How many queued items the server gets at once: servers that batch "
                                 "(SGLang-Omni, vLLM-Omni) make more speech per second with more"));
    m_connect = new QPushButton(tr("Connect"));
    m_connect->setObjectName(QStringLiteral("connectServerButton"));
    m_profile = new QComboBox;
    m_profile->setObjectName(QStringLiteral("serverProfileCombo"));
    m_profile->setAccessibleName(tr("Server profile"));
    m_profile->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_profile->setMinimumContentsLength(14);   // names like "GPU box (office)" stay readable
    m_saveAs = new QPushButton(tr("Save as…"));
    m_remove = new QPushButton(tr("Remove"));
    auto* profiles = new QHBoxLayout;
    profiles->addWidget(m_profile, 1);
    profiles->addWidget(m_saveAs);
    profiles->addWidget(m_remove);
    f->addRow(m_use);
    f->addRow(tr("Profile"), profiles);
    f->addRow(tr("Address"), m_url);
    f->addRow(tr("Protocol"), m_flavour);
    f->addRow(tr("API key"), m_key);
    f->addRow(tr("Model"), m_model);
    f->addRow(tr("Requests at once"), m_concurrency);
    f->addRow(m_connect);
    syncProfiles();
    syncFromSettings();
    connect(&settings, &Settings::serverChanged, this, &ServerSettings::syncFromSettings);
    connect(&settings, &Settings::serverProfilesChanged, this, &ServerSettings::syncProfiles);
    connect(m_profile, &QComboBox::activated, this, [this](int i) {
        const QString name = m_profile->itemData(i).toString();
        if (!name.isEmpty() && m_settings.selectServerProfile(name))
            Q_EMIT profileSelected();
    });
    connect(m_saveAs, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save the server profile"), tr("Name:"), QLineEdit::Normal,
                                                   m_settings.serverProfileName(), &ok);
        if (ok)
            saveProfileAs(name);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QString name = m_profile->currentData().toString();
        if (!name.isEmpty())
            m_settings.removeServerProfile(name);
    });
    connect(m_use, &QCheckBox::toggled, this, &ServerSettings::push);
    connect(m_flavour, &QComboBox::currentIndexChanged, this, &ServerSettings::push);
    for (QLineEdit* e : {m_url, m_key, m_model})
        connect(e, &QLineEdit::editingFinished, this, &ServerSettings::push);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &ServerSettings::push);
    connect(m_connect, &QPushButton::clicked, this, [this] {
        m_use->setChecked(true);
        push();
        Q_EMIT connectRequested();
    });
}

bool ServerSettings::saveProfileAs(const QString& name) {
    push();
    return m_settings.saveServerProfileAs(name.trimmed());
}

void ServerSettings::syncProfiles() {
    const bool was = m_syncing;
    m_syncing = true;
    m_profile->clear();
    m_profile->addItem(tr("(not saved)"), QString());
    for (const QString& name : m_settings.serverProfileNames())
        m_profile->addItem(name, name);
    m_profile->setCurrentIndex(std::max(0, m_profile->findData(m_settings.serverProfileName())));
    m_remove->setEnabled(m_profile->currentIndex() > 0);
    m_syncing = was;
}

void ServerSettings::syncFromSettings() {
    m_syncing = true;
    m_profile->setCurrentIndex(std::max(0, m_profile->findData(m_settings.serverProfileName())));
    m_remove->setEnabled(m_profile->currentIndex() > 0);
    const ServerProfile p = m_settings.serverProfile();
    m_use->setChecked(m_settings.useServer());
    m_url->setText(QString::fromStdString(p.url));
    m_flavour->setCurrentIndex(std::max(0, m_flavour->findData(QString::fromLatin1(to_string(p.flavour)))));
    m_key->setText(m_settings.serverKey());
    m_model->setText(QString::fromStdString(p.model));
    m_concurrency->setValue(p.concurrency);
    for (QWidget* w : std::initializer_list<QWidget*>{m_url, m_flavour, m_key, m_model, m_concurrency})
        w->setEnabled(m_use->isChecked());
    m_syncing = false;
}

void ServerSettings::push() {
    if (m_syncing)
        return;
    // Read every field first: each setter below announces serverChanged, which re-syncs the fields.
    ServerProfile p = m_settings.serverProfile();
    p.url = m_url->text().trimmed().toStdString();
    p.flavour = parse_remote_flavour(m_flavour->currentData().toString().toStdString()).value_or(RemoteFlavour::Auto);
    p.model = m_model->text().trimmed().toStdString();
    p.concurrency = m_concurrency->value();
    const QString key = m_key->text();
    const bool use = m_use->isChecked();
    m_settings.setServerProfile(p);
    m_settings.setServerKey(key);
    m_settings.setUseServer(use);
}

}  // namespace reef::ui
