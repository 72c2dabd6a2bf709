#!/usr/bin/env bash
# Issue #44: weight-only int8 against the loaded precision, on one machine, in one run.
#   bench/int8_study.sh MODEL_DIR [OUT_DIR]        (default OUT_DIR: bench/results/cpu/int8)
# 1. speed: `reef-cli bench` with the arms eager:auto and eager:auto:int8 (the same weights,
#    quantized in memory), each also with the kernels forced to AVX2 where this CPU runs AVX2, medians
#    of REEF_STUDY_REPEATS interleaved repeats -> int8-bench.{md,json};
# 2. memory: `reef-cli quantize MODEL_DIR` into a scratch folder (REEF_STUDY_WORK, default a temp
#    folder, removed at the end), then `reef-cli synth` of each folder under /usr/bin/time: peak RSS
#    of the whole process, int8 against the source;
# 3. with REEF_STUDY_CGROUP_GB=N and a writable memory cgroup (v2 or v1, as root): both folders
#    again under an N GB limit: the source is refused before any work (with the hint to quantize),
#    the int8 copy runs.
# Writes int8-study.md/json (the machine named). Exit 1 when a step fails.
# Env: REEF_CLI (default build/app/reef-cli), REEF_STUDY_THREADS (2), REEF_STUDY_PRECISION (bf16),
#      REEF_STUDY_FRAMES (64), REEF_STUDY_REPEATS (3), REEF_STUDY_SYNTH_FRAMES (8), REEF_STUDY_CGROUP_GB.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
MODEL="${1:?usage: bench/int8_study.sh MODEL_DIR [OUT_DIR]}"
OUT="${2:-$root/bench/results/cpu/int8}"
CLI="${REEF_CLI:-$root/build/app/reef-cli}"
THREADS="${REEF_STUDY_THREADS:-2}" PRECISION="${REEF_STUDY_PRECISION:-bf16}"
FRAMES="${REEF_STUDY_FRAMES:-64}" REPEATS="${REEF_STUDY_REPEATS:-3}" SYNTH_FRAMES="${REEF_STUDY_SYNTH_FRAMES:-8}"
[[ -x /usr/bin/time ]] || { echo "int8_study: /usr/bin/time is not installed (Debian: time)" >&2; exit 77; }
mkdir -p "$OUT"
WORK="${REEF_STUDY_WORK:-$(mktemp -d)}"
[[ -n ${REEF_STUDY_WORK:-} ]] || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK" && rm -rf "$WORK/model-int8"

arms="eager:auto,eager:auto:int8"
grep -qw avx2 /proc/cpuinfo 2>/dev/null && arms+=",eager:auto@avx2,eager:auto:int8@avx2"
"$CLI" bench -m "$MODEL" --precision "$PRECISION" --threads "$THREADS" --arms "$arms" --frames "$FRAMES" \
  --repeats "$REPEATS" --no-audio --md "$OUT/int8-bench.md" --json "$OUT/int8-bench.json" >"$OUT/int8-bench.log" 2>&1

"$CLI" quantize "$MODEL" "$WORK/model-int8" --quiet >"$OUT/quantize.log"
synth() {  # synth FOLDER TAG [cgroup-procs-file]
  local cmd=("$CLI" synth -m "$1" -t "Reef measures the memory of int8 weights." --precision "$PRECISION"
             --threads "$THREADS" --temperature 0 --max-new-frames "$SYNTH_FRAMES" -o "$OUT/$2.wav")
  if [[ -n ${3:-} ]]; then
    bash -c 'echo $$ > "$0" && exec "$@"' "$3" /usr/bin/time -v "${cmd[@]}" >"$OUT/$2.log" 2>&1 || true
  else
    /usr/bin/time -v "${cmd[@]}" >"$OUT/$2.log" 2>&1 || true
  fi
}
synth "$MODEL" synth-source
synth "$WORK/model-int8" synth-int8

cg="" cg_dir=""
if [[ -n ${REEF_STUDY_CGROUP_GB:-} ]]; then
  limit=$((REEF_STUDY_CGROUP_GB * 1024 * 1024 * 1024))
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]] && mkdir -p /sys/fs/cgroup/reef-int8-study 2>/dev/null &&
     echo "$limit" >/sys/fs/cgroup/reef-int8-study/memory.max 2>/dev/null; then
    cg_dir=/sys/fs/cgroup/reef-int8-study
  elif mkdir -p /sys/fs/cgroup/memory/reef-int8-study 2>/dev/null &&
       echo "$limit" >/sys/fs/cgroup/memory/reef-int8-study/memory.limit_in_bytes 2>/dev/null; then
    cg_dir=/sys/fs/cgroup/memory/reef-int8-study
  else
    echo "int8_study: no writable memory cgroup here: the limited runs are left out" >&2
  fi
  if [[ -n $cg_dir ]]; then
    synth "$MODEL" cgroup-source "$cg_dir/cgroup.procs"
    synth "$WORK/model-int8" cgroup-int8 "$cg_dir/cgroup.procs"
    rmdir "$cg_dir" 2>/dev/null || true
    cg="$REEF_STUDY_CGROUP_GB"
  fi
