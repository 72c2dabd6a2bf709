// The main window's studio dialogs: asking to save, picking project files and export targets, and
// reusing a take's settings in the panel. What they do with the answers is StudioController's.
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTabWidget>

#include "qt/file_export.h"
#include "qt/project.h"
#include "qt/studio_controller.h"
#include "widgets/dictionary_dialog.h"
#include "widgets/main_window.h"
#include "widgets/project_view.h"
#include "widgets/synthesis_panel.h"

namespace reef::ui {
QString MainWindow::projectDialogDir() const {
    // The user's documents (issue #47), not the app's data folder, which holds the take history
    // and is no place to look for one's own files.
    const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !docs.isEmpty() && QDir(docs).exists() ? docs : QDir::homePath();
}

void MainWindow::reuseTakeSettings(int row) {
    const std::optional<QString> voiceId = m_studio->reuseTakeSettings(row);
    if (!voiceId)
        return;   // the take's voice is no longer in the library: the combo stays
    QComboBox* voices = m_synthesis->voiceCombo();
    voices->setCurrentIndex(voiceId->isEmpty() ? 0 : voices->findData(*voiceId));
}

void MainWindow::showDictionary() {
    DictionaryDialog dialog(m_studio->dictionary(), this);
    dialog.exec();
}

// --- the project file ---------------------------------------------------------------------------

bool MainWindow::maybeSaveProject() {
    if (!m_studio->isModified())
        return true;
    const QString name = m_studio->documentName().isEmpty() ? tr("Untitled project") : m_studio->documentName();
    const auto answer = QMessageBox::question(
        this, tr("Unsaved project"), tr("The project “%1” has changes that are not saved. Save them first?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || saveProjectInteractive(false);
}

void MainWindow::newProject() {
    if (!maybeSaveProject())
        return;
    m_studio->newProject();
    m_tabs->setCurrentWidget(m_projectView);
}

void MainWindow::openProjectInteractive() {
    if (!maybeSaveProject())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a project"), projectDialogDir(),
                                                      tr("Reef projects (*.reefproj);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (m_studio->openProject(path, &error))
        m_tabs->setCurrentWidget(m_projectView);
    else
        QMessageBox::warning(this, tr("Cannot open the project"), error);
}

bool MainWindow::saveProjectInteractive(bool saveAs) {
    QString path = m_studio->project().filePath();
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save the project"),
                                            path.isEmpty() ? QDir(projectDialogDir()).filePath(m_studio->suggestedProjectFileName())
                                                           : path,
                                            tr("Reef projects (*.reefproj)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(QLatin1String(".reefproj")))
            path += QStringLiteral(".reefproj");
    }
    QString error;
    if (m_studio->saveProject(path, &error))
        return true;
    QMessageBox::warning(this, tr("Cannot save the project"), error);
    return false;
}

void MainWindow::updateTitle() {
    const QString name = m_studio->documentName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Reef") : QStringLiteral("%1[*] — Reef").arg(name));
    setWindowModified(!name.isEmpty() && m_studio->isModified());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (maybeSaveProject())
        event->accept();
    else
        event->ignore();
}

// --- exporting ----------------------------------------------------------------------------------

std::optional<audio::ExportFormat> MainWindow::askFormat(const QString& title) {
    const QList<audio::ExportFormat> formats = availableExportFormats();
    QStringList names;
    for (audio::ExportFormat f : formats)
        names << exportFormatName(f);
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, title, tr("Format:"), names, 0, false, &ok);
    const qsizetype i = names.indexOf(choice);
    if (!ok || i < 0)
        return std::nullopt;
    return formats[i];
}

void MainWindow::exportProjectInteractive() {
    const QString base = m_studio->project().title().isEmpty() ? tr("Untitled project") : m_studio->project().title();
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the project"), QDir(projectDialogDir()).filePath(base),
                                                exportFileFilter(), &filter);
    if (path.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = exportFormatForPath(path, filter);
    if (!format) {
        QMessageBox::warning(this, tr("Export failed"), tr("Unknown audio format for %1.").arg(path));
        return;
    }
    path = withExportSuffix(path, *format);
    QString error;
    if (!m_studio->exportProjectTo(path, *format, m_projectView->crossfadeMs(), &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportSegmentsInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export each segment into a folder"), m_studio->dataDir());
    if (dir.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = askFormat(tr("Export segments"));
    QString error;
    if (format && m_studio->exportSegmentsTo(dir, *format, &error).isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportAllTakesInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export every take into a folder"), m_studio->dataDir());
    if (dir.isEmpty())
        return;
    const std::optional<audio::ExportFormat> format = askFormat(tr("Export all takes"));
    QString error;
    if (format && m_studio->exportAllTakesTo(dir, *format, &error).isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

bool MainWindow::exportTo(int takeRow, const QString& path, QString* error, const QString& selectedFilter) {
    return m_studio->exportTo(takeRow, path, error, selectedFilter, m_synthesis->text());
}

void MainWindow::exportInteractive(const std::vector<float>* audio, int takeRow) {
    if (!audio || audio->empty())
        return;
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export audio"), QStringLiteral("reef-take.wav"),
                                                exportFileFilter(), &filter);
    if (path.isEmpty())
        return;
    if (const auto format = exportFormatForPath(path, filter))
        path = withExportSuffix(path, *format);
    QString error;
    if (!exportTo(takeRow, path, &error, filter))
        QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace reef::ui
