#include "widgets/compare_view.h"
#include "widgets/table_fit.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtCharts>

#include "qt/batch_table_model.h"
#include "qt/bench_table_model.h"
#include "qt/engine_controller.h"
#include "qt/file_export.h"
#include "qt/playback_controller.h"
#include "qt/settings.h"

namespace reef::ui {
namespace {

template <class E>
std::vector<QCheckBox*> addChecks(QLayout* layout, std::initializer_list<E> values, E checked) {
    std::vector<QCheckBox*> boxes;
    for (E v : values) {
        auto* c = new QCheckBox(QString::fromLatin1(to_string(v)));
        c->setProperty("enumValue", int(v));
        c->setProperty("engineName", QString::fromLatin1(to_string(v)));
        c->setChecked(v == checked);
        layout->addWidget(c);
        boxes.push_back(c);
    }
    return boxes;
}

template <class E>
std::vector<E> checkedValues(const std::vector<QCheckBox*>& boxes) {
    std::vector<E> out;
    for (QCheckBox* c : boxes)
        if (c->isChecked())
            out.push_back(E(c->property("enumValue").toInt()));
    return out;
}

// One horizontal bar chart of a single metric, one bar per arm.
void fillBarChart(QChart* chart, const QString& title, const BenchReport& report, double ArmResult::*field) {
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes())
        chart->removeAxis(a);
    chart->setTitle(title);
    auto* set = new QBarSet(title);
    QStringList names;
    double maxV = 1;
    for (const ArmResult& a : report.arms) {
        names << QString::fromStdString(a.arm.name());
        *set << (a.ran ? a.*field : 0.0);
        maxV = std::max(maxV, a.*field);
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    // Three significant digits: this VM's runs differ by ±15 %, so "460.792" claims what no
    // measurement here supports; "461" and "18.8" do not.
    series->setLabelsPrecision(3);
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(names);
    auto* values = new QValueAxis;
    values->setRange(0, maxV * 1.2);
    values->applyNiceNumbers();  // ticks on 1, 2 or 5 times a power of ten, not on odd values
    values->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(cats, Qt::AlignLeft);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(cats);
    series->attachAxis(values);
    chart->legend()->hide();
}

// Unchecks and disables the boxes caps marks unavailable, the reason as tooltip; an available
// option's note (e.g. aot-inductor's first-use compile) becomes its tooltip.
void applyCapabilities(const std::vector<QCheckBox*>& boxes, const std::map<std::string, Capability>& caps) {
    for (QCheckBox* c : boxes) {
        const auto it = caps.find(c->property("engineName").toString().toStdString());
        const bool available = it == caps.end() || it->second.available;
        if (!available)
            c->setChecked(false);
        c->setEnabled(available);
        c->setToolTip(it == caps.end() ? QString() : QString::fromStdString(it->second.reason));
    }
}

}  // namespace

CompareView::CompareView(EngineController& engine, Settings& settings, PlaybackController& playback, QWidget* parent)
    : QWidget(parent), m_engine(engine), m_settings(settings), m_playback(playback) {
    m_model = new BenchTableModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);   // one line per arm; a narrowed cell's tooltip has its whole text
    keepColumnsInView(m_table);
    m_status = new QLabel(tr("Pick arms and press Run: every arm decodes the same prompt with the same seed."));
    m_status->setWordWrap(true);

    m_batchModel = new BatchTableModel(this);
    m_batchTable = new QTableView;
    m_batchTable->setObjectName(QStringLiteral("batchTable"));
    m_batchTable->setModel(m_batchModel);
    m_batchTable->verticalHeader()->hide();
    keepColumnsInView(m_batchTable);
    m_batchTable->setAccessibleName(tr("Batched decode throughput"));
    m_batchTable->hide();   // until a report has batch points

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_batchTable);
    split->addWidget(createCharts());
    auto* v = new QVBoxLayout(this);
    v->addWidget(createArmPicker());
    v->addWidget(m_status);
    v->addWidget(split, 1);

    connect(&engine, &EngineController::benchFinished, this, &CompareView::showReport);
    connect(&engine, &EngineController::benchFailed, this, [this](const QString& reason) {
        m_status->setText(tr("Bench failed: %1").arg(reason));
        updateButtons();
    });
    connect(&engine, &EngineController::benchProgress, this, [this](int arm, const QString& msg) {
        m_status->setText(tr("Arm %1: %2").arg(arm + 1).arg(msg));
    });
    connect(&engine, &EngineController::stateChanged, this, &CompareView::updateButtons);
    connect(&engine, &EngineController::capsChanged, this, &CompareView::setDeviceCaps);
    setDeviceCaps(engine.deviceCaps());
    updateButtons();
}

