// reef-cli project import BOOK.epub|TEXT OUT.reefproj: a new project from a book or a text.
// reef-cli project render FILE.reefproj --out DIR: a studio project rendered or re-assembled
// headless (issue #48). Segments without a current take (or whose text changed) are generated with
// -m MODEL and saved into the project; everything else re-uses the stored takes, so re-exporting
// with other pauses, pace or loudness never calls the engine. Writes the book as one file (FLAC
// with chapter marks), one file per chapter with --per-chapter, and SRT/WebVTT subtitles.
#include <QDir>
#include <QHash>
#include <QFileInfo>
#include <QStandardPaths>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "audio/loudness.h"
#include "audio/resample.h"
#include "audio/wav_file.h"
#include "cli_common.h"
#include "cli_engine.h"
#include "qt/book_export.h"
#include "qt/epub_import.h"
#include "qt/model_fingerprint.h"
#include "qt/pause_markup.h"
#include "qt/project.h"
#include "qt/text_import.h"
#include "qt/voice_list_model.h"

namespace reef::cli {
namespace {

struct RenderOptions {
    EngineFlags engine;
    SamplingFlags sampling;
    std::string project, out_dir, format = "flac", voices_dir;
    bool srt = false, vtt = false, per_chapter = false, no_save = false, assemble_only = false, redecode = false;
    std::optional<bool> joint_speakers;
    std::optional<double> loudness, ceiling, speed;
    std::optional<int> sentence_pause, clause_pause, paragraph_pause, chapter_pause;
    int batch_size = 4;
};

std::string str(const QString& s) { return s.toStdString(); }

audio::ExportFormat export_format(const std::string& name) {
    if (name == "flac") return audio::ExportFormat::Flac;
    if (name == "wav") return audio::ExportFormat::WavPcm16;
    if (name == "wav-float") return audio::ExportFormat::WavFloat;
    if (name == "ogg") return audio::ExportFormat::OggVorbis;
    return audio::ExportFormat::Mp3;
}

// The studio's voice library (app/main.cpp keeps it under the app data folder "voices").
QString default_voices_dir() {
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(base).filePath(QStringLiteral("Reef/Reef/voices"));
}

// A progress bar on a terminal, one line per segment elsewhere (logs, CI).
class Progress {
public:
    explicit Progress(int total) : m_total(total), m_tty(isatty(STDERR_FILENO) != 0) {}
    void step(const std::string& what) {
        ++m_done;
        if (!m_tty) {
            std::cerr << "[" << m_done << "/" << m_total << "] " << what << "\n";
            return;
        }
        constexpr int kWidth = 30;
        const int filled = m_total ? m_done * kWidth / m_total : kWidth;
        std::cerr << "\r[" << std::string(size_t(filled), '#') << std::string(size_t(kWidth - filled), ' ') << "] "
                  << m_done << "/" << m_total << " segments" << (m_done == m_total ? "\n" : "") << std::flush;
    }

private:
    int m_total, m_done = 0;
    bool m_tty;
};

// Says which current takes another model made (their fingerprint differs from -m's).
void warn_other_models(const ui::ProjectModel& project, const QString& hash) {
    std::string rows;
    int n = 0;
    for (int r = 0; r < project.segmentCount(); ++r) {
        const ui::Segment& s = project.segment(r);
        if (!s.hasAudio()) continue;
        const QString& made = s.takes[size_t(s.currentTake)].modelHash;
        if (made.isEmpty() || made == hash) continue;
        if (++n <= 10) rows += (rows.empty() ? "" : ", ") + std::to_string(r + 1);
    }
    if (n)
        std::cerr << "note: " << n << " current take(s) were made by another model than " << str(hash)
                  << " (segments " << rows << (n > 10 ? ", …" : "") << "); they are kept as they are\n";
}

// A new take for every current take that has codes: the same codes decoded again with this
// engine (another codec precision, another device), no sampling.
int redecode(ui::ProjectModel& project, TtsBackend& engine, const ModelInfo& info, const QString& hash) {
    int done = 0, skipped = 0;
    for (int r = 0; r < project.segmentCount(); ++r) {
        const ui::Segment& s = project.segment(r);
        if (!s.hasAudio()) continue;
        const ui::SegmentTake& old = s.takes[size_t(s.currentTake)];
        if (old.codes.n_frames == 0) {
            ++skipped;
            continue;
        }
        Result<std::vector<float>> audio = engine.decode_codes(old.codes);
        if (!audio) fail("segment " + std::to_string(r + 1) + ": " + audio.error().to_string());
        project.addTake(s.id, ui::redecodedTake(old, std::move(*audio), QString::fromStdString(info.name), hash));
        ++done;
    }
    std::cout << "re-decoded " << done << " take(s) from their codes" << (skipped ? ", " + std::to_string(skipped) + " without codes left as they are" : std::string()) << "\n";
    return done;
}

// Generates the rows that need audio and adds each take to the project as it finishes.
int render_missing(ui::ProjectModel& project, const QList<int>& rows, const RenderOptions& o, TtsBackend& engine,
                   const ModelInfo& info, const QString& hash) {
    ui::VoiceListModel voices(o.voices_dir.empty() ? default_voices_dir() : QString::fromStdString(o.voices_dir));
    std::vector<SynthesisRequest> requests;
    std::vector<QString> segment_ids, voice_ids;
    std::vector<QMap<QString, QString>> cast_voices;
    QHash<QString, ReferenceVoice> encoded;
    // A voice of the library with its clip's codes, encoded once for all its segments.
    auto reference = [&](int row, const QString& voice) {
        if (!encoded.contains(voice)) {
            const int v = voices.rowOfId(voice);
            if (v < 0)
                fail("segment " + std::to_string(row + 1) + " uses the voice \"" + str(voice) +
                     "\", which is not in the voice library at " + str(voices.rootDir()) + " (--voices DIR)");
            ReferenceVoice ref = voices.reference(v);
            if (ref.codes.n_frames == 0) {
                std::vector<float> pcm;
                try {
                    pcm = audio::load_reference_audio(str(voices.voice(v).clipPath));
                } catch (const std::exception& e) {
                    fail(std::string("voice ") + str(voices.voice(v).name) + ": " + e.what());
                }
                ref.codes = unwrap(engine.encode_reference(pcm));
            }
            encoded.insert(voice, std::move(ref));
        }
        return encoded.value(voice);
    };
    for (int row : rows) {
        const ui::Segment& s = project.segment(row);
        SynthesisRequest r;
        r.id = uint64_t(requests.size() + 1);
        r.text = str(project.spokenTextOf(row));
        r.sampling = s.sampling.value_or(o.sampling.params);
        r.stream_chunk_frames = 0;
        const QString voice = project.effectiveVoice(row);
        // several speakers in one request where the project asks and the model speaks them so
        QMap<QString, QString> joint = project.jointVoices(row);
        for (auto it = joint.begin(); it != joint.end(); ++it)
            r.references.push_back(ui::speakerReference(reference(row, it.value()), it.key()));
        if (joint.isEmpty() && !voice.isEmpty())
            r.references.push_back(reference(row, voice));
        segment_ids.push_back(s.id);
        voice_ids.push_back(voice);
        cast_voices.push_back(std::move(joint));
        requests.push_back(std::move(r));
    }
    Progress progress(int(requests.size()));
    int failed = 0;
    Callbacks cb;
    cb.should_abort = [] { return interrupted(); };
    auto done = [&](uint64_t id, const Result<SynthesisResult>& result) {
        const size_t i = size_t(id - 1);
        const int row = project.rowForId(segment_ids[i]);
        if (!result) {
            ++failed;
            std::cerr << "\nsegment " << row + 1 << ": error: " << result.error().to_string() << "\n";
            return;
        }
        ui::SegmentTake take = ui::takeFromResult(requests[i], *result, voice_ids[i]);
        take.text = project.segment(row).text;   // as written, markup included: the take is current
        take.madeWith = QString::fromStdString(info.name);
        take.modelHash = hash;
        take.castVoices = cast_voices[i];
        project.addTake(segment_ids[i], std::move(take));
        char what[96];
        std::snprintf(what, sizeof what, "segment %d: %.2f s of audio", row + 1, result->metrics.audio_seconds);
        progress.step(what);
    };
    engine.synthesize_batch(requests, o.batch_size, cb, {}, done);
    return failed;
}

void render(const RenderOptions& o) {
    ui::ProjectModel project;
    QString error;
    const QString path = QString::fromStdString(o.project);
    if (!project.load(path, &error)) fail(str(error));
    // saved with the new takes: their voices follow from it (a segment made the other way is stale)
    if (o.joint_speakers) project.setJointSpeakers(*o.joint_speakers);
    if (!audio::export_format_available(export_format(o.format)))
        fail("this libsndfile cannot write " + o.format);
    const QDir out(QString::fromStdString(o.out_dir));
    if (!QDir().mkpath(out.absolutePath())) fail("cannot create the output folder " + o.out_dir);

    const QList<int> missing = o.assemble_only ? QList<int>{} : project.segmentsNeedingAudio();
    if (!missing.isEmpty() && o.engine.model_dir.empty())
        fail(std::to_string(missing.size()) + " segment(s) have no current take (or their text or voice changed since): "
             "pass -m MODEL to generate them, or --assemble-only to leave them out");
    if (o.redecode && o.engine.model_dir.empty()) fail("--redecode needs -m MODEL (the codec to decode with)");
    // The engine only when something must be generated or decoded: re-assembling never loads it.
    if (!missing.isEmpty() || o.redecode) {
        install_interrupt_handler();
        Engine engine;
        const ModelInfo info = load_or_fail(engine, o.engine.to_config());
        const QString hash = ui::modelFingerprint(QString::fromStdString(info.model_dir));
        warn_other_models(project, hash);
        // an S1 model speaks a segment's speakers with one voice: its takes so made are current
        project.setModelSpeaksSeveralVoices(ui::speaksSeveralVoices(info));
        const QList<int> todo = missing.isEmpty() ? missing : project.segmentsNeedingAudio();
        const int failed = todo.isEmpty() ? 0 : render_missing(project, todo, o, engine, info, hash);
        if (o.redecode) redecode(project, engine, info, hash);
        if (!o.no_save && project.isModified()) {
            if (!project.save(path, &error)) fail(str(error));
            std::cout << "saved the new takes into " << o.project << "\n";
        }
        if (failed) fail(std::to_string(failed) + " segment(s) failed; the project keeps the takes that were made");
    } else {
        std::cout << "re-assembling the stored takes: no segment needs the engine\n";
    }

    // This export's settings: the project's, with the flags given on top (not saved).
    ui::ProjectData doc = project.document();
    ui::AssemblySettings& a = doc.assembly;
    if (o.speed) a.speed = *o.speed;
    if (o.loudness) {
        a.normalize = true;
        a.targetLufs = *o.loudness;
    }
    if (o.ceiling) a.ceilingDbtp = *o.ceiling;
    if (o.sentence_pause) a.sentencePauseMs = *o.sentence_pause;
    if (o.clause_pause) a.clausePauseMs = *o.clause_pause;
    if (o.paragraph_pause) a.paragraphPauseMs = *o.paragraph_pause;
    if (o.chapter_pause) a.chapterPauseMs = *o.chapter_pause;
    ui::BookExportOptions options;
    options.format = export_format(o.format);
    options.perChapter = o.per_chapter;
    options.srt = o.srt;
    options.vtt = o.vtt;
    options.software = QStringLiteral("Reef " REEF_VERSION);
    options.comment = QStringLiteral("rendered from ") + path;
    ui::BookExportResult written;
    const bool ok = ui::exportBook(doc, out.absolutePath(), QFileInfo(path).completeBaseName(), options, &written, &error);
    for (const QString& f : written.files) std::cout << "wrote " << str(f) << "\n";
    if (!ok) fail(str(error));
    const ui::AssembledProject& book = written.assembled;
    if ((options.format == audio::ExportFormat::Flac || options.format == audio::ExportFormat::Mp3) && !book.chapters.isEmpty())
        std::cout << book.chapters.size() << " chapter marks in the " << (options.format == audio::ExportFormat::Mp3 ? "MP3" : "FLAC")
                  << " file\n";
    const audio::Loudness l = ui::assembledLoudness(book);
    std::printf("%lld segments, %.2f s; integrated %.1f LUFS, true peak %.1f dBTP%s\n", (long long)book.spans.size(),
                double(book.audio.size()) / kSampleRate, l.integrated_lufs, l.true_peak_dbtp,
                book.normalized ? " (normalized)" : "");
}

// project import: a text file or an EPUB as a new project file (no audio yet).
void import_project(const std::string& in, const std::string& out, const std::string& split, int max_chars) {
    const QString source = QString::fromStdString(in);
    ui::ProjectModel project;
    QString error;
    const ui::SplitMode mode = split == "paragraphs" ? ui::SplitMode::Paragraphs : ui::SplitMode::Sentences;
    if (ui::isEpubFileName(source)) {
        ui::EpubBook book;
        if (!ui::readEpub(source, &book, &error)) fail(str(error));
        project.newProjectFromChapters(book.title, book.chapters, mode, max_chars);
    } else {
        const std::optional<QString> text = ui::readTextFile(source, &error);
        if (!text) fail(str(error));
        project.newProject(QFileInfo(source).completeBaseName(), *text, mode, max_chars);
    }
    if (project.segmentCount() == 0) fail(in + " has no text to make segments of");
    if (QFileInfo::exists(QString::fromStdString(out))) fail(out + " exists already; choose another name");
    if (!project.save(QString::fromStdString(out), &error)) fail(str(error));
    int chapters = 0;
    for (int r = 0; r < project.segmentCount(); ++r) chapters += project.segment(r).chapter.isEmpty() ? 0 : 1;
    std::cout << "wrote " << out << ": " << project.segmentCount() << " segments, " << chapters << " chapters, "
              << project.speakers().size() << " speakers\n";
}

}  // namespace

void register_project(CLI::App& app) {
    auto* project = app.add_subcommand("project", "work with a studio project (.reefproj) headless");
    project->require_subcommand(1);
    {
        auto in = std::make_shared<std::string>(), out = std::make_shared<std::string>();
        auto split = std::make_shared<std::string>("sentences");
        auto max_chars = std::make_shared<int>(400);
        auto* imp = project->add_subcommand("import", "a text file (.txt, .md) or an EPUB as a new project, split into segments");
        imp->add_option("in", *in, "the book (.epub) or text file")->required()->check(CLI::ExistingFile);
        imp->add_option("out", *out, "the project file to write (.reefproj)")->required();
        imp->add_option("--split", *split, "sentences | paragraphs")->check(CLI::IsMember({"sentences", "paragraphs"}))->capture_default_str();
        imp->add_option("--max-chars", *max_chars, "the longest segment, in characters")->check(CLI::Range(40, 100000))->capture_default_str();
        imp->callback([=] { import_project(*in, *out, *split, *max_chars); });
    }
    auto o = std::make_shared<RenderOptions>();
    auto* cmd = project->add_subcommand(
        "render", "generate a project's missing takes and export it: one file (FLAC with chapter marks), per chapter, subtitles");
    cmd->add_option("file", o->project, "the project file (.reefproj)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--out", o->out_dir, "folder for the exported files (created if needed)")->required();
    o->engine.add_to(cmd, /*model_required=*/false);
    o->sampling.add_to(cmd);
    cmd->add_option("--format", o->format, "flac | mp3 (both with chapter marks) | wav | wav-float | ogg")
        ->check(CLI::IsMember({"flac", "wav", "wav-float", "ogg", "mp3"}))
        ->capture_default_str();
    cmd->add_flag("--srt", o->srt, "write <name>.srt subtitles (one cue per segment, long ones split at sentences)");
    cmd->add_flag("--vtt", o->vtt, "write <name>.vtt (WebVTT) subtitles");
    cmd->add_flag("--per-chapter", o->per_chapter, "also write one file per chapter (\"001 Title.flac\", …)");
    cmd->add_option("--loudness", o->loudness, "normalize to this integrated loudness, LUFS (-16 podcast, -18/-20 audiobook, -23 broadcast)")
        ->check(CLI::Range(-40.0, -5.0));
    cmd->add_option("--ceiling", o->ceiling, "true-peak ceiling with --loudness, dBTP")->check(CLI::Range(-9.0, 0.0));
    cmd->add_option("--speed", o->speed, "tempo 0.5-2 without pitch change (segments with their own speed keep it)")
        ->check(CLI::Range(0.5, 2.0));
    cmd->add_option("--sentence-pause", o->sentence_pause, "ms of silence after a sentence")->check(CLI::Range(0, 60000));
    cmd->add_option("--clause-pause", o->clause_pause, "ms after a comma, semicolon or colon")->check(CLI::Range(0, 60000));
    cmd->add_option("--paragraph-pause", o->paragraph_pause, "ms after a paragraph")->check(CLI::Range(0, 60000));
    cmd->add_option("--chapter-pause", o->chapter_pause, "ms before a chapter")->check(CLI::Range(0, 60000));
    cmd->add_option("--voices", o->voices_dir, "the voice library the project's voices are in (default: the studio's)");
    cmd->add_flag("--joint-speakers,!--no-joint-speakers", o->joint_speakers,
                  "a segment with several <|speaker:N|> tags speaks in one request with each speaker's cast voice (S2 "
                  "models), or not; saved into the project");
    cmd->add_option("--batch-size", o->batch_size, "segments decoding together while generating (1-16)")
        ->check(CLI::Range(1, 16))
        ->capture_default_str();
    cmd->add_flag("--assemble-only", o->assemble_only, "never generate: leave segments without a take out");
    cmd->add_flag("--redecode", o->redecode,
                  "decode every current take again from its stored codes with -m's codec (e.g. another --precision): "
                  "a new take each, no sampling");
    cmd->add_flag("--no-save", o->no_save, "do not save the new takes into the project file");
    cmd->callback([o] { render(*o); });
}

}  // namespace reef::cli
