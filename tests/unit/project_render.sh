#!/usr/bin/env bash
# reef-cli project import / render (issue #48) on the tiny demo model: a 3-chapter EPUB with two
# speakers and pause markup (made here) is imported, generated, saved, and exported as FLAC with
# chapter marks, per-chapter files, SRT and WebVTT; a second tool measures what it wrote (ffmpeg's ebur128 meter, ffprobe's chapters).
# Re-assembling with other pauses, pace or loudness never loads a model, and gives the same samples
# where nothing changed. Pauses are exact to the sample; tempo 1.25 lasts 0.8x.
set -u
CLI="$1"
T="${REEF_TEST_TMP:-/tmp}/project_render"
rm -rf "$T" && mkdir -p "$T"
source "$(dirname "$0")/script_checks.sh"
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "SKIP: no ffmpeg/ffprobe (scripts/setup.sh installs them)"; exit 77; }

ok "$CLI" demo-model "$T/tiny" --preset tiny
# A 3-chapter EPUB with two speakers and pause markup, imported as a project (no takes yet).
python3 - "$T/book.epub" <<'PY'
import sys, zipfile
x = lambda body: ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>'
                  '</head><body>%s</body></html>' % body)
chapters = [
    "<h1>One</h1><p>&lt;|speaker:0|&gt;The tide came in slowly. [pause 1.5s]</p>"
    "<p>&lt;|speaker:1|&gt;Then the reef woke up, and the fish began to sing.</p>",
    "<h1>Two</h1><p>&lt;|speaker:0|&gt;Morning light fell on the water. Nobody spoke; [pause 700ms]</p>",
    "<h1>Three</h1><p>&lt;|speaker:1|&gt;Everyone listened.</p>",
]
opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata '
       'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Reef Tales</dc:title></metadata><manifest>%s</manifest>'
       '<spine>%s</spine></package>') % ("".join('<item id="c%d" href="c%d.xhtml" media-type="application/xhtml+xml"/>' % (i, i)
                                                 for i in range(3)), "".join('<itemref idref="c%d"/>' % i for i in range(3)))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
    z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
               'opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>')
    z.writestr("OPS/book.opf", opf)
    for i, body in enumerate(chapters):
        z.writestr("OPS/c%d.xhtml" % i, x(body))
PY
ok "$CLI" project import "$T/book.epub" "$T/book.reefproj"
has "8 segments, 3 chapters, 2 speakers"
bad "$CLI" project import "$T/book.epub" "$T/book.reefproj";  has "exists already"
# Without a model the missing takes are refused by name; nothing is written.
bad "$CLI" project render "$T/book.reefproj" --out "$T/none";  has "pass -m MODEL"
ok test ! -e "$T/none/book.flac"
# Generate and export: FLAC with chapter marks, per chapter, subtitles, -18 LUFS under -2 dBTP.
ok "$CLI" project render "$T/book.reefproj" -m "$T/tiny" --out "$T/a" --srt --vtt --per-chapter \
   --loudness -18 --ceiling -2 --max-new-frames 24 --seed 3
has "saved the new takes"; has "3 chapter marks"
ok test -s "$T/a/book.flac"; ok test -s "$T/a/book.srt"; ok test -s "$T/a/book.vtt"
ok test -s "$T/a/001 One.flac"; ok test -s "$T/a/002 Two.flac"; ok test -s "$T/a/003 Three.flac"
ok grep -q '"currentTake": 0' "$T/book.reefproj"

