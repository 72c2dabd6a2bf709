#include "widgets/settings_panel.h"

#include "widgets/server_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QStandardItemModel>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>
#include <limits>

#include "qt/compile_setup_job.h"
#include "qt/settings.h"
#include "qt/translations.h"
#include "reef/quantize.h"

namespace reef::ui {
namespace {

template <class E>
QComboBox* enumCombo(std::initializer_list<E> values) {
    auto* c = new QComboBox;
    for (E v : values)
        c->addItem(QString::fromLatin1(to_string(v)), QString::fromLatin1(to_string(v)));
    return c;
}

template <class E>
void selectEnum(QComboBox* c, E v) {
    c->setCurrentIndex(std::max(0, c->findData(QString::fromLatin1(to_string(v)))));
}

template <class E>
E currentEnum(QComboBox* c, std::optional<E> (*parse)(const std::string&), E fallback) {
    return parse(c->currentData().toString().toStdString()).value_or(fallback);
}

QSpinBox* intSpin(int lo, int hi, const QString& special = {}) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    if (!special.isEmpty())
        s->setSpecialValueText(special);
    return s;
}

// The engine's sampling labels, meanings and special values, in this interface's language: the
// engine marks them for lupdate where it defines them (reef/sampling_settings.cpp), in their own
// context, so the panel keeps no copy of them.
QString samplingText(const char* text) {
    return QCoreApplication::translate(kSamplingTranslationContext, text);
}

}  // namespace

void applyCapabilities(QComboBox* combo, const std::map<std::string, Capability>& caps) {
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    if (!model)
        return;
    for (int i = 0; i < combo->count(); ++i) {
        QStandardItem* item = model->item(i);
        const auto it = caps.find(combo->itemData(i).toString().toStdString());
        const bool available = it == caps.end() || it->second.available;
        item->setEnabled(available);
        item->setToolTip(available ? QString() : QString::fromStdString(it->second.reason));
    }
}

SettingsPanel::SettingsPanel(Settings& settings, QWidget* parent) : QWidget(parent), m_settings(settings) {
    auto* inner = new QWidget;
    m_inner = inner;
    auto* v = new QVBoxLayout(inner);
    v->addWidget(createModelGroup());
    m_server = new ServerSettings(settings);
    connect(m_server, &ServerSettings::connectRequested, this, &SettingsPanel::loadRequested);
    v->addWidget(m_server);
    m_servedBy = new QLabel;
    m_servedBy->setObjectName(QStringLiteral("servedByNote"));
    m_servedBy->setWordWrap(true);
    m_servedBy->hide();
    v->addWidget(m_servedBy);
    m_engineGroup = createEngineGroup();
    v->addWidget(m_engineGroup);
    v->addWidget(createSamplingGroup());
    v->addWidget(createAudioGroup());
    v->addWidget(createInterfaceGroup());
    v->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setAccessibleName(tr("Settings"));
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    // Only ever a vertical scrollbar (issue #47): the panel is as wide as its widest row needs.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    syncFromSettings();
    // the model's size reads the folder's config.json: again when the folder or the precision
    // changes, not with every sampling edit
    updateModelSize();
    connect(&settings, &Settings::engineConfigChanged, this, &SettingsPanel::updateModelSize);
    connect(&settings, &Settings::engineConfigChanged, this, &SettingsPanel::syncFromSettings);
    connect(&settings, &Settings::samplingChanged, this, &SettingsPanel::syncFromSettings);
    connect(&settings, &Settings::batchSizeChanged, this, &SettingsPanel::syncFromSettings);
}

