#!/usr/bin/env bash
# The codec worker study (issue #14): `reef-cli synth` on s1-mini dimensions, bf16, 64 greedy
# frames, streamed in 16-frame chunks, with the codec on its worker (idle or normal priority, 1 or
# 2 codec threads), inline between frames (--codec-worker off), and not streamed at all
# (--stream-chunk 0: frame times without streaming audio). Decode runs on both cores (--threads 2:
# no core is left for the codec) and on one (--threads 1, the "1core-" configurations: the other
# core is the codec's, which is where overlap can be measured on a 2-core machine). Configurations
# interleave within each round. The machine may be shared: every run records how much CPU other
# processes used while it ran (busy time from /proc/stat minus the run's own CPU time, as a share
# of all cores), and the summary gives medians over all runs and over the quiet ones (others under
# 10 %). Each run waits for a quiet moment first (up to REEF_STUDY_QUIET_WAIT seconds, default 600).
#   bench/codec_worker_study.sh [OUT_DIR] [ROUNDS]   (default bench/results/cpu, 3 rounds)
# Set REEF_CLI_BEFORE to a reef-cli built before the worker to add its runs ("before"), and
# REEF_STUDY_ONLY=PREFIX to run only the configurations whose name starts with PREFIX, and
# REEF_STUDY_TAG=T to keep the runs in codec-worker-s1mini-bf16-T.tsv/.md (one binary per file;
# ROUNDS 0 only rewrites the summary).
# Appends to OUT_DIR/codec-worker-s1mini-bf16.tsv (every run) and rewrites .md (medians).
set -euo pipefail
source "$(dirname "$0")/study_env.sh"
ROUNDS="${2:-3}"
TSV="$OUT/codec-worker-s1mini-bf16${REEF_STUDY_TAG:+-$REEF_STUDY_TAG}.tsv"
TEXT="The quick brown fox jumps over the lazy dog, and then it runs far away into the forest."
common=(-m "$MODEL" --precision bf16 -t "$TEXT" --max-new-frames "${REEF_STUDY_FRAMES:-64}" --temperature 0 -o /tmp/reef-codec-study.wav)
names=(inline worker-idle-t1 worker-idle-t2 worker-normal-t1 no-stream 1core-inline 1core-worker 1core-no-stream)
flags=("--threads 2 --stream-chunk 16 --codec-worker off"
       "--threads 2 --stream-chunk 16 --codec-threads 1 --codec-priority idle"
       "--threads 2 --stream-chunk 16 --codec-threads 2 --codec-priority idle"
       "--threads 2 --stream-chunk 16 --codec-threads 1 --codec-priority normal"
       "--threads 2 --stream-chunk 0"
       "--threads 1 --stream-chunk 16 --codec-worker off"
       "--threads 1 --stream-chunk 16 --codec-threads 1 --codec-priority normal"
       "--threads 1 --stream-chunk 0")
[[ -f "$TSV" ]] || printf 'config\tround\tload\tothers_cpu\tfirst_audio_ms\twarm_fps\tcodec_ms\ttotal_ms\trtf\tgeneration_ms\twall_fps\tcodec_wait_ms\tframes\n' >"$TSV"
run() {  # name round cli flags...
  python3 - "$@" >>"$TSV" <<'PY'
import os, re, resource, subprocess, sys, time
name, rnd, cli, *flags = sys.argv[1:]
common = os.environ["STUDY_COMMON"].split("\x1f")
def busy():  # all CPUs' non-idle time, seconds
    v = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")
# Start only when the machine is quiet (other processes under 10 % of the CPUs over 3 s), waiting
# up to REEF_STUDY_QUIET_WAIT seconds (default 600); the run records what it got either way.
waited = 0.0
while waited < float(os.environ.get("REEF_STUDY_QUIET_WAIT", "600")):
    b, t = busy(), os.times().elapsed
    time.sleep(3)
    if (busy() - b) / ((os.times().elapsed - t) * os.cpu_count()) < 0.10:
        break
    waited += 3
load = open("/proc/loadavg").read().split()[0]
r0, b0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), os.times().elapsed
out = subprocess.run([cli, "synth", *common, *flags], capture_output=True, text=True).stderr
r1, b1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), os.times().elapsed
own = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
others = max(0.0, (b1 - b0) - own) / ((t1 - t0) * os.cpu_count())
def g(p):
    m = re.search(p, out)
    return m.group(1) if m else ""
print("\t".join([name, rnd, load, f"{others:.2f}", g(r"first audio ([\d.]+) ms"), g(r"warm ([\d.]+) frames/s"),
                 g(r"codec ([\d.]+) ms"), g(r"total ([\d.]+) ms"), g(r"RTF ([\d.]+)"), g(r"generation ([\d.]+) ms"),
                 g(r"\(([\d.]+) frames/s wall"), g(r"waited for the codec ([\d.]+) ms"), g(r"frames (\d+) ")]))
PY
}
STUDY_COMMON=$(IFS=$'\x1f'; echo "${common[*]}")
export STUDY_COMMON
for ((r = 0; r < ROUNDS; ++r)); do
  [[ -n "${REEF_CLI_BEFORE:-}" ]] && run before "$r" "$REEF_CLI_BEFORE" --threads 2 --stream-chunk 16
  for i in "${!names[@]}"; do
    # REEF_STUDY_ONLY=PREFIX runs only the configurations whose name starts with it (e.g. 1core-)
    [[ -n "${REEF_STUDY_ONLY:-}" && "${names[$i]}" != "${REEF_STUDY_ONLY}"* ]] && continue
    # shellcheck disable=SC2086  # the flags are words
    run "${names[$i]}" "$r" "$CLI" ${flags[$i]}
  done
done
python3 - "$TSV" >"${TSV%.tsv}.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
cols = [("first_audio_ms", "first audio ms"), ("warm_fps", "warm frames/s"), ("wall_fps", "wall frames/s"),
        ("codec_ms", "codec ms"), ("codec_wait_ms", "codec wait ms"), ("total_ms", "total ms"), ("rtf", "RTF")]
def table(title, keep):
    print(f"{title}\n")
    print("| configuration | runs | " + " | ".join(c[1] for c in cols) + " |")
    print("|---|---:|" + "---:|" * len(cols))
    for name in dict.fromkeys(r["config"] for r in rows):
        rs = [r for r in rows if r["config"] == name and keep(r)]
        if not rs:
            continue
        def med(k):
            v = [float(r[k]) for r in rs if r[k]]
            return f"{statistics.median(v):.2f}" if v else "–"
        print(f"| {name} | {len(rs)} | " + " | ".join(med(c[0]) for c in cols) + " |")
    print()
table("Medians over the quiet runs (other processes used < 10 % of the CPUs meanwhile):",
      lambda r: float(r["others_cpu"]) < 0.10)
table("Medians over all runs:", lambda r: True)
PY
cat "${TSV%.tsv}.md"
