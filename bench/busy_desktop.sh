#!/usr/bin/env bash
# A desktop CPU with other programs busy (the thread governor, docs/decode-performance.md "A busy
# desktop"): `reef-cli generate` of one text with the governor on (--adaptive-threads on, the
# default), off (every frame on THREADS threads) and on one thread, first on an idle machine, then
# with HOGS busy loops (`yes`) running beside it; ROUNDS alternating rounds of each, so a slow spell
# of the machine hits every configuration. Writes busy-desktop.{tsv,md,json} (medians, ratios, the
# CPU named) and checks that every run made the same codes: the governor changes speed, not takes.
#   bench/busy_desktop.sh MODEL_DIR [OUT_DIR] [ROUNDS]   (default bench/results/busy, 3 rounds)
# Env: REEF_CLI (default build/app/reef-cli), REEF_STUDY_FRAMES (default 300), REEF_STUDY_PRECISION
#      (default bf16), REEF_BUSY_THREADS (default 2), REEF_BUSY_HOGS (default 1).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
MODEL="${1:?usage: bench/busy_desktop.sh MODEL_DIR [OUT_DIR] [ROUNDS]}"
OUT="${2:-$root/bench/results/busy}"
ROUNDS="${3:-3}"
CLI="${REEF_CLI:-$root/build/app/reef-cli}"
FRAMES="${REEF_STUDY_FRAMES:-300}" PRECISION="${REEF_STUDY_PRECISION:-bf16}"
THREADS="${REEF_BUSY_THREADS:-2}" HOGS="${REEF_BUSY_HOGS:-1}"
TEXT="Reef measures which attention backend decodes fish-speech fastest, and then it reads a whole chapter aloud to everyone who listens."
[[ -x "$CLI" ]] || { echo "busy_desktop: $CLI is not built" >&2; exit 1; }
unset OMP_NUM_THREADS MKL_NUM_THREADS   # the thread counts under test are the runs' own
mkdir -p "$OUT/codes"
log="$OUT/busy-desktop.log" tsv="$OUT/busy-desktop.tsv"
: >"$log"
printf 'load\tconfig\tround\twarm_fps\twall_fps\tdecode_threads\n' >"$tsv"
hogs=()
stop_hogs() { ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null; hogs=(); }
trap stop_hogs EXIT

one() {  # load config round flags...
  local load=$1 config=$2 round=$3; shift 3
  local out="$OUT/codes/$load-$config-$round.npy" text
  text="$("$CLI" generate -m "$MODEL" --precision "$PRECISION" --max-new-frames "$FRAMES" --temperature 0 \
    --text "$TEXT" -o "$out" "$@" 2>&1)" || { echo "$text" >&2; exit 1; }
  { echo "== $load $config round $round: $*"; echo "$text"; } >>"$log"
  local warm wall split
  warm="$(sed -n 's/^warm \([0-9.]*\) frames\/s.*/\1/p' <<<"$text")"
  wall="$(sed -n 's/^generation [0-9.]* ms (\([0-9.]*\) frames\/s wall.*/\1/p' <<<"$text")"
  split="$(sed -n 's/^decode threads: \(.*\) (fewer.*/\1/p' <<<"$text")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$load" "$config" "$round" "$warm" "${wall:-$warm}" "${split:-one count}" >>"$tsv"
}

for load in idle busy; do
  if [[ $load == busy ]]; then
    for ((h = 0; h < HOGS; ++h)); do yes >/dev/null & hogs+=($!); done
  fi
  for ((r = 1; r <= ROUNDS; ++r)); do
    one "$load" governor "$r" --threads "$THREADS" --adaptive-threads on
    one "$load" fixed "$r" --threads "$THREADS" --adaptive-threads off
    one "$load" one-thread "$r" --threads 1 --adaptive-threads off
  done
  stop_hogs
done

python3 - "$tsv" "$OUT" "$THREADS" "$HOGS" "$PRECISION" "$FRAMES" "$MODEL" <<'PY'
import csv, glob, json, os, platform, statistics, sys
tsv, out, threads, hogs, precision, frames, model = sys.argv[1:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
rows = list(csv.DictReader(open(tsv), delimiter="\t"))
med = {}
for load in ("idle", "busy"):
    for config in ("governor", "fixed", "one-thread"):
        rs = [r for r in rows if r["load"] == load and r["config"] == config]
        med[(load, config)] = {k: statistics.median(float(r[k]) for r in rs) for k in ("warm_fps", "wall_fps")}
codes = sorted(glob.glob(f"{out}/codes/*.npy"))
first = open(codes[0], "rb").read()
same = all(open(c, "rb").read() == first for c in codes)
result = {"cpu": cpu, "cpus": os.cpu_count(), "threads": int(threads), "hogs": int(hogs), "precision": precision,
          "frames": int(frames), "model": model, "rounds": len(rows) // 6, "same_codes": same,
          "medians": {f"{l}/{c}": v for (l, c), v in med.items()},
          "busy_governor_over_fixed_wall": med[("busy", "governor")]["wall_fps"] / med[("busy", "fixed")]["wall_fps"],
          "idle_governor_over_fixed_wall": med[("idle", "governor")]["wall_fps"] / med[("idle", "fixed")]["wall_fps"]}
json.dump(result, open(f"{out}/busy-desktop.json", "w"), indent=2)
with open(f"{out}/busy-desktop.md", "w") as md:
    md.write(f"# Decoding on a busy desktop ({cpu}, {os.cpu_count()} CPUs, {precision}, {frames} greedy frames, "
             f"medians of {result['rounds']} alternating rounds)\n\n"
             f"Busy: {hogs} busy loop(s) (`yes`) beside the decode. governor: `--threads {threads}` with the thread "
             f"governor (the default); fixed: `--threads {threads} --adaptive-threads off`; one thread: `--threads 1`.\n\n"
             "| machine | configuration | warm frames/s | frames/s wall (prefill included) |\n|---|---|---:|---:|\n")
    for (l, c), v in med.items():
        md.write(f"| {l} | {c} | {v['warm_fps']:.1f} | {v['wall_fps']:.1f} |\n")
    md.write(f"\nBusy, governor / fixed (wall): **{result['busy_governor_over_fixed_wall']:.2f}x**; idle: "
             f"{result['idle_governor_over_fixed_wall']:.2f}x. Every run's codes identical: "
             f"{'yes' if same else 'NO'}. Each run's thread split: busy-desktop.tsv.\n")
print(open(f"{out}/busy-desktop.md").read())
sys.exit(0 if same else 1)
PY