QWidget* SettingsPanel::createModelGroup() {
    auto* box = new QGroupBox(tr("Model"));
    auto* v = new QVBoxLayout(box);
    m_modelDir = new QLineEdit;
    m_modelDir->setPlaceholderText(tr("fish-speech S2-Pro / S1-mini folder"));
    auto* browse = new QPushButton(tr("Browse…"));
    m_load = new QPushButton(tr("Load model"));
    m_load->setObjectName(QStringLiteral("loadModelButton"));
    // The path gets the whole row (paths are long); the full path is also the tooltip.
    m_modelDir->setMinimumWidth(280);
    connect(m_modelDir, &QLineEdit::textChanged, m_modelDir, &QLineEdit::setToolTip);
    auto* row = new QHBoxLayout;
    row->addWidget(browse);
    row->addWidget(m_load, 1);
    v->addWidget(m_modelDir);
    // What the folder's model will occupy, before it is loaded (issue #44): from its config.json.
    m_modelSize = new QLabel;
    m_modelSize->setObjectName(QStringLiteral("modelSizeLabel"));
    m_modelSize->setWordWrap(true);
    m_modelSize->hide();
    v->addWidget(m_modelSize);
    v->addLayout(row);
    connect(browse, &QPushButton::clicked, this, &SettingsPanel::browseModel);
    connect(m_modelDir, &QLineEdit::editingFinished, this, &SettingsPanel::pushEngineConfig);
    connect(m_load, &QPushButton::clicked, this, [this] {
        pushEngineConfig();
        m_settings.setUseServer(false);   // "Load model": this computer's engine
        Q_EMIT loadRequested();
    });
    return box;
}