check() {  # python3 check script with the folder and expectations; prints what it measured
python3 - "$@" <<'PY'
import json, re, subprocess, sys
import numpy as np
what, folder = sys.argv[1], sys.argv[2]
def samples(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "f32le", "-ac", "1", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype="<f4")
def ebur128(path):
    log = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    s = log[log.rfind("Summary:"):]
    return float(re.search(r"I:\s+(-?[\d.]+) LUFS", s).group(1)), float(re.search(r"Peak:\s+(-?[\d.]+) dBFS", s).group(1))
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
if what == "export":
    lufs, peak = ebur128(f"{folder}/book.flac")
    print(f"ffmpeg ebur128: I {lufs} LUFS, true peak {peak} dBFS")
    if abs(lufs + 18) > 0.5 or peak > -2.0: fail("loudness")
    chapters = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", f"{folder}/book.flac"],
                                         capture_output=True, text=True, check=True).stdout)["chapters"]
    titles = [c["tags"]["title"] for c in chapters]
    print("ffprobe chapters:", [(c["start_time"], c["tags"]["title"]) for c in chapters])
    if titles != ["One", "Two", "Three"]: fail("chapter titles")
    book = samples(f"{folder}/book.flac")
    parts = [samples(f"{folder}/00{k} {t}.flac") for k, t in ((1, "One"), (2, "Two"), (3, "Three"))]
    if sum(len(p) for p in parts) != len(book): fail("the chapters do not add up to the book")
    # Chapter k's file starts where ffprobe says chapter k starts (the marks are in milliseconds).
    starts = [float(c["start_time"]) * 44100 for c in chapters]
    if any(abs(s - sum(len(p) for p in parts[:k])) > 23 for k, s in enumerate(starts)): fail("chapter starts")
    # SRT: one cue per segment, spoken text only; cues inside the audio, the last ending with the
    # last take (the last segment has no trailing pause), to +-1 frame (2048 samples).
    srt = open(f"{folder}/book.srt", encoding="utf-8").read()
    cues = re.findall(r"(\d\d):(\d\d):(\d\d),(\d\d\d) --> (\d\d):(\d\d):(\d\d),(\d\d\d)\n(.+)", srt)
    texts = [c[8] for c in cues]
    print("srt:", len(cues), "cues;", texts[:2])
    if len(cues) != 8 or any("<|" in t or "[pause" in t for t in texts): fail("srt cues")
    t = lambda h, m, s, ms: (int(h) * 3600 + int(m) * 60 + int(s)) * 44100 + int(ms) * 44.1
    end = t(*cues[-1][4:8])
    if abs(end - len(book)) > 2048: fail(f"the last cue ends at {end}, the audio at {len(book)}")
    # Each chapter's own subtitles, timed from its start, add up to the book's cues; chapter 2's file
    # starts halfway through the 2 s chapter pause, so its first cue is at 1.000 s.
    per = [open(f"{folder}/00{k} {t}.srt", encoding="utf-8").read() for k, t in ((1, "One"), (2, "Two"), (3, "Three"))]
    if sum(p.count(" --> ") for p in per) != 8 or not per[1].startswith("1\n00:00:01,000 --> "): fail("per-chapter srt")
    vtt = open(f"{folder}/book.vtt", encoding="utf-8").read()
    if not vtt.startswith("WEBVTT\n") or vtt.count(" --> ") != 8: fail("vtt")
elif what == "same":
    a, b = samples(sys.argv[2]), samples(sys.argv[3])
    print("same samples:", len(a), len(b), bool(np.array_equal(a, b)))
    if not np.array_equal(a, b): fail("re-assembled samples differ")
elif what == "loudness":
    lufs, peak = ebur128(sys.argv[2])
    print(f"ffmpeg ebur128: I {lufs} LUFS, true peak {peak} dBFS")
    if abs(lufs - float(sys.argv[3])) > 0.5: fail("loudness")
elif what == "pauses":
    # Runs of exact zeros are the pauses (the demo model's noise is never exactly 0).
    x = samples(sys.argv[2])
    z = np.concatenate(([0], (x == 0).astype(np.int8), [0]))
    d = np.diff(z); runs = np.flatnonzero(d == -1) - np.flatnonzero(d == 1)
    runs = sorted(int(r) for r in runs if r >= 1000)
    want = sorted(int(v) for v in sys.argv[3].split(","))
    print("pauses:", runs, "wanted", want)
    if runs != want: fail("pauses")
