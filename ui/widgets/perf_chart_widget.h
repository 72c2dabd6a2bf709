// The one chart class (Qt Charts, kept behind this class so a move to Qt Graphs stays local):
// frames/s and memory over the run, and the SDPA backend each attention call site used. A batch
// run plots its aggregate frames/s with the mean per item beside it.
// Fed only from a PerfHistoryModel; redraws at most once per event-loop pass.
#pragma once
#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QCategoryAxis;
class QLabel;

namespace reef::ui {

class PerfHistoryModel;

class PerfChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit PerfChartWidget(PerfHistoryModel& model, QWidget* parent = nullptr);
    int pointCount() const;   // points in the frames/s series
    double lastFramesPerS() const;
    int itemPointCount() const;   // points in the per-item frames/s series (batch runs only)
    int backendPointCount() const;   // points over all attention-backend series
    QString backendText() const;     // "attention: slow-prefill math, slow-decode math, …" (latest sample)
    QLineSeries* backendSeries(int site) const { return m_backend[site]; }   // one per call site

private:
    void scheduleRebuild();
    void rebuild();
    QChartView* makeView(QChart* chart);

    PerfHistoryModel& m_model;
    QLineSeries* m_fps = nullptr;
    QLineSeries* m_itemFps = nullptr;
    QLineSeries* m_memory = nullptr;
    QLineSeries* m_backend[4] = {};
    QValueAxis* m_timeAxis = nullptr;
    QValueAxis* m_fpsAxis = nullptr;
    QValueAxis* m_memAxis = nullptr;
    QValueAxis* m_backendTime = nullptr;
    QCategoryAxis* m_backendAxis = nullptr;
    QLabel* m_backendText = nullptr;
    bool m_pending = false;
};

}  // namespace reef::ui