QWidget* SettingsPanel::createEngineGroup() {
    auto* box = new QGroupBox(tr("Engine"));
    auto* f = new QFormLayout(box);
    // Load settings: what differs from the loaded model is said here, with the one click that
    // applies it (Generate applies it too, when nothing is running).
    m_pending = new QLabel;
    m_pending->setObjectName(QStringLiteral("reloadNeededLabel"));
    m_pending->setWordWrap(true);
    m_reloadNow = new QPushButton(tr("Reload now"));
    m_reloadNow->setObjectName(QStringLiteral("reloadNowButton"));
    m_reloadNow->setToolTip(tr("Load the model again with the settings shown here"));
    m_pendingRow = new QWidget;
    auto* pendingLayout = new QHBoxLayout(m_pendingRow);
    pendingLayout->setContentsMargins(0, 0, 0, 0);
    pendingLayout->addWidget(m_pending, 1);
    pendingLayout->addWidget(m_reloadNow, 0, Qt::AlignTop);
    m_pendingRow->hide();
    f->addRow(m_pendingRow);
    connect(m_reloadNow, &QPushButton::clicked, this, [this] {
        pushEngineConfig();
        m_settings.setUseServer(false);
        Q_EMIT loadRequested();
    });
    // Filled from the engine's device list (setDeviceCaps): cpu, every GPU libtorch sees, and the
    // kinds it has none of, disabled with the reason. Until the list arrives, the two plain kinds.
    m_device = enumCombo({DeviceKind::Cpu, DeviceKind::Cuda});
    m_device->setObjectName(QStringLiteral("deviceCombo"));
    m_precision = enumCombo({Precision::Fp32, Precision::Bf16, Precision::Fp16});
    m_threads = intSpin(0, 256, tr("default"));
    m_compile = enumCombo({CompileMode::Eager, CompileMode::CudaGraph, CompileMode::AotInductor});
    m_sdpa = enumCombo({SdpaPolicy::Auto, SdpaPolicy::Math, SdpaPolicy::Flash, SdpaPolicy::Efficient, SdpaPolicy::Cudnn,
                        SdpaPolicy::FishSpeech, SdpaPolicy::Reef});
    m_kvMode = enumCombo({KvMode::ActivePrefix, KvMode::Full});
    m_kvMode->setToolTip(tr("active: attend over the filled cache prefix only; full: the whole cache with a mask"));
    m_kvMargin = intSpin(0, 65536);
    m_kvMargin->setToolTip(tr("extra cache rows beyond prompt + max new frames"));
    f->addRow(tr("Device"), m_device);
    f->addRow(tr("Precision"), m_precision);
    // An int8 or int4 copy of the model folder (issue #44): a dialog with progress and cancel, MainWindow's.
    m_quantize = new QPushButton(tr("Quantize (int8/int4)\u2026"));
    m_quantize->setObjectName(QStringLiteral("quantizeButton"));
    m_quantize->setToolTip(tr("Write an int8 or int4 copy of the model folder (the same as reef-cli quantize): int8 takes "
                              "about half of bf16's memory and stays closest to bf16; int4 about a quarter, a bit further "
                              "from bf16"));
    connect(m_quantize, &QPushButton::clicked, this, [this] {
        pushEngineConfig();
        Q_EMIT quantizeRequested();
    });
    f->addRow(tr("Smaller weights"), m_quantize);
    f->addRow(tr("CPU threads"), m_threads);
    m_adaptiveThreads = new QCheckBox(tr("Fewer while other programs are busy"));
    m_adaptiveThreads->setObjectName(QStringLiteral("adaptiveThreadsCheck"));
    m_adaptiveThreads->setToolTip(
        tr("While another program keeps a core busy, every thread of a CPU frame waits for the one it holds up: decoding "
           "measures fewer threads now and then and keeps them while they are faster (the take's codes stay the same). "
           "Off: every frame uses all the threads above."));
    f->addRow(QString(), m_adaptiveThreads);
    m_threadsWarning = new QLabel;
    m_threadsWarning->setObjectName(QStringLiteral("threadsWarning"));
    m_threadsWarning->setWordWrap(true);
    m_threadsWarning->hide();
    f->addRow(QString(), m_threadsWarning);
    // aot-inductor compiles with a Python holding this libtorch's torch; where there is none the
    // option is off and this button makes one (a private venv), with pip's progress.
    m_compileSetup = new QPushButton(tr("Set up\u2026"));
    m_compileSetup->setObjectName(QStringLiteral("compileSetupButton"));
    m_compileSetup->setToolTip(tr("Install the Python that compile mode aot-inductor needs (a private venv with the "
                                  "matching torch, several hundred MB), the same as reef-cli compile --setup"));
    m_compileSetup->hide();
    m_compileSetupStatus = new QLabel;
    m_compileSetupStatus->setObjectName(QStringLiteral("compileSetupStatus"));
    m_compileSetupStatus->setWordWrap(true);
    m_compileSetupStatus->hide();
    auto* compileRow = new QHBoxLayout;
    compileRow->addWidget(m_compile, 1);
    compileRow->addWidget(m_compileSetup);
    f->addRow(tr("Compile mode"), compileRow);
    f->addRow(QString(), m_compileSetupStatus);
    m_setupJob = new CompileSetupJob(this);
    connect(m_compileSetup, &QPushButton::clicked, this, &SettingsPanel::runCompileSetup);
    connect(m_setupJob, &CompileSetupJob::line, this, [this](const QString& text) {
        m_compileSetupStatus->setText(text);
    });
    connect(m_setupJob, &CompileSetupJob::finished, this, [this](bool ok, const QString& message) {
        m_compileSetup->setText(tr("Set up\u2026"));
        m_setupSucceeded = ok;
        m_compileSetupStatus->setText(ok ? tr("aot-inductor is ready.") : tr("Set-up failed: %1").arg(message));
        Q_EMIT compileSetupFinished(ok);
    });
    f->addRow(tr("SDPA policy"), m_sdpa);
    f->addRow(tr("KV cache"), m_kvMode);
    f->addRow(tr("KV margin"), m_kvMargin);
    // Applies at once, to the next items the queue starts (not a load setting).
    m_batchSize = new QComboBox;
    m_batchSize->setObjectName(QStringLiteral("batchSizeCombo"));
    m_batchSize->addItem(tr("1 (one at a time, streamed)"), 1);
    for (int b : {2, 4, 8})
        m_batchSize->addItem(QString::number(b), b);
    m_batchSize->addItem(tr("auto (by free memory)"), 0);
    m_batchSize->setToolTip(tr("How many queued items (project segments) decode together on this computer: more gives "
                               "more frames per second in all, each item a little slower; items in a batch are "
                               "played when they are done. Each item sounds exactly as it would alone."));
    f->addRow(tr("Batch size"), m_batchSize);
    connect(m_batchSize, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_settings.setBatchSize(m_batchSize->currentData().toInt());
    });
    for (QComboBox* c : {m_device, m_precision, m_compile, m_sdpa, m_kvMode})
        connect(c, &QComboBox::currentIndexChanged, this, &SettingsPanel::pushEngineConfig);
    for (QSpinBox* s : {m_threads, m_kvMargin})
        connect(s, &QSpinBox::valueChanged, this, &SettingsPanel::pushEngineConfig);
    connect(m_adaptiveThreads, &QCheckBox::toggled, this, &SettingsPanel::pushEngineConfig);

    return box;
}