elif what == "tempo":
    a, b = samples(sys.argv[2]), samples(sys.argv[3])
    pauses = int(sys.argv[4])
    ratio = (len(b) - pauses) / (len(a) - pauses)
    print(f"speech lasts {ratio:.4f}x at speed 1.25")
    if abs(ratio - 0.8) > 0.8 * 0.02: fail("tempo")
PY
}
ok check export "$T/a"; cat "$T/out.txt"

# Re-assembling: no model given, so the engine cannot be asked; identical samples with the same
# settings, other loudness and pauses applied.
ok "$CLI" project render "$T/book.reefproj" --out "$T/b" --loudness -18 --ceiling -2 --srt --per-chapter
has "no segment needs the engine"
ok check same "$T/a/book.flac" "$T/b/book.flac"
ok cmp "$T/a/book.srt" "$T/b/book.srt"
ok "$CLI" project render "$T/book.reefproj" --out "$T/c" --loudness -23
ok check loudness "$T/c/book.flac" -23; cat "$T/out.txt"
# Pauses exact to the sample (float WAV, no normalizing): after each heading and paragraph 0.9 s,
# markup 1.5 s, the chapter pause 2 s, a sentence 0.45 s, and 0.7 s of markup where a chapter
# follows (markup wins).
ok "$CLI" project render "$T/book.reefproj" --out "$T/d" --format wav-float --paragraph-pause 900
ok check pauses "$T/d/book.wav" 39690,66150,88200,39690,19845,30870,39690; cat "$T/out.txt"
ok "$CLI" project render "$T/book.reefproj" --out "$T/e" --format wav-float --speed 1.25
ok check tempo "$T/d/book.wav" "$T/e/book.wav" $((3 * 39690 + 66150 + 88200 + 19845 + 30870)); cat "$T/out.txt"
# MP3 (where this libsndfile has LAME) carries the chapter marks as ID3 CHAP frames.
if "$CLI" project render "$T/book.reefproj" --out "$T/m" --format mp3 >"$T/out.txt" 2>&1; then
  has "3 chapter marks in the MP3 file"
  ok test "$(ffprobe -v error -show_chapters -of csv=p=0 "$T/m/book.mp3" | wc -l)" -eq 3
else
  has "cannot write mp3"
fi
# Exact re-render: each take kept its codes, seed and the model's fingerprint. The same segments
# generated again from scratch with the same seed and model give the same codes and samples.
ok python3 - "$T/book.reefproj" "$T/again.reefproj" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for s in p["segments"]:
    t = s["takes"][s["currentTake"]]
    assert t["codes"].endswith(".codes") and t["modelHash"].startswith("sha256:") and t["sampling"]["seed"] == "3", t
    s["takes"], s["currentTake"] = [], -1
p["audioDir"] = "again.reefproj.d"
json.dump(p, open(sys.argv[2], "w"))
PY
ok "$CLI" project render "$T/again.reefproj" -m "$T/tiny" --out "$T/h" --max-new-frames 24 --seed 3 --batch-size 1
ok python3 - "$T/book.reefproj" "$T/again.reefproj" <<'PY'
import json, os, sys
def current(path):
    p = json.load(open(path)); d = os.path.join(os.path.dirname(path), p["audioDir"])
    return [(open(os.path.join(d, s["takes"][s["currentTake"]]["codes"]), "rb").read(),
             open(os.path.join(d, s["takes"][s["currentTake"]]["audio"]), "rb").read()[-4096:]) for s in p["segments"]]