void CompareView::setDeviceCaps(const DeviceCaps& caps) {
    applyCapabilities(m_compile, caps.compile_modes);
    applyCapabilities(m_sdpa, caps.sdpa_policies);
    updateButtons();
}

QWidget* CompareView::createArmPicker() {
    auto* box = new QGroupBox(tr("Arms: every checked combination runs"));
    auto* h = new QHBoxLayout(box);
    auto group = [&](const QString& title) {
        auto* g = new QGroupBox(title);
        auto* l = new QVBoxLayout(g);
        h->addWidget(g);
        return l;
    };
    m_compile = addChecks(group(tr("Compile mode")), {CompileMode::Eager, CompileMode::CudaGraph, CompileMode::AotInductor},
                          CompileMode::Eager);
    auto* sdpaLayout = group(tr("SDPA policy"));
    m_sdpa = addChecks(sdpaLayout, {SdpaPolicy::Auto, SdpaPolicy::Math, SdpaPolicy::Flash, SdpaPolicy::Efficient,
                                    SdpaPolicy::Cudnn, SdpaPolicy::FishSpeech, SdpaPolicy::Reef}, SdpaPolicy::Auto);
    m_sdpa[1]->setChecked(true);   // math: the portable reference next to auto
    m_kv = addChecks(group(tr("KV cache")), {KvMode::ActivePrefix, KvMode::Full}, KvMode::ActivePrefix);

    auto* run = new QVBoxLayout;
    m_frames = new QSpinBox;
    m_frames->setRange(8, 4096);
    m_frames->setValue(64);
    m_frames->setPrefix(tr("frames "));
    m_repeats = new QSpinBox;
    m_repeats->setRange(1, 20);
    m_repeats->setValue(3);
    m_repeats->setPrefix(tr("repeats "));
    m_contexts = new QLineEdit;
    m_contexts->setObjectName(QStringLiteral("benchContexts"));
    m_contexts->setPlaceholderText(tr("context sweep, e.g. 128,512,2048"));
    m_contexts->setToolTip(tr("Prompt lengths in tokens. For each, every arm decodes after a real prompt of about that "
                              "length; the chart on the right draws frames/s against it. Empty = no sweep."));
    m_contexts->setAccessibleName(tr("Context sweep lengths"));
    m_batches = new QLineEdit;
    m_batches->setObjectName(QStringLiteral("benchBatches"));
    m_batches->setPlaceholderText(tr("batch sizes, e.g. 1,4,8"));
    m_batches->setToolTip(tr("Sequences decoding together. For each size, the reference arm decodes that many copies "
                             "of the prompt in one batch; the table below shows frames/s of all of them and of each. "
                             "Empty = no batch points."));
    m_batches->setAccessibleName(tr("Batch sizes"));
    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName(QStringLiteral("benchRunButton"));
    m_stop = new QPushButton(tr("Stop"));
    m_export = new QPushButton(tr("Export report…"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_frames, m_repeats, m_contexts, m_batches, m_run, m_stop, m_export})
        run->addWidget(w);
    run->addStretch(1);
    h->addLayout(run);
    connect(m_run, &QPushButton::clicked, this, &CompareView::run);
    connect(m_stop, &QPushButton::clicked, &m_engine, &EngineController::cancel);
    connect(m_export, &QPushButton::clicked, this, &CompareView::exportInteractive);
    return box;
}

QWidget* CompareView::createCharts() {
    m_charts = new QWidget;
    auto* h = new QHBoxLayout(m_charts);
    h->setContentsMargins(0, 0, 0, 0);
    m_fpsChart = new QChart;
    m_latencyChart = new QChart;
    m_sweepChart = new QChart;
    for (QChart* c : {m_fpsChart, m_latencyChart, m_sweepChart}) {
        auto* view = new QChartView(c);
        view->setObjectName(QStringLiteral("compareChart"));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(200);
        h->addWidget(view);
    }
    m_fpsChart->setTitle(tr("warm frames/s (higher is better)"));
    m_latencyChart->setTitle(tr("time to first audio, ms (lower is better)"));
    m_sweepChart->setTitle(tr("context sweep: set lengths and run"));
    const QList<QChartView*> views = m_charts->findChildren<QChartView*>(QStringLiteral("compareChart"));
    for (QChartView* v : views)
        v->setAccessibleName(v->chart()->title());
    return m_charts;
}