QWidget* SettingsPanel::createSamplingGroup() {
    auto* box = new QGroupBox(tr("Sampling"));
    auto* f = new QFormLayout(box);
    // Every control's range, step and meaning come from the engine's one description of the
    // settings, so nothing the panel allows is refused at Generate.
    for (const SamplingSetting& st : sampling_settings()) {
        auto* s = new QDoubleSpinBox;
        s->setDecimals(st.decimals);
        s->setRange(st.min, st.max);
        s->setSingleStep(st.step);
        if (st.at_min)
            s->setSpecialValueText(samplingText(st.at_min));
        s->setToolTip(samplingText(st.meaning));
        s->setAccessibleName(samplingText(st.label));
        f->addRow(samplingText(st.label), s);
        connect(s, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::pushSampling);
        m_samplingSpins[st.key] = s;
    }
    m_seed = new QLineEdit;
    // any 64-bit value: up to 20 digits, checked against 2^64 - 1 when read
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_seed));
    m_seed->setToolTip(tr("A whole number from 0 to %1: the same seed and settings give the same take")
                           .arg(QString::number(std::numeric_limits<quint64>::max())));
    m_seed->setAccessibleName(tr("Seed"));
    f->addRow(tr("Seed"), m_seed);
    connect(m_seed, &QLineEdit::editingFinished, this, &SettingsPanel::pushSampling);
    return box;
}

QWidget* SettingsPanel::createAudioGroup() {
    auto* box = new QGroupBox(tr("Audio"));
    auto* f = new QFormLayout(box);
    m_audioDevice = new QComboBox;
    m_audioDevice->addItem(tr("default output"), QString());
    m_autoplay = new QCheckBox(tr("Play while generating"));
    f->addRow(tr("Output"), m_audioDevice);
    f->addRow(m_autoplay);
    connect(m_audioDevice, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_settings.setAudioDevice(m_audioDevice->currentData().toString());
    });
    connect(m_autoplay, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_syncing)
            m_settings.setAutoplay(on);
    });
    return box;
}

QWidget* SettingsPanel::createInterfaceGroup() {
    auto* box = new QGroupBox(tr("Interface"));
    auto* f = new QFormLayout(box);
    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(languageNativeName(QStringLiteral("en")), QStringLiteral("en"));
    for (const QString& code : shippedLanguages())
        m_language->addItem(languageNativeName(code), code);
    auto* note = new QLabel(tr("A new language applies when Reef starts again."));
    note->setWordWrap(true);
    note->setEnabled(false);
    f->addRow(tr("Language"), m_language);
    f->addRow(note);
    m_historyLimit = intSpin(Settings::kMinHistoryLimitMb, Settings::kMaxHistoryLimitMb);
    m_historyLimit->setObjectName(QStringLiteral("historyLimitSpin"));
    m_historyLimit->setSuffix(tr(" MB"));
    m_historyLimit->setToolTip(tr("Takes are kept across restarts up to this size on disk; the oldest go first"));
    f->addRow(tr("Take history"), m_historyLimit);
    connect(m_historyLimit, &QSpinBox::valueChanged, this, [this](int mb) {
        if (!m_syncing)
            m_settings.setHistoryLimitMb(mb);
    });
    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_settings.setLanguage(m_language->currentData().toString());
    });
    return box;
}

