#!/usr/bin/env bash
# reef-cli end to end on a tiny demo model: demo-model, synth (+ --play into the ALSA file sink),
# generate, decode, encode, bench, sdpa-bench, and clear errors for bad input. Exit non-zero on any failure.
set -u
CLI="$1"
T="${REEF_TEST_TMP:-/tmp}/cli_smoke"
rm -rf "$T" && mkdir -p "$T"
source "$(dirname "$0")/script_checks.sh"

ok "$CLI" --version;                         has "libtorch"
ok "$CLI" demo-model "$T/tiny" --preset tiny; has "random"
bad "$CLI" demo-model "$T/tiny";             has "not empty"
ok "$CLI" synth -m "$T/tiny" -t "Hello there." --temperature 0 --max-new-frames 8 -o "$T/a.wav" --codes-out "$T/a.npy"
has "wrote"
# Without --sdpa, eager CPU decoding runs Reef's own decode attention where the build has the CPU
# kernels (the backend the engine saw run, per call site); --sdpa auto keeps libtorch's choice.
if "$CLI" --version | grep -q "CPU kernels: not built"; then
  has "slow-decode   flash"
else
  has "slow-decode   reef"; has "fast-decode   reef"
  ok "$CLI" synth -m "$T/tiny" -t "Hello there." --temperature 0 --max-new-frames 4 -o "$T/auto.wav" --sdpa auto
  has "slow-decode   flash"
fi
ok test -s "$T/a.wav"
# quantize: an int8 folder that synthesizes; refusals name the problem
ok "$CLI" quantize "$T/tiny" "$T/tiny-int8" --quiet; has "linear weights in int8"
ok test -s "$T/tiny-int8/quantization.json"
ok "$CLI" synth -m "$T/tiny-int8" -t "Hello there." --temperature 0 --max-new-frames 8 -o "$T/q.wav"
ok test -s "$T/q.wav"
bad "$CLI" quantize "$T/tiny-int8" "$T/twice";   has "already quantized"
# int4: the tiny model's projections take 64 or 128 inputs, so group 128 cannot split them all
bad "$CLI" quantize "$T/tiny" "$T/int4" --format int4; has "does not divide"
ok test ! -e "$T/int4"
ok "$CLI" quantize "$T/tiny" "$T/tiny-int4" --format int4 --group 32 --quiet; has "linear weights in int4 (group 32)"
ok "$CLI" synth -m "$T/tiny-int4" -t "Hello there." --temperature 0 --max-new-frames 8 -o "$T/q4.wav"
ok test -s "$T/q4.wav"
bad "$CLI" quantize "$T/tiny" "$T/int4x" --format int4 --group 48; has "48"
ok "$CLI" quantize "$T/tiny" "$T/tiny-int4e" --format int4 --group 32 --embeddings --quiet
has "linear weights and embedding tables in int4 (group 32)"
ok grep -q '"embeddings": true' "$T/tiny-int4e/quantization.json"
ok "$CLI" synth -m "$T/tiny-int4e" -t "Hello there." --temperature 0 --max-new-frames 8 -o "$T/q4e.wav"
ok test -s "$T/q4e.wav"
bad "$CLI" quantize "$T/tiny" "$T/tiny-int8";    has "not empty"
bad "$CLI" quantize "$T/nowhere" "$T/x";         has "nowhere"
ok test ! -e "$T/twice"
ok "$CLI" decode "$T/a.npy" -m "$T/tiny" -o "$T/b.wav"
ok test -s "$T/b.wav"   # same samples as a.wav (tst_engine_pipeline checks decode == streamed synth)
ok "$CLI" encode "$T/a.wav" -m "$T/tiny" -o "$T/ref.npy"
# A 2 s, 22.05 kHz stereo clip -> resampled to 44.1 kHz mono -> 10 x ceil(2 s * 21.53) = 10 x 44 codes.
python3 - "$T/stereo22k.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(22050)
    w.writeframes(b"".join(struct.pack("<hh", int(8000 * math.sin(2 * math.pi * 220 * i / 22050)),
                                       int(6000 * math.sin(2 * math.pi * 330 * i / 22050))) for i in range(44100)))
