#include "widgets/perf_chart_widget.h"

#include <QHBoxLayout>
#include <QTimer>
#include <QtCharts>
#include <algorithm>

#include "qt/perf_history_model.h"

namespace reef::ui {

PerfChartWidget::PerfChartWidget(PerfHistoryModel& model, QWidget* parent) : QWidget(parent), m_model(model) {
    auto* perf = new QChart;
    perf->setTitle(tr("Decode speed and memory"));
    m_fps = new QLineSeries;
    m_fps->setName(tr("frames/s"));
    m_itemFps = new QLineSeries;
    m_itemFps->setName(tr("frames/s per item"));
    m_memory = new QLineSeries;
    m_memory->setName(tr("memory (MiB)"));
    perf->addSeries(m_fps);
    perf->addSeries(m_itemFps);
    perf->addSeries(m_memory);
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("s"));
    m_fpsAxis = new QValueAxis;
    m_fpsAxis->setTitleText(tr("frames/s"));
    m_memAxis = new QValueAxis;
    m_memAxis->setTitleText(tr("MiB"));
    perf->addAxis(m_timeAxis, Qt::AlignBottom);
    perf->addAxis(m_fpsAxis, Qt::AlignLeft);
    perf->addAxis(m_memAxis, Qt::AlignRight);
    m_fps->attachAxis(m_timeAxis);
    m_fps->attachAxis(m_fpsAxis);
    m_itemFps->attachAxis(m_timeAxis);
    m_itemFps->attachAxis(m_fpsAxis);
    m_itemFps->setVisible(false);
    m_memory->attachAxis(m_timeAxis);
    m_memory->attachAxis(m_memAxis);

    auto* backends = new QChart;
    backends->setTitle(tr("Attention backend per call site"));
    m_backendTime = new QValueAxis;
    m_backendTime->setTitleVisible(false);   // the same seconds as the chart beside it; room for the labels
    m_backendAxis = new QCategoryAxis;
    m_backendAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int b = int(SdpaBackend::Unknown); b <= int(kLastSdpaBackend); ++b)
        m_backendAxis->append(QString::fromLatin1(to_string(SdpaBackend(b))), b);
    m_backendAxis->setRange(-0.5, int(kLastSdpaBackend) + 0.5);
    m_backendAxis->setTruncateLabels(false);
    QFont axisFont = m_backendAxis->labelsFont();   // small enough that every backend name fits
    axisFont.setPointSizeF(axisFont.pointSizeF() * 0.75);
    m_backendAxis->setLabelsFont(axisFont);
    backends->addAxis(m_backendTime, Qt::AlignBottom);
    backends->addAxis(m_backendAxis, Qt::AlignLeft);
    for (int c = 0; c < kNumCallSites; ++c) {
        m_backend[c] = new QLineSeries;
        m_backend[c]->setName(QString::fromLatin1(to_string(CallSite(c))));
        backends->addSeries(m_backend[c]);
        // Four sites often run the same backend: each its own dash pattern (and a row offset
        // below), so lines on one backend stay apart and tell which site is which (issue #47).
        static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        QPen pen = m_backend[c]->pen();
        pen.setWidthF(2.0);
        pen.setStyle(kStyles[c % 4]);
        m_backend[c]->setPen(pen);
        m_backend[c]->attachAxis(m_backendTime);
        m_backend[c]->attachAxis(m_backendAxis);
    }

    // The same facts as text: a chart alone is hard to read for which backend ran where.
    m_backendText = new QLabel(tr("attention: no run yet"));
    m_backendText->setObjectName(QStringLiteral("backendSummary"));
    m_backendText->setWordWrap(true);
    auto* right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(makeView(backends), 1);
    right->addWidget(m_backendText);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(makeView(perf), 3);
    l->addLayout(right, 2);

    connect(&model, &QAbstractItemModel::rowsInserted, this, &PerfChartWidget::scheduleRebuild);
    connect(&model, &QAbstractItemModel::rowsRemoved, this, &PerfChartWidget::scheduleRebuild);
    connect(&model, &QAbstractItemModel::modelReset, this, &PerfChartWidget::scheduleRebuild);
    rebuild();
}