QSize SettingsPanel::minimumSizeHint() const {
    // As wide as the widest group needs, plus the vertical scrollbar: the dock never cuts a row
    // ("Remove" read "Re" at 1280×860) nor needs a horizontal scrollbar.
    const QSize inner = m_inner->minimumSizeHint();
    return {inner.width() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4, std::min(inner.height(), 200)};
}

QSize SettingsPanel::sizeHint() const { return minimumSizeHint().expandedTo(QWidget::sizeHint()); }

void SettingsPanel::updateModelSize() {
    const EngineConfig c = m_settings.engineConfig();
    if (c.model_dir.empty()) {
        m_modelSize->hide();
        return;
    }
    const Result<ModelFolderSize> size = model_folder_size(c.model_dir, c.precision);
    if (!size.ok()) {   // not a model folder: the load says why
        m_modelSize->hide();
        return;
    }
    const QLocale locale;
    const auto gb = [&](uint64_t bytes) { return locale.formattedDataSize(qint64(bytes), 2, QLocale::DataSizeSIFormat); };
    const ModelFolderSize& s = size.value();
    // A quantized folder says its format as the engine names it ("int8", "int4-g128"); a float one
    // what it takes at the chosen precision and what an int8 or int4 copy would.
    const QString format = !s.format.empty() ? QString::fromStdString(s.format)
                           : s.int8         ? QStringLiteral("int8")
                                            : QString();
    m_modelSize->setText(!format.isEmpty()
                             ? tr("%1 weights: %2 in memory").arg(format, gb(s.bytes))
                             : tr("%1 weights: %2 in memory; an int8 copy: %3, an int4 copy (group 128): %4 "
                                  "(Engine → Quantize (int8/int4)…)")
                                   .arg(QLatin1String(to_string(c.precision)), gb(s.bytes), gb(s.int8_bytes),
                                        gb(s.int4_bytes)));
    m_modelSize->show();
}

void SettingsPanel::syncFromSettings() {
    m_syncing = true;
    const EngineConfig c = m_settings.engineConfig();
    const SamplingParams p = m_settings.sampling();
    m_modelDir->setText(QString::fromStdString(c.model_dir));
    selectDevice(c);
    selectEnum(m_precision, c.precision);
    m_threads->setValue(c.cpu_threads);
    m_adaptiveThreads->setChecked(c.adaptive_threads);
    selectEnum(m_compile, c.compile_mode);
    selectEnum(m_sdpa, c.sdpa_policy);
    selectEnum(m_kvMode, c.kv_mode);
    m_kvMargin->setValue(c.kv_margin);
    for (const auto& [key, spin] : m_samplingSpins)
        spin->setValue(sampling_value(p, key));
    m_seed->setText(QString::number(p.seed));
    m_autoplay->setChecked(m_settings.autoplay());
    const int dev = m_audioDevice->findData(m_settings.audioDevice());
    m_audioDevice->setCurrentIndex(std::max(0, dev));
    m_language->setCurrentIndex(std::max(0, m_language->findData(m_settings.language())));
    m_historyLimit->setValue(m_settings.historyLimitMb());
    m_batchSize->setCurrentIndex(std::max(0, m_batchSize->findData(m_settings.batchSize())));
    m_syncing = false;
    applyEngineAvailability();
}

void SettingsPanel::pushEngineConfig() {
    if (m_syncing)
        return;
    EngineConfig c = m_settings.engineConfig();
    c.model_dir = m_modelDir->text().trimmed().toStdString();
    const DeviceSpec device = parse_device_spec(m_device->currentData().toString().toStdString())
                                  .value_or(DeviceSpec{c.device, c.device_index});
    c.device = device.kind;
    c.device_index = device.index;
    c.precision = currentEnum(m_precision, &parse_precision, c.precision);
    c.cpu_threads = m_threads->value();
    c.adaptive_threads = m_adaptiveThreads->isChecked();
    c.compile_mode = currentEnum(m_compile, &parse_compile_mode, c.compile_mode);
    c.sdpa_policy = currentEnum(m_sdpa, &parse_sdpa_policy, c.sdpa_policy);  // a default follows (Settings)
    c.kv_mode = currentEnum(m_kvMode, &parse_kv_mode, c.kv_mode);
    c.kv_margin = m_kvMargin->value();
    m_settings.setEngineConfig(c);
    applyEngineAvailability();
}

