// The Project tab: a long text as a list of segments, each editable, with its own voice and takes.
// Empty, it offers to split a text into segments; with segments, the list on the left shows each
// one's state (no audio, edited since its take, ready) and the editor on the right works on the
// selected one. Generating, playing and exporting are requests to the main window, which owns the
// queue, the player and the export dialogs.
#pragma once
#include <QHash>
#include <QList>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace reef::ui {

class ProjectModel;
class VoiceListModel;

class ProjectView : public QWidget {
    Q_OBJECT
public:
    ProjectView(ProjectModel& project, VoiceListModel& voices, QWidget* parent = nullptr);

    int currentRow() const;
    void selectRow(int row);
    int crossfadeMs() const;
    // Splits text into a new project (the same as the empty page's button).
    void startFromText(const QString& text);

    QListView* segmentList() const { return m_list; }
    QPlainTextEdit* segmentEditor() const { return m_editor; }
    QPlainTextEdit* sourceEditor() const { return m_source; }
    QPushButton* splitButton() const { return m_split; }
    QPushButton* generateAllButton() const { return m_generateAll; }
    QPushButton* regenerateButton() const { return m_regenerate; }
    QPushButton* exportButton() const { return m_export; }
    QComboBox* takeCombo() const { return m_takes; }
    QPushButton* pinButton() const { return m_pin; }
    QPushButton* productionButton() const { return m_production; }
    QPushButton* redecodeButton() const { return m_redecode; }
    QLineEdit* chapterEdit() const { return m_chapter; }
    QDoubleSpinBox* speedSpin() const { return m_speed; }
    QPushButton* unpinButton() const { return m_unpin; }
    QString segmentSettingsText() const;
    QString summaryText() const;

Q_SIGNALS:
    void generateRequested(const QList<int>& rows);   // segments to (re-)generate, in order
    void playSegmentRequested(int row);
    void playProjectRequested();
    void exportProjectRequested();
    void exportSegmentsRequested();
    void pinSettingsRequested(int row);   // give the segment the app's current sampling settings
    void productionRequested();           // cast, pauses, pace, loudness, the book's export
    void redecodeRequested(const QList<int>& rows);   // the current takes' codes decoded again

private:
    QWidget* createEmptyPage();
    QWidget* createSegmentsPage();
    QWidget* createSegmentEditor();
    void refresh();             // page, summary, buttons
    void loadSegment();         // the selected segment into the editor
    void reloadVoices();
    void reloadTakes();
    void showSegmentSettings();

    ProjectModel& m_project;
    VoiceListModel& m_voices;
    bool m_loading = false;     // filling the editor: its signals are not edits
    QStackedWidget* m_pages = nullptr;
    QPlainTextEdit* m_source = nullptr;
    QComboBox* m_splitMode = nullptr;
    QPushButton* m_split = nullptr;
    QLineEdit* m_title = nullptr;
    QListView* m_list = nullptr;
    QLabel* m_summary = nullptr;
    QPlainTextEdit* m_editor = nullptr;
    QComboBox* m_voice = nullptr;
    QComboBox* m_takes = nullptr;
    QLabel* m_segmentSettings = nullptr;
    QPushButton* m_pin = nullptr;
    QPushButton* m_unpin = nullptr;
    QPushButton* m_regenerate = nullptr;
    QPushButton* m_generateAll = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_production = nullptr;
    QPushButton* m_redecode = nullptr;
    QLineEdit* m_chapter = nullptr;
    QDoubleSpinBox* m_speed = nullptr;
    QList<QPushButton*> m_needsSegment;   // enabled only with a segment selected
    QSpinBox* m_crossfade = nullptr;
    QHash<QString, double> m_takeLufs;   // take id -> integrated loudness (LUFS)
};

}  // namespace reef::ui