QChartView* PerfChartWidget::makeView(QChart* chart) {
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    chart->legend()->setFont(small);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setAccessibleName(chart->title().isEmpty() ? tr("Frames per second and memory over time") : chart->title());
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    return view;
}

QString PerfChartWidget::backendText() const { return m_backendText->text(); }

int PerfChartWidget::backendPointCount() const {
    int n = 0;
    for (const QLineSeries* s : m_backend)
        n += int(s->count());
    return n;
}

int PerfChartWidget::pointCount() const { return int(m_fps->count()); }

int PerfChartWidget::itemPointCount() const { return m_itemFps->isVisible() ? int(m_itemFps->count()) : 0; }

double PerfChartWidget::lastFramesPerS() const { return m_fps->count() ? m_fps->at(m_fps->count() - 1).y() : 0.0; }

void PerfChartWidget::scheduleRebuild() {
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, &PerfChartWidget::rebuild);
}

void PerfChartWidget::rebuild() {
    m_pending = false;
    const int n = m_model.rowCount();
    QList<QPointF> fps, itemFps, mem, backend[kNumCallSites];
    const bool batch = m_model.isBatch();
    double maxFps = 1, maxMem = 1, t0 = 0, t1 = 1;
    for (int r = 0; r < n; ++r) {
        const PerfSample& s = m_model.sample(r);
        const double t = s.t_ms / 1000.0;
        if (r == 0)
            t0 = t;
        t1 = t;
        // The run's first sample measures a window of about one frame right after prefill, and reads
        // far too high (10x-1000x); plotting it would squash the rest of the run onto the axis.
        if (r > 0 || n < 3) {
            fps.append({t, s.frames_per_s});
            maxFps = std::max(maxFps, s.frames_per_s);
            if (batch)
                itemFps.append({t, m_model.itemFramesPerS(r)});
        }
        mem.append({t, m_model.memoryMiB(r)});
        maxMem = std::max(maxMem, m_model.memoryMiB(r));
        for (int c = 0; c < kNumCallSites; ++c)
            backend[c].append({t, double(int(s.backend[c])) + 0.1 * (c - 1.5)});   // offset so lines stay apart
    }
    m_fps->replace(fps);
    m_fps->setName(batch ? tr("frames/s, all items") : tr("frames/s"));
    m_itemFps->replace(itemFps);
    m_itemFps->setVisible(batch);
    m_memory->replace(mem);
    for (int c = 0; c < kNumCallSites; ++c)
        m_backend[c]->replace(backend[c]);
    const double hi = std::max(t1, t0 + 1.0);
    m_timeAxis->setRange(t0, hi);
    m_backendTime->setRange(t0, hi);
    m_fpsAxis->setRange(0, maxFps * 1.15);
    QStringList sites;
    if (n > 0)
        for (int c = 0; c < kNumCallSites; ++c)
            sites << QStringLiteral("%1 %2").arg(QLatin1String(to_string(CallSite(c))),
                                                 QLatin1String(to_string(m_model.sample(n - 1).backend[c])));
    // A server's samples carry frames and speed but no attention backend: say so, not "unknown" four times.
    bool anyKnown = false;
    if (n > 0)
        for (int c = 0; c < kNumCallSites; ++c)
            anyKnown = anyKnown || m_model.sample(n - 1).backend[c] != SdpaBackend::Unknown;
    QString text = sites.isEmpty() ? tr("attention: no run yet")
                   : anyKnown      ? tr("attention: %1").arg(sites.join(QStringLiteral(", ")))
                                   : tr("attention: not reported (speech from a server)");
    // CPU decode: the thread governor's count (fewer while other programs crowd the cores)
    if (n > 0 && m_model.sample(n - 1).threads > 0) {
        const PerfSample& last = m_model.sample(n - 1);
        text += tr(" · decode threads: %1 of %2").arg(last.threads).arg(last.max_threads);
    }
    m_backendText->setText(text);
    m_memAxis->setRange(0, maxMem * 1.15);
}

}  // namespace reef::ui