std::vector<BenchArm> CompareView::selectedArms() const {
    std::vector<BenchArm> arms;
    for (CompileMode c : checkedValues<CompileMode>(m_compile))
        for (SdpaPolicy s : checkedValues<SdpaPolicy>(m_sdpa))
            for (KvMode k : checkedValues<KvMode>(m_kv)) {
                BenchArm arm;
                arm.compile_mode = c;
                arm.sdpa_policy = s;
                arm.kv_mode = k;
                arms.push_back(arm);
            }
    return arms;
}

BenchRequest CompareView::makeRequest() const {
    const EngineConfig c = m_settings.engineConfig();
    BenchRequest r;
    r.model_dir = c.model_dir;
    r.device = c.device;
    r.precision = c.precision;
    r.cpu_threads = c.cpu_threads;
    r.arms = selectedArms();
    r.seed = m_settings.sampling().seed;
    r.frames = m_frames->value();
    r.repeats = m_repeats->value();
    if (!m_contexts->text().trimmed().isEmpty())
        if (auto c = parse_context_list(m_contexts->text().toStdString()))
            r.contexts = *c;
    if (!m_batches->text().trimmed().isEmpty())
        if (auto b = parse_batch_list(m_batches->text().toStdString()))
            r.batch_sizes = *b;
    return r;
}

void CompareView::run() {
    const BenchRequest r = makeRequest();
    if (r.arms.empty()) {
        m_status->setText(tr("Check at least one compile mode, one SDPA policy and one KV mode."));
        return;
    }
    if (!m_contexts->text().trimmed().isEmpty())
        if (auto c = parse_context_list(m_contexts->text().toStdString()); !c) {
            m_status->setText(QString::fromStdString(c.error().message));
            return;
        }
    if (!m_batches->text().trimmed().isEmpty())
        if (auto b = parse_batch_list(m_batches->text().toStdString()); !b) {
            m_status->setText(QString::fromStdString(b.error().message));
            return;
        }
    m_status->setText(tr("Running %n arm(s)…", nullptr, int(r.arms.size())));
    m_engine.runBench(r);
    updateButtons();
}

void CompareView::updateButtons() {
    const EngineState s = m_engine.state();
    const bool busy = s == EngineState::Benchmarking || (s == EngineState::Stopping && !m_engine.currentSynthesisId());
    const bool idle = s == EngineState::Ready || s == EngineState::NoModel;
    m_run->setEnabled(idle);
    m_stop->setEnabled(busy);
    m_export->setEnabled(m_model->hasReport());
}

void CompareView::showReport(const reef::BenchReport& report) {
    m_model->setReport(report);
    m_batchModel->setPoints(report.batch);
    m_batchTable->setVisible(!report.batch.empty());
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ArmResult& arm = report.arms[size_t(row)];
        if (arm.audio.empty())
            continue;
        auto* play = new QPushButton(tr("▶ play"));
        connect(play, &QPushButton::clicked, this, [this, audio = arm.audio] {
            m_playback.setClip(audio);
            m_playback.play();
        });
        m_table->setIndexWidget(m_model->index(row, BenchTableModel::Play), play);
    }
    rebuildCharts();
    m_status->setText(tr("%1 arm(s) on %2 · %3 · libtorch %4 · reference: %5")
                          .arg(report.arms.size())
                          .arg(QString::fromStdString(report.device_name), QString::fromStdString(report.model_name),
                               QString::fromStdString(report.libtorch_version),
                               report.arms.empty() ? QString()
                                                   : QString::fromStdString(report.arms[size_t(std::clamp(
                                                         report.request.reference_arm, 0, int(report.arms.size()) - 1))].arm.name())) +
                      cpuKernelsNote(report));
    updateButtons();
}

// " · CPU kernels avx2" (the target the first arm that used them ran), or nothing where none ran
QString CompareView::cpuKernelsNote(const BenchReport& report) {
    for (const ArmResult& a : report.arms)
        if (!a.cpu_kernels.empty()) return QStringLiteral(" · CPU kernels %1").arg(QString::fromStdString(a.cpu_kernels));
    return {};
}

