#include "widgets/main_window.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QVBoxLayout>

#include "qt/app_versions.h"
#include "widgets/about_dialog.h"

namespace reef::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("Reef"));
    setupUi();
    resize(1200, 780);
}

void MainWindow::setupUi() {
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Reef"), this, &MainWindow::showAbout);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    m_text = new QPlainTextEdit;
    m_text->setPlaceholderText(tr("Type the text to speak. Use <|speaker:0|> tags for dialogue."));
    m_generate = new QPushButton(tr("Generate"));
    m_generate->setEnabled(false);
    m_generate->setToolTip(tr("Load a model first"));
    layout->addWidget(m_text, 3);
    layout->addWidget(m_generate);
    layout->addWidget(createChartArea(), 2);
    layout->addWidget(createPlayerBar());
    setCentralWidget(central);

    auto* dock = new QDockWidget(tr("Settings"), this);
    dock->setObjectName(QStringLiteral("settingsDock"));
    dock->setWidget(createSettingsPanel());
    addDockWidget(Qt::RightDockWidgetArea, dock);

    const AppVersions v = appVersions();
    m_deviceLabel = new QLabel(v.deviceSummary);
    statusBar()->addPermanentWidget(m_deviceLabel);
    statusBar()->showMessage(tr("No model loaded"));
}

QWidget* MainWindow::createSettingsPanel() {
    auto* box = new QGroupBox(tr("Engine"));
    auto* form = new QFormLayout(box);
    auto* compile = new QComboBox;
    compile->addItems({QStringLiteral("eager"), QStringLiteral("cuda-graph"), QStringLiteral("aot-inductor")});
    auto* sdpa = new QComboBox;
    sdpa->addItems({QStringLiteral("auto"), QStringLiteral("math"), QStringLiteral("flash"), QStringLiteral("efficient"),
                    QStringLiteral("cudnn"), QStringLiteral("fish-speech")});
    auto* seed = new QSpinBox;
    for (QWidget* w : {static_cast<QWidget*>(compile), static_cast<QWidget*>(sdpa), static_cast<QWidget*>(seed)}) {
        w->setEnabled(false);
        w->setToolTip(tr("Available once a model is loaded"));
    }
    form->addRow(tr("Compile mode"), compile);
    form->addRow(tr("SDPA policy"), sdpa);
    form->addRow(tr("Seed"), seed);
    return box;
}

QWidget* MainWindow::createChartArea() {
    auto* box = new QGroupBox(tr("Live metrics"));
    auto* l = new QVBoxLayout(box);
    l->addWidget(new QLabel(tr("frames/s, memory and the active attention backend appear here while generating")));
    return box;
}

QWidget* MainWindow::createPlayerBar() {
    auto* bar = new QWidget;
    auto* l = new QHBoxLayout(bar);
    auto* play = new QPushButton(tr("Play"));
    auto* seek = new QSlider(Qt::Horizontal);
    auto* exportWav = new QPushButton(tr("Export WAV…"));
    for (QWidget* w : {static_cast<QWidget*>(play), static_cast<QWidget*>(seek), static_cast<QWidget*>(exportWav)})
        w->setEnabled(false);
    l->addWidget(play);
    l->addWidget(seek, 1);
    l->addWidget(exportWav);
    return bar;
}

QString MainWindow::statusDeviceText() const { return m_deviceLabel->text(); }

void MainWindow::showAbout() {
    AboutDialog dialog(this);
    dialog.exec();
}

}  // namespace reef::ui
