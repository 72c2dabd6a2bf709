// The main window's menus and keyboard: every command is a QAction with its shortcut shown in its
// menu, and Help → Keyboard shortcuts lists them from the menus themselves.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextEdit>

#include "qt/engine_controller.h"
#include "qt/playback_controller.h"
#include "qt/project.h"
#include "qt/synthesis_queue.h"
#include "widgets/project_view.h"
#include "widgets/main_window.h"
#include "widgets/shortcuts_dialog.h"
#include "widgets/synthesis_panel.h"

namespace reef::ui {

void MainWindow::setupMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New project"), QKeySequence::New, this, &MainWindow::newProject);
    file->addAction(tr("&Open project…"), QKeySequence::Open, this, &MainWindow::openProjectInteractive);
    file->addAction(tr("&Save project"), QKeySequence::Save, this, [this] { saveProjectInteractive(false); });
    file->addAction(tr("Save project &as…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                    [this] { saveProjectInteractive(true); });
    file->addSeparator();
    m_openTextAction = file->addAction(tr("Open &text file…"), this, &MainWindow::openTextFileInteractive);
    m_openTextAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("&Import EPUB as a project…"), this, &MainWindow::importEpubInteractive);
    m_exportAction = file->addAction(tr("&Export audio…"), this, [this] { exportInteractive(&m_playback.samples(), -1); });
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    file->addAction(tr("Open &model folder…"), this, &MainWindow::openModelFolder);
    file->addAction(tr("Quanti&ze model (int8/int4)…"), this, &MainWindow::quantizeModel);
    file->addAction(tr("&Reload model"), this, &MainWindow::loadModel);
    file->addAction(tr("&Voice library…"), this, &MainWindow::manageVoices);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* dictionary = edit->addAction(tr("Pronunciation &dictionary…"), this, &MainWindow::showDictionary);
    dictionary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    auto* tags = edit->addMenu(tr("Insert &speaker tag"));
    QAction* next = tags->addAction(tr("&Next speaker"), this, [this] { m_synthesis->insertSpeakerTag(-1); });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    tags->addSeparator();
    for (int n = 0; n < SynthesisPanel::kSpeakerTagsInMenu; ++n)
        tags->addAction(tr("Speaker &%1").arg(n), this, [this, n] { m_synthesis->insertSpeakerTag(n); });

    auto* speech = menuBar()->addMenu(tr("&Speech"));
    m_generateAction = speech->addAction(tr("&Generate"), this, &MainWindow::generate);
    m_generateAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_stopAction = speech->addAction(tr("&Stop"), &m_engine, &EngineController::cancel);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    QAction* missing = speech->addAction(tr("Generate &missing segments"), this,
                                         [this] { m_studio->generateSegments(m_studio->project().segmentsNeedingAudio()); });
    missing->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    QAction* regenerate = speech->addAction(tr("&Re-generate segment"), this, [this] {
        if (m_projectView->currentRow() >= 0)
            m_studio->generateSegments({m_projectView->currentRow()});
    });
    regenerate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction* cancelAll = speech->addAction(tr("&Cancel the whole queue"), &m_studio->queue(), &SynthesisQueue::cancelAll);
    cancelAll->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
    speech->addSeparator();
    m_playAction = speech->addAction(tr("&Play / pause"), &m_playback, &PlaybackController::togglePlay);
    m_playAction->setShortcut(QKeySequence(Qt::Key_Space));

    auto* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction* a = view->addAction(m_tabs->tabText(i), this, [this, i] { m_tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + i)));
    }
    // The docks, each a checkable entry: a closed one comes back from here (issue #47).
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Reef"), this, &MainWindow::showAbout);

    // Space is play/pause, except where Space has its own job: typing, pressing the focused button,
    // ticking a check box, opening a combo box, selecting in a list. There the widget keeps the key.
    qApp->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (filterFileDrop(watched, event))
        return true;
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        auto* w = qobject_cast<QWidget*>(watched);
        if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier && w && w->window() == this &&
            (qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QLineEdit*>(w) ||
             qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QPlainTextEdit*>(w) || qobject_cast<QTextEdit*>(w) ||
             qobject_cast<QAbstractItemView*>(w))) {
            event->accept();   // the widget gets the key press, the shortcut does not fire
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showShortcuts() {
    ShortcutsDialog dialog(*menuBar(), this);
    dialog.exec();
}

}  // namespace reef::ui
