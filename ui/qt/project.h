// The long-form project: a text split into segments, each with its own takes, voice and settings,
// so one segment can be re-generated without redoing the rest. Saved as <name>.reefproj (versioned
// JSON, see project_file.h) with its audio in <name>.reefproj.d/ beside it.
#pragma once
#include <QAbstractListModel>
#include <QDateTime>
#include <QMap>
#include <QSet>
#include <QString>
#include <optional>
#include <vector>

#include "qt/epub_import.h"
#include "qt/text_segmenter.h"
#include "reef/engine_types.h"

namespace reef::ui {

struct SegmentTake {
    QString id;            // stable; names its audio file. addTake assigns one when empty
    QDateTime created;
    QString text;          // the text it was made from
    QString voice;         // the voice it was made with
    // The model it was made with, or for a server "<flavour> <model> at <address>" (empty in files
    // written before Reef recorded it).
    QString madeWith;
    SamplingParams sampling;
    // Saved: frames, audio_seconds, warm_frames_per_s, real_time_factor. The rest stays in memory only.
    RunMetrics metrics;
    std::vector<float> audio;   // mono 44.1 kHz
    // The semantic codes the audio was decoded from (saved as <id>.codes): re-decoding them with
    // another codec precision never samples again. Empty for takes from servers and older files.
    Codes codes;
    // qt/model_fingerprint.h of the model folder that made it; empty when unknown (a server).
    QString modelHash;
    // Speaker -> voice when several speakers spoke in this one request (ProjectData::jointSpeakers);
    // empty when one voice (`voice`) or none spoke.
    QMap<QString, QString> castVoices;
};

struct Segment {
    QString id;            // stable (QUuid), survives edits, splits (left part) and saves
    QString text;          // may hold pause markup (qt/pause_markup.h); the model reads spokenText(text)
    QString voice;         // empty = the project's default voice
    std::optional<SamplingParams> sampling;   // empty = the app's current settings
    bool paragraphEnd = false;   // the source text had a paragraph break after it: the longer pause
    QString chapter;       // non-empty: a chapter with this title starts at this segment
    double speed = 0.0;    // tempo for this segment (0.5…2); 0 = the project's
    std::vector<SegmentTake> takes;
    int currentTake = -1;
    bool hasAudio() const { return currentTake >= 0 && currentTake < int(takes.size()); }
    // The text was edited since the current take was made (voice or settings changes do not count:
    // the UI offers to re-generate then, but the take still says what its text says).
    bool isStale() const { return hasAudio() && takes[size_t(currentTake)].text != text; }
};

// A take from a finished synthesis: the request's text and settings, the result's metrics and audio.
SegmentTake takeFromResult(const SynthesisRequest& request, const SynthesisResult& result, const QString& voice);
// A take's codes decoded again (by another codec precision, another device): a new take (no id
// yet, created now) with the old one's text, voice, settings and codes, and the new audio.
SegmentTake redecodedTake(const SegmentTake& old, std::vector<float> audio, const QString& madeWith,
                          const QString& modelHash);

// How the current takes become one piece of audio (qt/project_assembly.h): the silence between
// segments by what ends them, the tempo, and the loudness of the result.
struct AssemblySettings {
    int sentencePauseMs = 450;     // after . ! ? … 。
    int clausePauseMs = 250;       // after , ; : 、 and a cut inside a long sentence
    int paragraphPauseMs = 900;
    int chapterPauseMs = 2000;
    double speed = 1.0;            // 0.5…2, tempo without pitch change
    bool trimSilence = true;       // cut each take's own leading/trailing silence first
    bool normalize = false;        // EBU R128 to the target, true peak under the ceiling
    double targetLufs = -18.0;
    double ceilingDbtp = -3.0;
    bool operator==(const AssemblySettings&) const = default;
};

// The document itself, what a project file holds.
struct ProjectData {
    QString title;
    QString defaultVoice;
    std::vector<Segment> segments;
    AssemblySettings assembly;
    // The cast: speaker ("0", "1": fish-speech's <|speaker:N|> tags) -> voice id. A segment without
    // its own voice speaks with its speaker's, else the project default.
    QMap<QString, QString> cast;
    // Speakers also from "Name: text" lines (a capitalised name of up to 32 characters, a colon, a
    // space): the name is the speaker and is not read. Off: only <|speaker:N|> tags name speakers.
    bool nameLines = false;
    // A segment with several <|speaker:N|> tags is one request with every speaker's cast voice as
    // a reference, each transcript tagged with its speaker: how fish-speech's S2 models speak a
    // dialogue (generate_long with several prompt texts). Off, or on an S1 model: the segment
    // speaks with the voice of the speaker it starts with.
    bool jointSpeakers = false;
};

// The speakers in `text` that the model itself reads as speakers: fish-speech's digit tags
// <|speaker:N|>, in order of first appearance, each once.
QStringList taggedSpeakers(const QString& text);
// A reference voice as one of several in a request: its transcript tagged with its speaker, which
// the S2 prompt keeps as it is (untagged ones are numbered by position).
ReferenceVoice speakerReference(ReferenceVoice reference, const QString& speaker);
// Whether the model speaks several reference voices in one request (S2's speaker tokens); S1's
// prompt gives every reference speaker 0.
bool speaksSeveralVoices(const ModelInfo& model);

// Where each segment's current take lies in renderProject's output.
struct RenderedSpan {
    int row = 0;
    qint64 start = 0;    // first sample
    qint64 length = 0;   // samples of the take (the crossfades overlap neighbours)
};

class ProjectModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum class SegmentState { NoAudio, Stale, HasAudio };
    Q_ENUM(SegmentState)
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,          // SegmentState as int
        TakeCountRole,
        CurrentTakeRole,
        DurationRole,       // seconds of the current take, 0 without audio
        VoiceRole,          // the segment's own voice, empty = project default
        SpeakerRole,        // speakerOf(row)
        OtherModelRole,     // bool: the current take was made by another model than the loaded one
        ChapterRole,        // the chapter heading that starts at this segment, empty when none
    };

    // Bounds on what load() accepts (and what the editing API lets a project grow to).
    static constexpr qint64 kMaxFileBytes = 64ll << 20;
    static constexpr int kMaxSegments = 100000;      // War and Peace is ~30000 sentences
    static constexpr int kMaxTextChars = 100000;      // per segment and per take text
    static constexpr int kMaxTakesPerSegment = 200;
    static constexpr double kMaxTakeSeconds = 3600.0;

    explicit ProjectModel(QObject* parent = nullptr);

    // QAbstractItemModel
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // A new, unsaved project (filePath() empty) of text split by mode; modified when it has segments.
    void newProject(const QString& title, const QString& text, SplitMode mode, int maxChars = 400);
    // The same from a book's chapters (qt/epub_import.h): each chapter's first segment carries
    // its title as the chapter heading.
    void newProjectFromChapters(const QString& title, const QList<EpubChapter>& chapters, SplitMode mode,
                                int maxChars = 400);
    QString title() const { return m_doc.title; }
    void setTitle(const QString& title);
    QString defaultVoice() const { return m_doc.defaultVoice; }
    void setDefaultVoice(const QString& voice);
    // The segment's voice, else its speaker's in the cast, else the project default.
    QString effectiveVoice(int row) const;
    // The speaker of a segment: the <|speaker:N|> tag it starts with, or the last one before it
    // (a speaker's turn goes on until the next tag) within its chapter; empty before any tag.
    QString speakerOf(int row) const;
    QStringList speakers() const { return speakers(m_doc.nameLines); }   // in order of appearance
    // The same as if name-line mode were `nameLines` (the Production dialog previews it).
    QStringList speakers(bool nameLines) const;
    bool nameLines() const { return m_doc.nameLines; }
    void setNameLines(bool on);     // modified when it changes; every row's speaker may change
    // What the model reads for a segment: spokenText() without a "Name: " prefix in name-line mode.
    QString spokenTextOf(int row) const;
    // The cast's voice for a speaker (empty: none, the default voice). Their segments whose takes
    // were made with another voice become stale.
    void setCastVoice(const QString& speaker, const QString& voice);
    QMap<QString, QString> cast() const { return m_doc.cast; }
    // Stale: the text changed since the current take, or its speaker's cast voice did, or the voices
    // of a segment its speakers speak together (jointVoices) did.
    bool isStale(int row) const;
    // With jointSpeakers on and a model that speaks several voices, a segment without a voice of its
    // own and with two or more tagged speakers (taggedSpeakers) that have cast voices: those
    // speakers and their voices. Else empty.
    QMap<QString, QString> jointVoices(int row) const;
    bool jointSpeakers() const { return m_doc.jointSpeakers; }
    void setJointSpeakers(bool on);
    // Whether the loaded model speaks several voices in one request (speaksSeveralVoices; assumed
    // until a model says): an S1 model makes jointVoices empty, so its takes are not stale for it.
    void setModelSpeaksSeveralVoices(bool on);
    // The fingerprint of the model now loaded (OtherModelRole compares takes with it).
    void setCurrentModelHash(const QString& hash);
    QString currentModelHash() const { return m_currentModelHash; }

    const ProjectData& document() const { return m_doc; }
    const AssemblySettings& assembly() const { return m_doc.assembly; }
    void setAssembly(const AssemblySettings& settings);   // modified when it changes
    // A chapter heading at this segment (empty: none); false for a row out of range.
    bool setSegmentChapter(int row, const QString& title);
    bool setSegmentSpeed(int row, double speed);         // 0 = the project's; else 0.5…2

    int segmentCount() const { return int(m_doc.segments.size()); }
    const Segment& segment(int row) const { return m_doc.segments[size_t(row)]; }
    int rowForId(const QString& id) const;   // -1 when absent

    // Editing. Rows out of range are ignored (false). Edits never touch another segment's takes.
    // Pause markup inside the new text (spoken text on both sides of a mark) splits the segment
    // after each such mark, as the segmenter would have.
    bool setSegmentText(int row, const QString& text);
    // The left part keeps the segment (id, takes: now stale); the right part is new, without takes.
    // position is a UTF-16 index, moved off a surrogate pair's middle; false if a side would be empty.
    bool splitSegment(int row, int position);
    // Joins row+1's text onto row (a space between, none between CJK text); row keeps its id and
    // takes (now stale); row+1's takes are dropped.
    bool mergeWithNext(int row);
    bool insertSegment(int row, const QString& text);   // row in [0, segmentCount()]
    bool removeSegment(int row);
    bool setSegmentVoice(int row, const QString& voice);
    bool setSegmentSampling(int row, const std::optional<SamplingParams>& sampling);

    // Adds a take to the segment with that id and makes it current; false when no such segment
    // (it was removed while generating). Beyond kMaxTakesPerSegment the oldest non-current take goes.
    bool addTake(const QString& segmentId, SegmentTake take);
    bool setCurrentTake(int row, int take);
    bool removeTake(int row, int take);   // the current one removed: the take before it becomes current

    std::vector<float> segmentAudio(int row) const;   // the current take's samples, empty without
    // The current takes in order; segments without audio are skipped. Neighbours overlap by
    // crossfadeMs with an equal-power crossfade (outgoing cos, incoming sin of (k + 0.5)/n · π/2),
    // n limited to half of the shorter clip. With gapMs > 0 they do not overlap: the outgoing clip
    // fades out and the incoming one fades in over n samples, with gapMs of silence between.
    std::vector<float> renderProject(int crossfadeMs = 30, int gapMs = 0, QList<RenderedSpan>* spans = nullptr) const;
    // Rows with no take, or stale; not those of pause markup only (nothing to say).
    QList<int> segmentsNeedingAudio() const;

    // Save writes every take's audio not yet in <path>.d/, then the JSON (QSaveFile), then removes
    // audio files there that the saved JSON no longer names. On failure the previous project file
    // is intact and the model unchanged; *error names the file and the problem.
    bool save(const QString& path, QString* error);
    // Load reads the JSON and every audio file into a temporary and only then replaces the model;
    // on any failure the model is untouched and *error names the file and the problem.
    bool load(const QString& path, QString* error);
    bool isModified() const { return m_modified; }
    QString filePath() const { return m_path; }
    // The format version the last load read (1 = migrated from the old layout), 0 if none.
    int loadedVersion() const { return m_loadedVersion; }

    static QString audioDirFor(const QString& projectPath) { return projectPath + QStringLiteral(".d"); }

Q_SIGNALS:
    void modifiedChanged(bool modified);
    void titleChanged(const QString& title);

private:
    void setModified(bool modified);
    void rowChanged(int row);
    bool validRow(int row) const { return row >= 0 && row < segmentCount(); }

    ProjectData m_doc;
    QString m_path;
    bool m_modified = false;
    int m_loadedVersion = 0;
    QString m_currentModelHash;
    bool m_severalVoices = true;
    // speakerOf for every row, in one pass over the text; dropped by every change the model
    // signals (text, rows, chapters, name-line mode), rebuilt when next asked.
    QStringList speakerColumn(bool nameLines) const;
    const QStringList& cachedSpeakers() const;
    void allRowsChanged(const QList<int>& roles = {});
    mutable std::optional<QStringList> m_speakers;
    // Take ids whose audio is already in m_savedAudioDir (written or read there).
    QString m_savedAudioDir;
    QSet<QString> m_takesOnDisk;
};

}  // namespace reef::ui
