// Takes that survive restarts: a folder with a versioned history.json index and one float WAV per
// take (lossless: the samples come back bit for bit). It mirrors a TakesModel: restores the saved
// takes into it at start, saves each take the model gains, deletes a take's file when the model
// drops it, and prunes the oldest takes beyond a size limit.
#pragma once
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <map>

namespace reef::ui {

class TakesModel;
struct Take;

class TakeHistory : public QObject {
    Q_OBJECT
public:
    // 1: sampling settings unchecked; 2: checked against the engine's ranges (qt/sampling_json.h),
    // version-1 indexes are read the same way.
    static constexpr int kIndexVersion = 2;

    // Watches model from now on. The byte limit is the only bound: the model's count limit is
    // switched off (setMaxTakes(0)), since a count limit would silently delete saved takes.
    TakeHistory(const QString& dir, TakesModel& model, qint64 limitBytes, QObject* parent = nullptr);

    // Restores the saved takes (newest first, numbers kept) below the model's rows, then prunes to
    // the limit. A missing folder or index is an empty history (true). An unreadable index
    // (not JSON, another kind of file, a newer version) gives false with *error and touches
    // nothing; the first later save sets it aside as history.unreadable-<time>.json, never deletes
    // it. A take whose entry or audio is broken or missing is skipped with a warning and its
    // entry kept as it is in the index. Call once, before takes are added (false otherwise).
    bool load(QString* error);

    // Prunes at once when lower. The newest take is kept even when it alone is over the limit.
    void setLimitBytes(qint64 bytes);
    qint64 limitBytes() const { return m_limit; }
    // Bytes of the audio files of the takes in the model plus the index (not of skipped takes).
    qint64 usedBytes() const;
    QString dir() const { return m_dir; }
    // Everything that went wrong since construction, oldest first (also sent as warning()).
    QStringList warnings() const { return m_warnings; }

Q_SIGNALS:
    void warning(const QString& message);

private:
    struct Stored {
        QString file;   // name inside dir; empty for a take without audio
        qint64 bytes = 0;
        QJsonObject entry;
    };
    void onRowsInserted(int first, int last);
    void onRowsAboutToBeRemoved(int first, int last);
    bool saveTake(const Take& take);
    void writeIndex();
    void prune();
    void warn(const QString& message);
    QString indexPath() const;

    QString m_dir;
    TakesModel& m_model;
    qint64 m_limit;
    std::map<int, Stored> m_stored;   // by take number
    QJsonArray m_skipped;             // entries load could not restore, kept verbatim
    qint64 m_indexBytes = 0;
    bool m_loaded = false;
    bool m_restoring = false;
    bool m_batch = false;             // pruning: one index write at the end
    bool m_writeAfterRemoval = false;
    bool m_setAsideIndex = false;     // load found an unreadable index: keep it before writing
    QStringList m_warnings;
};

}  // namespace reef::ui
