// Files brought to the main window: text files opened or dropped (into the editor) and audio clips
// dropped on it (into the voice library, then encoded).
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

#include "qt/epub_import.h"
#include "qt/project.h"
#include "qt/studio_controller.h"
#include "qt/text_import.h"
#include "qt/voice_list_model.h"
#include "widgets/main_window.h"
#include "widgets/production_dialog.h"
#include "widgets/project_view.h"
#include "widgets/synthesis_panel.h"

namespace reef::ui {
namespace {

bool isAudioFileName(const QString& path) {
    static const QStringList suffixes = {QStringLiteral("wav"), QStringLiteral("flac"), QStringLiteral("ogg"),
                                         QStringLiteral("oga"), QStringLiteral("opus"), QStringLiteral("mp3"),
                                         QStringLiteral("aif"), QStringLiteral("aiff")};
    return suffixes.contains(QFileInfo(path).suffix().toLower());
}

// The first local file of a drag that Reef can take (text or audio), empty if none.
QString droppableFile(const QMimeData* mime) {
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (!path.isEmpty() && (isTextFileName(path) || isAudioFileName(path) || isEpubFileName(path)))
            return path;
    }
    return {};
}

}  // namespace

bool MainWindow::openTextFile(const QString& path, QString* error) {
    QString why;
    const std::optional<QString> text = readTextFile(path, &why);
    if (!text) {
        statusBar()->showMessage(why, 10000);
        if (error)
            *error = why;
        return false;
    }
    m_synthesis->textEdit()->setPlainText(*text);
    m_tabs->setCurrentIndex(0);
    statusBar()->showMessage(tr("Opened %1 (%n character(s))", nullptr, int(text->size())).arg(path), 5000);
    return true;
}

void MainWindow::openTextFileInteractive() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a text file"), {},
                                                      tr("Text (*.txt *.md *.markdown *.text);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openTextFile(path, &error))
        QMessageBox::warning(this, tr("Cannot open the text"), error);
}

bool MainWindow::importEpub(const QString& path, QString* error) {
    EpubBook book;
    QString why;
    if (!readEpub(path, &book, &why)) {
        statusBar()->showMessage(why, 10000);
        if (error)
            *error = why;
        return false;
    }
    m_studio->project().newProjectFromChapters(book.title, book.chapters, SplitMode::Sentences);
    m_tabs->setCurrentWidget(m_projectView);
    statusBar()->showMessage(tr("Imported %1: %n chapter(s)", nullptr, int(book.chapters.size())).arg(path), 8000);
    return true;
}

void MainWindow::importEpubInteractive() {
    if (!maybeSaveProject())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Import an EPUB book"), {}, tr("EPUB books (*.epub);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !importEpub(path, &error))
        QMessageBox::warning(this, tr("Cannot import the book"), error);
}

void MainWindow::showProduction() {
    ProductionDialog dialog(m_studio->project(), m_voices, this);
    connect(&dialog, &ProductionDialog::playRequested, this,
            [this](const std::vector<float>& samples) { m_studio->playClip(samples); });
    dialog.exec();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppableFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = droppableFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    if (isTextFileName(path)) {
        QString error;
        openTextFile(path, &error);   // a bad file says why in the status bar
    } else if (isEpubFileName(path)) {
        QString error;
        if (maybeSaveProject())
            importEpub(path, &error);
    } else {
        addDroppedClip(path);
    }
}

bool MainWindow::filterFileDrop(QObject* watched, QEvent* event) {
    // The text editor would take a dropped file as text (its path); files go to the window instead.
    const QEvent::Type t = event->type();
    if ((t != QEvent::DragEnter && t != QEvent::DragMove && t != QEvent::Drop) ||
        watched != m_synthesis->textEdit()->viewport())
        return false;
    auto* drop = static_cast<QDropEvent*>(event);   // QDragEnterEvent and QDragMoveEvent are QDropEvents
    if (droppableFile(drop->mimeData()).isEmpty())
        return false;
    if (t == QEvent::Drop)
        dropEvent(drop);
    else
        drop->acceptProposedAction();
    return true;
}

void MainWindow::addDroppedClip(const QString& path) {
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New voice from %1").arg(QFileInfo(path).fileName()),
                                               tr("Voice name:"), QLineEdit::Normal, QFileInfo(path).completeBaseName(), &ok);
    if (!ok)
        return;
    const QString transcript = QInputDialog::getMultiLineText(this, tr("Transcript"), tr("What is said in the clip:"), {}, &ok);
    if (!ok)
        return;
    QString error;
    const QString id = m_voices.addVoice(name, path, transcript, &error);
    if (id.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot add the voice"), error);
        return;
    }
    statusBar()->showMessage(tr("Added the voice \"%1\"; pick it under Voice to speak with it.").arg(name), 8000);
    m_studio->encodeVoice(id);
}

}  // namespace reef::ui