void SettingsPanel::pushSampling() {
    if (m_syncing)
        return;
    SamplingParams p = m_settings.sampling();
    for (const auto& [key, spin] : m_samplingSpins)
        set_sampling_value(p, key, spin->value());
    bool ok = false;
    const qulonglong seed = m_seed->text().toULongLong(&ok);
    if (ok)
        p.seed = seed;
    else  // empty, or past 2^64 - 1: the stored seed stays, and the field shows it again
        m_seed->setText(QString::number(p.seed));
    m_settings.setSampling(p);
}

void SettingsPanel::browseModel() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a fish-speech model folder"), m_modelDir->text());
    if (dir.isEmpty())
        return;
    m_modelDir->setText(dir);
    pushEngineConfig();
}

void SettingsPanel::selectDevice(const EngineConfig& c) {
    // the exact device, else the entry of its kind (e.g. "cuda" shown disabled on a machine without a GPU)
    int i = m_device->findData(QString::fromStdString(to_string(DeviceSpec{c.device, c.device_index})));
    if (i < 0)
        i = m_device->findData(QString::fromLatin1(to_string(c.device)));
    m_device->setCurrentIndex(std::max(0, i));
}

void SettingsPanel::setDeviceList(const std::vector<DeviceInfo>& devices) {
    if (devices.empty())
        return;
    const bool was = m_syncing;
    m_syncing = true;
    m_device->clear();
    auto* model = qobject_cast<QStandardItemModel*>(m_device->model());
    for (const DeviceInfo& d : devices) {
        QString text = QString::fromStdString(d.id);
        if (!d.name.empty())
            text += QStringLiteral(" \u2014 ") + QString::fromStdString(d.name);
        if (d.memory_bytes > 0)
            text += QStringLiteral(" (%1 GiB)").arg(double(d.memory_bytes) / double(1LL << 30), 0, 'f', 1);
        m_device->addItem(text, QString::fromStdString(d.id));
        if (QStandardItem* item = model ? model->item(m_device->count() - 1) : nullptr) {
            item->setEnabled(d.available);
            item->setToolTip(d.available ? QString() : QString::fromStdString(d.reason));
        }
    }
    selectDevice(m_settings.engineConfig());
    m_syncing = was;
}

void SettingsPanel::runCompileSetup() {
    if (m_setupJob->isRunning()) {   // the button reads "Cancel" while it runs
        m_setupJob->cancel();
        return;
    }
    m_compileSetup->setText(tr("Cancel"));
    m_setupSucceeded = false;
    m_compileSetupStatus->show();
    m_compileSetupStatus->setText(tr("Setting up the Python for aot-inductor\u2026"));
    m_setupJob->start();
}

void SettingsPanel::setDeviceCaps(const DeviceCaps& caps) {
    setDeviceList(caps.device_list);
    const auto aot = caps.compile_modes.find(to_string(CompileMode::AotInductor));
    const bool needsSetup = aot != caps.compile_modes.end() && !aot->second.available && aot->second.needs_setup;
    m_compileSetup->setVisible(needsSetup || m_setupJob->isRunning());
    if (needsSetup && !m_setupJob->isRunning()) {
        m_compileSetupStatus->setText(tr("aot-inductor: %1").arg(QString::fromStdString(aot->second.reason)));
        m_compileSetupStatus->show();
    } else if (!m_setupJob->isRunning() && aot != caps.compile_modes.end() && aot->second.available &&
               !m_setupSucceeded) {
        m_compileSetupStatus->hide();
    }
    m_caps = caps;
    if (caps.default_cpu_threads > 0)
        m_threads->setSpecialValueText(tr("default (%1)").arg(caps.default_cpu_threads));
    applyEngineAvailability();
}