PY
ok "$CLI" encode "$T/stereo22k.wav" -m "$T/tiny" -o "$T/stereo.npy"; has "(10 x 44)"
ok "$CLI" synth -m "$T/tiny" -t "Clone me." --reference "$T/a.wav" --reference-text "Hello there." --temperature 0 --max-new-frames 4 -o "$T/c.wav"
ok "$CLI" generate -m "$T/tiny" -t "Codes only." --max-new-frames 4 -o "$T/g.npy"
# --batch-file: one WAV per non-blank line, batched; the same seed alone gives the same WAV bytes
printf 'First line of the project.\n\n  Second line, a little longer than the first.  \nThird.\n' > "$T/lines.txt"
ok "$CLI" synth -m "$T/tiny" --batch-file "$T/lines.txt" --out-dir "$T/batch" --batch-size 2 --max-new-frames 6 --seed 5 --codec-worker off
has "3 lines, batch size 2"
ok test -s "$T/batch/0003.wav"
bad test -e "$T/batch/0004.wav"
# no one listens to a line as it is made: without a codec worker (off above; the ctest environment's
# one thread would leave a core for it) its audio is decoded whole after its last frame, as
# --stream-chunk 0 does alone (streamed, the samples differ at the codec's rounding)
ok "$CLI" synth -m "$T/tiny" -t "Second line, a little longer than the first." --max-new-frames 6 --seed 5 --stream-chunk 0 -o "$T/line2.wav"
same_samples() { python3 -c 'import sys, wave; r = lambda p: wave.open(p).readframes(1 << 30); sys.exit(r(sys.argv[1]) != r(sys.argv[2]))' "$1" "$2"; }
ok same_samples "$T/batch/0002.wav" "$T/line2.wav"   # the metadata differs (line number), the samples do not
ok "$CLI" synth -m "$T/tiny" -t "Second line, a little longer than the first." --max-new-frames 6 --seed 5 -o "$T/line2-streamed.wav"
bad same_samples "$T/batch/0002.wav" "$T/line2-streamed.wav"
# --batch-size 0: auto (by free memory), said on the status line; the same takes
ok "$CLI" synth -m "$T/tiny" --batch-file "$T/lines.txt" --out-dir "$T/batch-auto" --batch-size 0 --max-new-frames 6 --seed 5 --codec-worker off
has "batch size auto: "; has "3 lines, batch size auto"
ok same_samples "$T/batch-auto/0002.wav" "$T/line2.wav"
bad "$CLI" synth -m "$T/tiny" --batch-file "$T/lines.txt" --out-dir "$T/b3" --batch-size -1; has "or 0 for auto"
bad "$CLI" synth -m "$T/tiny" --batch-file "$T/lines.txt" --max-new-frames 6; has "needs --out-dir"
bad "$CLI" synth -m "$T/tiny" --batch-file "$T/nope.txt" --out-dir "$T/b2"; has "cannot read batch file"
ok "$CLI" synth -m "$T/tiny" -t "Play it." --temperature 0 --max-new-frames 6 --play
has "first sample handed to PortAudio"
bad "$CLI" bench -m "$T/tiny" --arms eager:math,eager:flash,eager:efficient --frames 8 --warmup 2 --repeats 1 --json "$T/r.json" --md "$T/r.md" --csv "$T/r.csv" --wav-dir "$T/wavs"
has "1 of 3 arms could not run"
ok test -s "$T/r.json"; ok test -s "$T/wavs/eager_math.wav"
ok grep -q "reef-bench/14" "$T/r.json"
ok grep -q "\"weight_pages\": \"" "$T/r.json"   # a CPU bench says where its weights live
ok grep -q "roofline_fraction" "$T/r.json"
ok "$CLI" sdpa-bench --preset s1-mini --widths 128 --iters 3 --json "$T/sdpa.json" --md "$T/sdpa.md"
has "| active | 128 | 128 |"; has "| full | 128 | 8192 |"; has "slow transformer's attention only"
has "Fast decoder attention per frame"; has "efficient"
ok test -s "$T/sdpa.md"; ok grep -q "reef-sdpa-bench/1" "$T/sdpa.json"
ok "$CLI" sdpa-bench -m "$T/tiny" --widths 16 --iters 1 --warmup 0 --mask active --backends math --no-fast
has "config.json"; has "| active | 16 | 16 |"
bad "$CLI" sdpa-bench --preset s9-giant;                         has "unknown model preset"
bad "$CLI" sdpa-bench --preset s1-mini --widths 128,0;           has "width of 0"
bad "$CLI" sdpa-bench --preset s1-mini --widths 128,,512;        has "empty entry"
bad "$CLI" sdpa-bench --preset s1-mini --widths 1k;              has "not a whole number"
bad "$CLI" sdpa-bench --preset s1-mini --mask half;              has "--mask"
bad "$CLI" sdpa-bench --preset s1-mini --backends math,turbo;    has "turbo"
bad "$CLI" sdpa-bench -m "$T/nope";                              has "not found"
bad "$CLI" sdpa-bench -m "$T/a.npy";                             has "not found"
bad "$CLI" sdpa-bench;                                           has "--preset"
bad "$CLI" synth -m "$T/tiny" -t "" -o "$T/x.wav";              has "empty"
bad "$CLI" synth -m "$T/nope" -t "hi" -o "$T/x.wav";            has "not found"
bad "$CLI" synth -m "$T/tiny" -t "hi" -o "$T/missing/x.wav";    has "does not exist"
ok test ! -e "$T/missing"
# what this machine cannot run is refused before a model loads, with the engine's reason
bad "$CLI" synth -m "$T/tiny" -t "hi" --sdpa efficient -o "$T/y.wav"; has "'efficient' cannot run here"; has "CUDA-only"
lacks "^loaded"
bad "$CLI" synth -m "$T/tiny" -t "hi" --sdpa cudnn -o "$T/y.wav";     has "'cudnn' cannot run here"
bad "$CLI" synth -m "$T/tiny" -t "hi" --compile cuda-graph -o "$T/y.wav"; has "'cuda-graph' cannot run here"
# devices: what --device takes; this machine's CPU by its /proc/cpuinfo name; no GPU here
ok "$CLI" devices
has "^cpu  *$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//' | sed 's/[][\\.*^$]/\\&/g')"
has "^cuda  *not available: "; has "^mps  *not available: "
bad "$CLI" synth -m "$T/tiny" -t "hi" --device cuda:1 -o "$T/y.wav"; has "cannot run here"
bad "$CLI" synth -m "$T/tiny" -t "hi" --device cuda:x -o "$T/y.wav"; has "unknown value 'cuda:x'"
bad "$CLI" synth -m "$T/tiny" -t "hi" --device cpu:0 -o "$T/y.wav";  has "unknown value 'cpu:0'"
bad "$CLI" synth -m "$T/tiny" -t "hi" --device mps -o "$T/y.wav";    has "'mps' cannot run here"
# a bench arm this machine cannot run is refused before any work, with the reason
bad "$CLI" bench -m "$T/tiny" --arms eager:math,cuda-graph:math --frames 8 --warmup 2 --repeats 1 --no-audio
has "arm cuda-graph:math cannot run here"; has "needs a CUDA device"
lacks "^\[arm 1\]"   # no arm started: nothing was loaded or run
ok test ! -e "$T/y.wav"
bad "$CLI" bench -m "$T/tiny" --arms eager:turbo;               has "turbo"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