fi

python3 - "$OUT" "$MODEL" "$PRECISION" "$THREADS" "$cg" <<'PY'
import json, os, platform, re, sys
out, model, precision, threads, cg = sys.argv[1:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
flags = next((l for l in open("/proc/cpuinfo") if l.startswith("flags")), "")
isa = ", ".join(f for f in ("avx2", "avx512f", "avx512_bf16", "avx512_vnni", "amx_tile") if re.search(rf"\b{f}\b", flags))
bench = json.load(open(f"{out}/int8-bench.json"))
arms = {a["arm"]: a for a in bench["arms"]}
def fps(name): return arms[name]["warm_frames_per_s"] if arms.get(name, {}).get("ran") else None
rows, speed = [], {}
for base in ("eager:auto", "eager:auto@avx2"):
    q = base.replace("eager:auto", "eager:auto:int8")
    if fps(base) and fps(q):
        speed[base] = {"float_fps": fps(base), "int8_fps": fps(q), "ratio": fps(q) / fps(base),
                       "float_roofline": arms[base]["roofline_fraction"], "int8_roofline": arms[q]["roofline_fraction"],
                       "float_bytes_per_frame": arms[base]["bytes_per_frame"], "int8_bytes_per_frame": arms[q]["bytes_per_frame"],
                       "int8_kernels": arms[q]["cpu_kernels"]}
def log(name):
    p = f"{out}/{name}.log"
    return open(p).read() if os.path.exists(p) else ""
def rss(text):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return int(m.group(1)) * 1024 if m else None
def status(text):
    m = re.search(r"Exit status: (\d+)", text)
    return int(m.group(1)) if m else None
src, q = log("synth-source"), log("synth-int8")
memory = {"source_peak_rss": rss(src), "int8_peak_rss": rss(q), "source_exit": status(src), "int8_exit": status(q)}
if memory["source_peak_rss"] and memory["int8_peak_rss"]:
    memory["ratio"] = memory["int8_peak_rss"] / memory["source_peak_rss"]
limited = None
if cg:
    a, b = log("cgroup-source"), log("cgroup-int8")
    refusal = next((l for l in a.splitlines() if l.startswith("error:")), "")
    hint = next((l for l in a.splitlines() if l.startswith("hint:")), "")
    limited = {"limit_gb": int(cg), "source_exit": status(a), "source_refusal": refusal, "source_hint": hint,
               "source_peak_rss": rss(a), "int8_exit": status(b), "int8_peak_rss": rss(b)}
result = {"cpu": cpu, "isa": isa, "model": model, "precision": precision, "threads": int(threads),
          "speed": speed, "memory": memory, "cgroup": limited}
json.dump(result, open(f"{out}/int8-study.json", "w"), indent=2)
gb = lambda b: f"{b / 1e9:.2f} GB" if b else "-"
md = [f"# int8 weights against {precision} (issue #44)", "",
      f"- CPU: {cpu} ({isa}), {threads} threads; model {model}",
      f"- speed: `reef-cli bench` arms on the same weights, medians of interleaved repeats (int8-bench.md)", "",
      "| kernels | float frames/s | int8 frames/s | int8 / float | float % roofline | int8 % roofline | bytes/frame float -> int8 |",
      "|---|---:|---:|---:|---:|---:|---|"]
for base, s in speed.items():
    md.append(f"| {s['int8_kernels']}{' (forced)' if '@' in base else ''} | {s['float_fps']:.2f} | {s['int8_fps']:.2f} | "
              f"{s['ratio']:.2f}x | {100*s['float_roofline']:.1f}% | {100*s['int8_roofline']:.1f}% | "
              f"{gb(s['float_bytes_per_frame'])} -> {gb(s['int8_bytes_per_frame'])} |")
md += ["", f"- memory, `reef-cli synth` peak RSS: source {gb(memory['source_peak_rss'])}, int8 {gb(memory['int8_peak_rss'])}"
       + (f" ({100*memory['ratio']:.1f} %)" if "ratio" in memory else "")]
if limited:
    md += [f"- under a {limited['limit_gb']} GiB memory cgroup: source exit {limited['source_exit']} "
           f"(`{limited['source_refusal']}` / `{limited['source_hint']}`, peak RSS {gb(limited['source_peak_rss'])}); "
           f"int8 exit {limited['int8_exit']}, peak RSS {gb(limited['int8_peak_rss'])}"]
open(f"{out}/int8-study.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
bad = [k for k in ("source_exit", "int8_exit") if memory[k] != 0]
if not speed or bad: sys.exit(f"int8_study: incomplete ({'no speed pairs' if not speed else ', '.join(bad)})")
PY
