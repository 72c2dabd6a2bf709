#!/usr/bin/env bash
# Issue #27's project measurement: the 16 segments of bench/texts/project-16.txt (one per line)
# through `reef-cli synth --batch-file`, end to end (prefill, decode, codec, WAVs), once one by one
# (--batch-size 1: what the queue does without batching) and once per batch size in
# REEF_BATCH_SIZES, back to back on the same machine, REEF_BATCH_ROUNDS rounds interleaved. Every
# batch size makes the same audio (tst_synthesize_batch), so only the wall clock differs; the
# script checks that the WAVs' samples agree and writes a Markdown table.
#
# Usage: bench/batch_project.sh CLI MODEL OUT.md [extra synth flags, e.g. --precision bf16 --threads 2]
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 REEF_CLI MODEL_DIR OUT.md [synth flags]" >&2
    exit 2
fi
CLI="$1"; MODEL="$2"; OUT="$3"; shift 3
HERE="$(cd "$(dirname "$0")" && pwd)"
TEXT="${REEF_BATCH_TEXT:-$HERE/texts/project-16.txt}"
SIZES="${REEF_BATCH_SIZES:-4 8}"
ROUNDS="${REEF_BATCH_ROUNDS:-1}"
FRAMES="${REEF_BATCH_FRAMES:-48}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

run() {  # batch size, round -> seconds on stdout
    local b="$1" r="$2" dir="$WORK/b$1-r$2"
    shift 2
    local t0 t1
    t0=$(date +%s.%N)
    "$CLI" synth -m "$MODEL" --batch-file "$TEXT" --out-dir "$dir" --batch-size "$b" --max-new-frames "$FRAMES" \
        --seed 7 "$@" > "$WORK/log-b$b-r$r.txt" 2>&1 || { cat "$WORK/log-b$b-r$r.txt" >&2; exit 1; }
    t1=$(date +%s.%N)
    python3 -c "print(f'{$t1 - $t0:.2f}')"
}

declare -A secs
for r in $(seq 1 "$ROUNDS"); do
    for b in 1 $SIZES; do
        s=$(run "$b" "$r" "$@")
        secs["$b,$r"]="$s"
        echo "round $r, batch size $b: $s s" >&2
    done
done
# Same audio whatever the batch size (the WAV metadata aside).
python3 - "$WORK" "$SIZES" <<'PY'
import glob, os, sys, wave
work, sizes = sys.argv[1], sys.argv[2].split()
frames = lambda p: wave.open(p).readframes(1 << 30)
base = sorted(glob.glob(os.path.join(work, "b1-r1", "*.wav")))
for b in sizes:
    for p in base:
        q = os.path.join(work, f"b{b}-r1", os.path.basename(p))
        if frames(p) != frames(q):
            sys.exit(f"batch size {b}: {os.path.basename(p)} differs from the one-by-one run")
print(f"{len(base)} WAVs, the same samples at every batch size", file=sys.stderr)
PY
lines=$(grep -c . "$TEXT")
frames_total=$(grep -o "[0-9]* frames (" "$WORK/log-b1-r1.txt" | head -1 | cut -d' ' -f1)
# the audio the run made (the same at every batch size): the real-time factor is wall / audio seconds
audio_s=$(grep -o "[0-9.]* s of audio" "$WORK/log-b1-r1.txt" | tail -1 | cut -d' ' -f1)
{
    echo "# A project of $lines segments, batched and one by one"
    echo
    echo "\`reef-cli synth --batch-file $(basename "$TEXT") --max-new-frames $FRAMES --seed 7 $*\` on \`$(basename "$MODEL")\`,"
    echo "end to end from a cold start (model load, prefill, decode, codec, WAV files), wall clock, $ROUNDS round(s) interleaved;"
    echo "$frames_total frames, $audio_s s of audio in all, the same samples at every batch size. CPU kernels: ${REEF_CPU_TARGET:-the best target} (REEF_CPU_TARGET). $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs; $("$CLI" --version | head -1)."
    echo
    echo "| batch size | wall s (per round) | speed-up vs one by one | real-time factor (wall / audio) |"
    echo "|---:|---:|---:|---:|"
    for b in 1 $SIZES; do
        list=""; sum=0; base=0
        for r in $(seq 1 "$ROUNDS"); do
            list="$list${list:+, }${secs[$b,$r]}"
            sum=$(python3 -c "print($sum + ${secs[$b,$r]})")
            base=$(python3 -c "print($base + ${secs[1,$r]})")
        done
        echo "| $b | $list | $(python3 -c "print(f'{$base / $sum:.2f}x')") | $(python3 -c "print(f'{$sum / $ROUNDS / $audio_s:.3f}')") |"
    done
} > "$OUT"
cat "$OUT"
