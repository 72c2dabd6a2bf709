// The voice library: reference clips + transcripts kept in a folder, one sub-folder per voice
// (voice.json, the copied clip, codes.bin once the codec has encoded it), shown as a list model.
#pragma once
#include <QAbstractListModel>
#include <QString>
#include <vector>

#include "reef/engine_types.h"

namespace reef::ui {

struct Voice {
    QString id;          // folder name, stable across renames
    QString name;
    QString transcript;
    QString clipPath;    // absolute path of the copied reference clip
    Codes codes;         // cached codes; n_frames == 0 until encoded
    bool hasCodes() const { return codes.n_frames > 0; }
};

// codes.bin: "REEFCODE", int32 n_codebooks, int32 n_frames, int32 data[]. Atomic write.
bool writeCodesFile(const QString& path, const Codes& codes, QString* error);
bool readCodesFile(const QString& path, Codes* codes, QString* error);

class VoiceListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { IdRole = Qt::UserRole + 1, TranscriptRole, ClipPathRole, HasCodesRole };

    explicit VoiceListModel(const QString& rootDir, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString rootDir() const { return m_root; }
    const Voice& voice(int row) const { return m_voices[size_t(row)]; }
    int rowOfId(const QString& id) const;
    // The engine-side reference for a voice: cached codes when present, else the clip to encode.
    ReferenceVoice reference(int row) const;

    // Copies the clip into the library; returns the new voice's id, or empty with *error set.
    QString addVoice(const QString& name, const QString& clipPath, const QString& transcript, QString* error);
    bool renameVoice(int row, const QString& name, QString* error = nullptr);
    bool setTranscript(int row, const QString& transcript, QString* error = nullptr);
    bool removeVoice(int row, QString* error = nullptr);
    bool setCodes(const QString& id, const Codes& codes, QString* error = nullptr);
    void reload();   // rescans the folder

private:
    bool writeMeta(const Voice& v, QString* error) const;
    QString voiceDir(const QString& id) const;

    QString m_root;
    std::vector<Voice> m_voices;
};

}  // namespace reef::ui
