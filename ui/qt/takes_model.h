// Takes history: every finished synthesis with its text, settings, stats and audio, newest first.
#pragma once
#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <deque>

#include "reef/engine_types.h"

namespace reef::ui {

struct Take {
    int number = 0;
    QDateTime created;
    QString text;
    QString voice;            // voice name, empty = default voice
    QString modelName;
    EngineConfig config;      // this computer's engine as it ran the take (unused for a server's take)
    QString server;           // the server that made it (its address); empty = this computer
    QString servedWith;       // the server's own account of its engine ("cpu · fp32 · eager · auto"), if it gave one
    SamplingParams sampling;
    RunMetrics metrics;
    std::vector<float> audio;
    bool isRemote() const { return !server.isEmpty(); }
    // "cpu · bf16 · eager · auto · T 0.80 · top-p 0.80 · top-k 30 · seed 42"; a server's take names
    // the server and what it said of its engine instead of this computer's settings.
    QString settingsSummary() const;
    QString statsSummary() const;      // "64 frames · 2.97 s audio · 18.3 frames/s · RTF 0.85 · first audio 120 ms"
    QString backendSummary() const;    // "attention: slow-prefill math, slow-decode math, …" (empty if none reported)
};

class Settings;
// "Re-use these settings": the take's sampling parameters (seed included) become the current ones.
// The engine configuration (model folder, device, precision, compile mode, SDPA policy) is left
// alone on purpose: it says how fast the take was made, not how it sounds, and changing it reloads
// the model or may name a device this machine does not have.
void applyTakeSettings(const Take& take, Settings& settings);

// "attention: slow-prefill math, slow-decode flash, …": which SDPA backend ran at each call site.
QString attentionSummary(const std::vector<BackendUse>& uses);

class TakesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, Time, Text, Voice, Frames, AudioSeconds, Loudness, FramesPerS, RealTime, StopReason, ColumnCount };
    // maxTakes <= 0: no count limit (TakeHistory bounds takes by bytes instead).
    explicit TakesModel(int maxTakes = 50, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const Take& take(int row) const { return m_takes[size_t(row)]; }
    int addTake(Take take);   // inserted at row 0; returns its number; drops the oldest beyond maxTakes
    void removeTake(int row);
    // Takes from an earlier session (TakeHistory), newest first: appended below the current rows
    // with their numbers kept; later takes are numbered after the highest of them and of
    // reservedUpTo (numbers of saved takes that could not be restored). Not count-limited.
    void addRestoredTakes(std::vector<Take> takes, int reservedUpTo = 0);
    void setMaxTakes(int maxTakes);   // <= 0: no limit; drops the oldest beyond a new limit
    int maxTakes() const { return m_max; }

private:
    void dropBeyondLimit(int keep);

    int m_max;
    int m_next = 1;
    std::deque<Take> m_takes;
    mutable QHash<int, double> m_lufs;   // by take number: each take's loudness, once shown
};

}  // namespace reef::ui
