#!/usr/bin/env bash
# Issue #47: CPU threads set in one load are undone by the next. In one process a model is loaded
# with 99 threads, then with "default" (0), and decoded at each (examples/threads_reload.cpp); a
# fresh process loads it with "default" only. The speed after 99 -> default must match the fresh
# start: their ratio (medians over ROUNDS alternating rounds) within 10 %, else exit 1. Also writes
# what 99 threads cost on this machine.
#   bench/threads_reload.sh MODEL_DIR [OUT_DIR] [ROUNDS]   (default bench/results/threads, 3 rounds)
# Env: REEF_THREADS_RELOAD (the program; default build/examples/reef_threads_reload),
#      REEF_STUDY_FRAMES (default 64), REEF_STUDY_REPEATS (default 3), REEF_STUDY_PRECISION (default bf16),
#      REEF_THREADS_HIGH (default 99).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
MODEL="${1:?usage: bench/threads_reload.sh MODEL_DIR [OUT_DIR] [ROUNDS]}"
OUT="${2:-$root/bench/results/threads}"
ROUNDS="${3:-3}"
PROG="${REEF_THREADS_RELOAD:-$root/build/examples/reef_threads_reload}"
FRAMES="${REEF_STUDY_FRAMES:-64}" REPEATS="${REEF_STUDY_REPEATS:-3}" PRECISION="${REEF_STUDY_PRECISION:-bf16}"
HIGH="${REEF_THREADS_HIGH:-99}"
[[ -x "$PROG" ]] || { echo "threads_reload: $PROG is not built (cmake --build build --target reef_threads_reload)" >&2; exit 1; }
# The count under test is the program's own: an OMP_NUM_THREADS from outside would be the "default".
unset OMP_NUM_THREADS MKL_NUM_THREADS
mkdir -p "$OUT"
log="$OUT/threads-reload.log"
: >"$log"
for ((r = 1; r <= ROUNDS; ++r)); do   # alternating, so a busy moment of the machine hits both
  echo "round $r fresh" >>"$log"
  "$PROG" "$MODEL" 0 "$FRAMES" "$REPEATS" "$PRECISION" >>"$log"
  echo "round $r reload" >>"$log"
  "$PROG" "$MODEL" "$HIGH,0" "$FRAMES" "$REPEATS" "$PRECISION" >>"$log"
done
python3 - "$log" "$OUT" "$HIGH" "$PRECISION" "$FRAMES" <<'PY'
import json, platform, re, statistics, sys
log, out, high, precision, frames = sys.argv[1:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
fresh, after, at_high, threads_after = [], [], [], []
kind = None
for line in open(log):
    if line.startswith("round"):
        kind, step = line.split()[2], 0
        continue
    m = dict(kv.split("=") for kv in line.split())
    fps = float(m["frames_per_s"])
    if kind == "fresh":
        fresh.append(fps)
    elif m["threads"] == high:
        at_high.append(fps)
    else:
        after.append(fps)
        threads_after.append(int(m["process_threads"]))
f, a, h = statistics.median(fresh), statistics.median(after), statistics.median(at_high)
ratio = a / f
result = {"cpu": cpu, "precision": precision, "frames": int(frames), "rounds": len(fresh),
          "fresh_default_fps": f, f"after_{high}_then_default_fps": a, f"at_{high}_fps": h,
          "ratio_reload_over_fresh": ratio, "process_threads_after_reload": max(threads_after), "ok": abs(ratio - 1) <= 0.10}
json.dump(result, open(f"{out}/threads-reload.json", "w"), indent=2)
with open(f"{out}/threads-reload.md", "w") as md:
    md.write(f"# CPU threads undone by a reload ({cpu}, {precision}, {frames} frames, medians of {len(fresh)} rounds)\n\n"
             f"| run | frames/s |\n|---|---:|\n| fresh start, default threads | {f:.1f} |\n"
             f"| {high} threads | {h:.1f} |\n| {high} threads, then reload with default | {a:.1f} |\n\n"
             f"Reload / fresh: **{ratio:.3f}** (within 10 %: {'yes' if result['ok'] else 'NO'}); "
             f"{max(threads_after)} process threads after the reload.\n")
print(open(f"{out}/threads-reload.md").read())
sys.exit(0 if result["ok"] else 1)
PY
