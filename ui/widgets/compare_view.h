// The A/B Compare view: pick arms (compile mode × SDPA policy × KV mode), run them through the
// engine's bench (the same call as reef-cli bench), show the table and bar charts, play each arm's
// audio, and export the report (Markdown, CSV, JSON via the engine's writers; PNG of the charts;
// the fish-speech PR report). With a context sweep, a third chart draws frames/s against the
// prompt length, one line per arm. With batch sizes, a second table shows the batched-decode
// throughput points (aggregate and per-sequence frames/s, speed-up over batch 1).
#pragma once
#include <QPointF>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include "reef/bench.h"

class QCheckBox;
class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace reef::ui {

class BatchTableModel;
class BenchTableModel;
class EngineController;
class PlaybackController;
class Settings;

class CompareView : public QWidget {
    Q_OBJECT
public:
    CompareView(EngineController& engine, Settings& settings, PlaybackController& playback, QWidget* parent = nullptr);

    std::vector<BenchArm> selectedArms() const;
    BenchRequest makeRequest() const;
    BenchTableModel& tableModel() const { return *m_model; }
    BatchTableModel& batchModel() const { return *m_batchModel; }
    QTableView* batchTable() const { return m_batchTable; }
    QLineEdit* batchEdit() const { return m_batches; }
    QTableView* table() const { return m_table; }
    QPushButton* runButton() const { return m_run; }
    QString statusText() const;
    int barCount() const;   // bars in the frames/s chart (for tests)
    QChart* fpsChart() const { return m_fpsChart; }
    QLineEdit* contextEdit() const { return m_contexts; }
    // The arm picker's boxes, in the order of CompileMode / SdpaPolicy (for tests).
    const std::vector<QCheckBox*>& compileChecks() const { return m_compile; }
    const std::vector<QCheckBox*>& sdpaChecks() const { return m_sdpa; }
    // The sweep chart's lines: per arm, its (prompt tokens, warm frames/s) points (for tests).
    std::vector<std::pair<QString, std::vector<QPointF>>> sweepLines() const;
    // Writes base.json, base.md, base.csv, base.png and the PR report base-pr.md (with its WAVs in
    // base-pr-wavs/); returns the errors (empty = all written).
    QStringList exportAll(const QString& basePath);
    bool exportChartsPng(const QString& path);

public Q_SLOTS:
    void showReport(const reef::BenchReport& report);
    // Compile modes and SDPA policies this machine cannot run: unchecked, disabled, the reason as tooltip.
    void setDeviceCaps(const reef::DeviceCaps& caps);
    void run();

private:
    QWidget* createArmPicker();
    QWidget* createCharts();
    void rebuildCharts();
    static QString cpuKernelsNote(const reef::BenchReport& report);
    void rebuildSweepChart();
    void exportInteractive();
    void updateButtons();

    EngineController& m_engine;
    Settings& m_settings;
    PlaybackController& m_playback;
    BenchTableModel* m_model = nullptr;
    std::vector<QCheckBox*> m_compile, m_sdpa, m_kv;
    QSpinBox *m_frames = nullptr, *m_repeats = nullptr;
    QLineEdit* m_contexts = nullptr;
    QLineEdit* m_batches = nullptr;
    BatchTableModel* m_batchModel = nullptr;
    QTableView* m_batchTable = nullptr;
    QPushButton *m_run = nullptr, *m_stop = nullptr, *m_export = nullptr;
    QLabel* m_status = nullptr;
    QTableView* m_table = nullptr;
    QWidget* m_charts = nullptr;
    QChart* m_fpsChart = nullptr;
    QChart* m_latencyChart = nullptr;
    QChart* m_sweepChart = nullptr;
};

}  // namespace reef::ui
