// Takes history: every finished synthesis with its text, settings, stats and audio, newest first.
#pragma once
#include <QAbstractTableModel>
#include <QDateTime>
#include <deque>

#include "reef/engine_types.h"

namespace reef::ui {

struct Take {
    int number = 0;
    QDateTime created;
    QString text;
    QString voice;            // voice name, empty = default voice
    QString modelName;
    EngineConfig config;
    SamplingParams sampling;
    RunMetrics metrics;
    std::vector<float> audio;
    QString settingsSummary() const;   // "eager · auto · active · T 0.80 · top-p 0.80 · top-k 30 · seed 42"
    QString statsSummary() const;      // "64 frames · 2.97 s audio · 18.3 frames/s · RTF 0.85 · first audio 120 ms"
    QString backendSummary() const;    // "attention: slow-prefill math, slow-decode math, …" (empty if none reported)
};

// "attention: slow-prefill math, slow-decode flash, …": which SDPA backend ran at each call site.
QString attentionSummary(const std::vector<BackendUse>& uses);

class TakesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, Time, Text, Voice, Frames, AudioSeconds, FramesPerS, RealTime, StopReason, ColumnCount };
    explicit TakesModel(int maxTakes = 50, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const Take& take(int row) const { return m_takes[size_t(row)]; }
    int addTake(Take take);   // inserted at row 0; returns its number; drops the oldest beyond maxTakes
    void removeTake(int row);

private:
    int m_max;
    int m_next = 1;
    std::deque<Take> m_takes;
};

}  // namespace reef::ui