void CompareView::rebuildCharts() {
    const BenchReport& r = m_model->report();
    fillBarChart(m_fpsChart, tr("warm frames/s (higher is better)"), r, &ArmResult::warm_frames_per_s);
    fillBarChart(m_latencyChart, tr("time to first audio, ms (lower is better)"), r, &ArmResult::time_to_first_audio_ms);
    rebuildSweepChart();
}

void CompareView::rebuildSweepChart() {
    m_sweepChart->removeAllSeries();
    for (QAbstractAxis* a : m_sweepChart->axes())
        m_sweepChart->removeAxis(a);
    const BenchReport& r = m_model->report();
    if (r.sweep.empty()) {
        m_sweepChart->setTitle(tr("context sweep: set lengths and run"));
        return;
    }
    m_sweepChart->setTitle(tr("warm frames/s against prompt tokens"));
    // Prompt lengths span decades (128 … 32768): a log-scaled x keeps the short ones readable.
    auto* x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTitleText(tr("prompt tokens"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("frames/s"));
    m_sweepChart->addAxis(x, Qt::AlignBottom);
    m_sweepChart->addAxis(y, Qt::AlignLeft);
    double lo = 1e18, hi = 1, top = 1;
    for (const auto& [name, points] : sweepLines()) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPointsVisible(true);
        for (const QPointF& p : points) {
            line->append(p);
            lo = std::min(lo, p.x());
            hi = std::max(hi, p.x());
            top = std::max(top, p.y());
        }
        m_sweepChart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    x->setRange(std::max(1.0, lo / 1.5), hi * 1.5);
    y->setRange(0, top * 1.15);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%g"));
    m_sweepChart->legend()->setVisible(true);
    m_sweepChart->legend()->setAlignment(Qt::AlignBottom);
}

std::vector<std::pair<QString, std::vector<QPointF>>> CompareView::sweepLines() const {
    const BenchReport& r = m_model->report();
    std::vector<std::pair<QString, std::vector<QPointF>>> lines;
    for (size_t arm = 0; arm < r.arms.size(); ++arm) {
        std::vector<QPointF> points;
        for (const SweepPoint& p : r.sweep)
            if (p.arm == int(arm) && p.ran)
                points.emplace_back(p.prompt_tokens, p.warm_frames_per_s);
        if (!points.empty())
            lines.emplace_back(QString::fromStdString(r.arms[arm].arm.name()), std::move(points));
    }
    return lines;
}

int CompareView::barCount() const {
    const auto series = m_fpsChart->series();
    if (series.isEmpty())
        return 0;
    auto* bars = qobject_cast<QAbstractBarSeries*>(series.first());
    return bars && !bars->barSets().isEmpty() ? int(bars->barSets().first()->count()) : 0;
}

QString CompareView::statusText() const { return m_status->text(); }

bool CompareView::exportChartsPng(const QString& path) { return m_charts->grab().save(path, "PNG"); }

QStringList CompareView::exportAll(const QString& basePath) {
    QStringList errors;
    const BenchReport& r = m_model->report();
    const std::pair<const char*, ReportFormat> formats[] = {
        {".json", ReportFormat::Json}, {".md", ReportFormat::Markdown}, {".csv", ReportFormat::Csv}};
    for (const auto& [suffix, format] : formats) {
        QString error;
        if (!exportBenchReport(r, basePath + QLatin1String(suffix), format, &error))
            errors << error;
    }
    if (!exportChartsPng(basePath + QStringLiteral(".png")))
        errors << tr("cannot write %1.png").arg(basePath);
    QString error;
    if (!exportPrReport(r, basePath + QStringLiteral("-pr.md"), &error))
        errors << error;
    return errors;
}

void CompareView::exportInteractive() {
    const QString prFilter = tr("Report for fish-speech PR #1337, with WAVs (*.md)");
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export bench report"), QStringLiteral("reef-bench.md"),
        tr("Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG charts (*.png)") + QStringLiteral(";;") + prFilter, &filter);
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = filter == prFilter ? exportPrReport(m_model->report(), path, &error)
                    : path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)
                        ? exportChartsPng(path) || (error = tr("cannot write %1").arg(path), false)
                        : exportBenchReportBySuffix(m_model->report(), path, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        m_status->setText(tr("Report written to %1").arg(path));
}

}  // namespace reef::ui