a, b = current(sys.argv[1]), current(sys.argv[2])
assert [x[0] for x in a] == [x[0] for x in b], "codes differ"
assert [x[1] for x in a] == [x[1] for x in b], "samples differ"
print("regenerated with the same seed: the same codes and samples for", len(a), "segments")
PY
# Re-decoding the stored codes with another codec precision: a new take each, the same codes.
ok "$CLI" project render "$T/again.reefproj" -m "$T/tiny" --precision bf16 --redecode --out "$T/i"
has "re-decoded 8 take(s)"
ok python3 - "$T/again.reefproj" <<'PY'
import json, os, sys
p = json.load(open(sys.argv[1])); d = os.path.join(os.path.dirname(sys.argv[1]), p["audioDir"])
for s in p["segments"]:
    assert len(s["takes"]) == 2 and s["currentTake"] == 1, s
    old, new = (open(os.path.join(d, t["codes"]), "rb").read() for t in s["takes"])
    assert old == new, "re-decoding changed the codes"
print("re-decoded takes keep their codes")
PY
# Another model: the takes say so.
ok "$CLI" demo-model "$T/tiny2" --preset tiny --seed 9
ok "$CLI" project render "$T/book.reefproj" -m "$T/tiny2" --redecode --no-save --out "$T/j"
has "made by another model"
# Joint speakers (fish-speech's several references in one request): a dialogue segment speaks with
# both cast voices from a voice library; without it, the same segment is stale and speaks with one.
ok python3 - "$T/voices" <<'PY'
import json, math, os, struct, sys, wave
for vid, name, hz in (("ann", "Ann", 220.0), ("ben", "Ben", 330.0)):
    d = os.path.join(sys.argv[1], vid)
    os.makedirs(d)
    with wave.open(os.path.join(d, "reference.wav"), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(44100)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * hz * i / 44100))) for i in range(44100)))
    json.dump({"name": name, "transcript": name + " speaks here.", "clip": "reference.wav"}, open(os.path.join(d, "voice.json"), "w"))
PY
echo "Intro." > "$T/dialogue.txt"
ok "$CLI" project import "$T/dialogue.txt" "$T/dialogue.reefproj"
ok python3 - "$T/dialogue.reefproj" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["segments"][0]["text"] = "<|speaker:0|>Hi, Ben. <|speaker:1|>Hello, Ann."
p["cast"] = {"0": "ann", "1": "ben"}
json.dump(p, open(sys.argv[1], "w"))
PY
ok "$CLI" project render "$T/dialogue.reefproj" -m "$T/tiny" --voices "$T/voices" --joint-speakers --out "$T/k" --max-new-frames 16
jtake() {  # jtake WANT: the current take's castVoices as JSON, and jointSpeakers, as WANT says
python3 - "$T/dialogue.reefproj" "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
s = p["segments"][0]
t = s["takes"][s["currentTake"]]
got = json.dumps({"joint": p.get("jointSpeakers"), "castVoices": t.get("castVoices"), "voice": t.get("voice"), "takes": len(s["takes"])}, sort_keys=True)
print(got)
sys.exit(0 if got == sys.argv[2] else 1)
PY
}
ok jtake '{"castVoices": {"0": "ann", "1": "ben"}, "joint": true, "takes": 1, "voice": "ann"}'
ok test -s "$T/k/dialogue.flac"
ok "$CLI" project render "$T/dialogue.reefproj" -m "$T/tiny" --voices "$T/voices" --no-joint-speakers --out "$T/l" --max-new-frames 16
ok jtake '{"castVoices": null, "joint": false, "takes": 2, "voice": "ann"}'
# A cast voice missing from the library is named.
bad "$CLI" project render "$T/dialogue.reefproj" -m "$T/tiny" --voices "$T/novoices" --joint-speakers --out "$T/n"
has 'uses the voice "ann", which is not in the voice library'

# Bad input: a broken project, an unwritable folder.
echo '{"format": "reef-project", "version": 4' > "$T/broken.reefproj"
bad "$CLI" project render "$T/broken.reefproj" --out "$T/f";  has "not valid JSON"
ok test ! -e "$T/f/broken.flac"
touch "$T/blocker"
bad "$CLI" project render "$T/book.reefproj" --out "$T/blocker/x";  has "cannot create the output folder"
bad "$CLI" project render "$T/book.reefproj" --out "$T/g" --speed 3;  has "speed"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
