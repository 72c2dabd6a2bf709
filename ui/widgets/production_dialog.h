// Project → Production: what turns a project's takes into a finished audiobook or dub. The cast
// (each speaker's voice), the pauses after a sentence, a clause, a paragraph and before a chapter,
// the pace, and the loudness target with its true-peak ceiling; a measurement of the assembled
// result; and the export as one file with chapter marks, per chapter, with SRT/WebVTT subtitles.
// OK keeps the settings in the project (saved with it); Export uses them at once.
#pragma once
#include <QDialog>
#include <QMap>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace reef::ui {

class ProjectModel;
class VoiceListModel;
struct AssemblySettings;
struct ProjectData;

class ProductionDialog : public QDialog {
    Q_OBJECT
public:
    ProductionDialog(ProjectModel& project, VoiceListModel& voices, QWidget* parent = nullptr);

    // What the controls say now (not yet applied to the project).
    AssemblySettings settings() const;
    QMap<QString, QString> castChoices() const;   // speaker -> voice id ("" = the project default)
    void apply();                                 // into the project (what OK does)

    // Assembles with the controls' settings and shows duration, loudness and true peak.
    void measure();
    QString measureText() const;
    // Exports into dir with the controls' settings (no folder dialog); false with *error.
    bool exportTo(const QString& dir, QStringList* files, QString* error);
    // The assembly with the controls' settings, as it would be exported (empty: no audio yet).
    std::vector<float> assembled() const;

Q_SIGNALS:
    // "Play": the book as the controls would make it; the main window plays it.
    void playRequested(const std::vector<float>& samples);

private:
    void choosePreset(int index);
    void rebuildCast();   // one row per speaker, for the name-line choice shown
    ProjectData draft() const;   // the project with the controls' assembly settings
    void exportInteractive();

    ProjectModel& m_project;
    VoiceListModel& m_voices;
    QMap<QString, QComboBox*> m_cast;
    QFormLayout* m_castForm = nullptr;
    QCheckBox* m_nameLines = nullptr;
    QCheckBox* m_jointSpeakers = nullptr;
    QSpinBox* m_sentence = nullptr;
    QSpinBox* m_clause = nullptr;
    QSpinBox* m_paragraph = nullptr;
    QSpinBox* m_chapter = nullptr;
    QDoubleSpinBox* m_speed = nullptr;
    QCheckBox* m_trim = nullptr;
    QCheckBox* m_normalize = nullptr;
    QComboBox* m_preset = nullptr;
    QDoubleSpinBox* m_target = nullptr;
    QDoubleSpinBox* m_ceiling = nullptr;
    QLabel* m_measured = nullptr;
    QComboBox* m_format = nullptr;
    QCheckBox* m_perChapter = nullptr;
    QCheckBox* m_srt = nullptr;
    QCheckBox* m_vtt = nullptr;
};

}  // namespace reef::ui