void SettingsPanel::applyEngineAvailability() {
    // device items ("cuda:0") got their state per device from setDeviceList: caps.devices is per
    // kind ("cuda"), and would read every indexed item as one it does not know, so enabled
    applyCapabilities(m_precision, m_caps.precisions);
    // A compile mode or SDPA policy that the other one rules out (e.g. sdpa 'reef' with
    // aot-inductor) is disabled with the engine's reason, as load() would refuse it.
    const EngineConfig c = m_settings.engineConfig();
    auto withConflicts = [&](QComboBox* combo, const std::map<std::string, Capability>& caps, auto conflictOf) {
        std::map<std::string, Capability> merged = caps;
        for (int i = 0; i < combo->count(); ++i) {
            const std::string name = combo->itemData(i).toString().toStdString();
            const ConfigConflict conflict = conflictOf(name);
            if (!conflict)
                continue;
            const auto known = caps.find(name);
            if (known == caps.end() || known->second.available)
                merged[name] = {false, conflict.reason + " (" + conflict.hint + ")"};
        }
        applyCapabilities(combo, merged);
    };
    withConflicts(m_compile, m_caps.compile_modes, [&](const std::string& name) {
        const auto mode = parse_compile_mode(name);
        // cuda-graph's own reason is the caps' (device-wide); here only what the SDPA policy rules out
        if (!mode || *mode == CompileMode::CudaGraph)
            return ConfigConflict{};
        // with the policy the mode would run (a default follows it: Settings::setEngineConfig)
        EngineConfig next = c;
        next.compile_mode = *mode;
        return config_conflict(*mode, sdpa_policy_after(c, next), c.device);
    });
    withConflicts(m_sdpa, m_caps.sdpa_policies, [&](const std::string& name) {
        const auto policy = parse_sdpa_policy(name);
        return policy && c.compile_mode != CompileMode::CudaGraph ? config_conflict(c.compile_mode, *policy, c.device)
                                                                  : ConfigConflict{};
    });
    updateThreadsWarning();
    updatePending();
}

void SettingsPanel::updateThreadsWarning() {
    const int cores = m_caps.cpu_cores;
    const int threads = m_threads->value();
    const bool over = cores > 0 && threads > cores;
    if (over)
        m_threadsWarning->setText(
            tr("%1 threads on %2 usable CPU cores: the threads take turns on the cores, and decoding runs many times "
               "slower. Pick \"default\" or at most %2.")
                .arg(threads)
                .arg(cores));
    m_threadsWarning->setVisible(over);
}

void SettingsPanel::setLoadedConfig(const std::optional<EngineConfig>& loaded) {
    m_loaded = loaded;
    updatePending();
}

void SettingsPanel::setServedBy(const std::optional<QString>& server, const QString& servedWith) {
    if (server)
        m_servedBy->setText(tr("Speech comes from the server %1 (%2). The Engine settings below are this "
                               "computer's: they apply when you load a model here again.")
                                .arg(*server, servedWith.isEmpty() ? tr("it does not say how it runs the model") : servedWith));
    m_servedBy->setVisible(server.has_value());
    m_engineGroup->setEnabled(!server);
}

void SettingsPanel::updatePending() {
    const QStringList changes = m_loaded ? configChanges(*m_loaded, m_settings.engineConfig()) : QStringList();
    if (!changes.isEmpty())
        m_pending->setText(tr("Reload needed: the loaded model runs with other settings. Changed: %1. Generate "
                              "reloads first when nothing is running.")
                               .arg(changes.join(QStringLiteral("; "))));
    m_pendingRow->setVisible(!changes.isEmpty());
}

void SettingsPanel::setAudioDevices(const QStringList& devices) {
    m_syncing = true;
    m_audioDevice->clear();
    m_audioDevice->addItem(devices.isEmpty() ? tr("no output device found") : tr("default output"), QString());
    for (const QString& d : devices)
        m_audioDevice->addItem(d, d);
    m_audioDevice->setCurrentIndex(std::max(0, m_audioDevice->findData(m_settings.audioDevice())));
    m_syncing = false;
}

}  // namespace reef::ui
