#!/usr/bin/env bash
# Issue #44: weight-only int8 and int4 against the loaded precision, on one machine, in one run.
#   bench/quant_study.sh MODEL_DIR [OUT_DIR]        (default OUT_DIR: bench/results/cpu/quant)
# 1. speed: `reef-cli bench` with the arms eager:<sdpa>, eager:<sdpa>:int8 and eager:<sdpa>:int4[-gN] (the
#    same weights, quantized in memory), each also with the kernels forced to AVX2 where this CPU
#    runs AVX2, medians of REEF_STUDY_REPEATS interleaved repeats -> quant-bench.{md,json};
# 2. memory: `reef-cli quantize MODEL_DIR` into scratch folders, int8 and int4 (REEF_STUDY_WORK,
#    default a temp folder, removed at the end), then `reef-cli synth` of each folder under
#    /usr/bin/time: peak RSS of the whole process, each against the source;
# 3. with REEF_STUDY_CGROUP_GB=N and a writable memory cgroup (v2 or v1, as root): the folders again
#    under an N GB limit: what does not fit is refused before any work (with the hint to
#    quantize), what fits runs.
# Writes quant-study.md/json (the machine named). Exit 1 when a step fails.
# Env: REEF_CLI (default build/app/reef-cli), REEF_STUDY_THREADS (2), REEF_STUDY_PRECISION (bf16),
#      REEF_STUDY_FRAMES (64), REEF_STUDY_REPEATS (3), REEF_STUDY_SYNTH_FRAMES (8), REEF_STUDY_CGROUP_GB,
#      REEF_STUDY_INT4_GROUP (128; the tiny demo model needs 32), REEF_STUDY_BENCH (1; 0: memory only,
#      for models whose three copies would not fit the machine at once, as the bench holds them),
#      REEF_STUDY_EMBEDDINGS (0; 1: the quantized folders quantize the embedding tables too),
#      REEF_STUDY_SDPA (auto; the bench arms' SDPA policy, e.g. reef: Reef's own CPU decode attention).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
MODEL="${1:?usage: bench/quant_study.sh MODEL_DIR [OUT_DIR]}"
OUT="${2:-$root/bench/results/cpu/quant}"
CLI="${REEF_CLI:-$root/build/app/reef-cli}"
THREADS="${REEF_STUDY_THREADS:-2}" PRECISION="${REEF_STUDY_PRECISION:-bf16}"
FRAMES="${REEF_STUDY_FRAMES:-64}" REPEATS="${REEF_STUDY_REPEATS:-3}" SYNTH_FRAMES="${REEF_STUDY_SYNTH_FRAMES:-8}"
GROUP="${REEF_STUDY_INT4_GROUP:-128}"
[[ -x /usr/bin/time ]] || { echo "quant_study: /usr/bin/time is not installed (Debian: time)" >&2; exit 77; }
mkdir -p "$OUT"
WORK="${REEF_STUDY_WORK:-$(mktemp -d)}"
[[ -n ${REEF_STUDY_WORK:-} ]] || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK" && rm -rf "$WORK/model-int8" "$WORK/model-int4"

int4=":int4"; [[ $GROUP == 128 ]] || int4=":int4-g$GROUP"
SDPA="${REEF_STUDY_SDPA:-auto}"
arms="eager:$SDPA,eager:$SDPA:int8,eager:$SDPA$int4"
grep -qw avx2 /proc/cpuinfo 2>/dev/null && arms+=",eager:$SDPA@avx2,eager:$SDPA:int8@avx2,eager:$SDPA$int4@avx2"
if [[ ${REEF_STUDY_BENCH:-1} != 0 ]]; then
  "$CLI" bench -m "$MODEL" --precision "$PRECISION" --threads "$THREADS" --arms "$arms" --frames "$FRAMES" \
    --repeats "$REPEATS" --no-audio --md "$OUT/quant-bench.md" --json "$OUT/quant-bench.json" >"$OUT/quant-bench.log" 2>&1
fi

emb=(); [[ ${REEF_STUDY_EMBEDDINGS:-0} == 0 ]] || emb=(--embeddings)
"$CLI" quantize "$MODEL" "$WORK/model-int8" "${emb[@]}" --quiet >"$OUT/quantize.log"
"$CLI" quantize "$MODEL" "$WORK/model-int4" --format int4 --group "$GROUP" "${emb[@]}" --quiet >>"$OUT/quantize.log"
synth() {  # synth FOLDER TAG [cgroup-procs-file]
  local cmd=("$CLI" synth -m "$1" -t "Reef measures the memory of quantized weights." --precision "$PRECISION"
             --threads "$THREADS" --temperature 0 --max-new-frames "$SYNTH_FRAMES" -o "$OUT/$2.wav")
  if [[ -n ${3:-} ]]; then
    bash -c 'echo $$ > "$0" && exec "$@"' "$3" /usr/bin/time -v "${cmd[@]}" >"$OUT/$2.log" 2>&1 || true
  else
    /usr/bin/time -v "${cmd[@]}" >"$OUT/$2.log" 2>&1 || true
  fi
}
synth "$MODEL" synth-source
synth "$WORK/model-int8" synth-int8
synth "$WORK/model-int4" synth-int4

cg="" cg_dir=""
if [[ -n ${REEF_STUDY_CGROUP_GB:-} ]]; then
  limit=$((REEF_STUDY_CGROUP_GB * 1024 * 1024 * 1024))
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]] && mkdir -p /sys/fs/cgroup/reef-quant-study 2>/dev/null &&
     echo "$limit" >/sys/fs/cgroup/reef-quant-study/memory.max 2>/dev/null; then
    cg_dir=/sys/fs/cgroup/reef-quant-study
  elif mkdir -p /sys/fs/cgroup/memory/reef-quant-study 2>/dev/null &&
       echo "$limit" >/sys/fs/cgroup/memory/reef-quant-study/memory.limit_in_bytes 2>/dev/null; then
    cg_dir=/sys/fs/cgroup/memory/reef-quant-study
  else
    echo "quant_study: no writable memory cgroup here: the limited runs are left out" >&2
  fi
  if [[ -n $cg_dir ]]; then
    synth "$MODEL" cgroup-source "$cg_dir/cgroup.procs"
    synth "$WORK/model-int8" cgroup-int8 "$cg_dir/cgroup.procs"
    synth "$WORK/model-int4" cgroup-int4 "$cg_dir/cgroup.procs"
    rmdir "$cg_dir" 2>/dev/null || true
    cg="$REEF_STUDY_CGROUP_GB"
  fi
fi

python3 - "$OUT" "$MODEL" "$PRECISION" "$THREADS" "$cg" "$int4" "$SDPA" <<'PY'
import json, os, platform, re, sys
out, model, precision, threads, cg, int4, sdpa = sys.argv[1:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
flags = next((l for l in open("/proc/cpuinfo") if l.startswith("flags")), "")
isa = ", ".join(f for f in ("avx2", "avx512f", "avx512_bf16", "avx512_vnni", "amx_tile") if re.search(rf"\b{f}\b", flags))
has_bench = os.path.exists(f"{out}/quant-bench.json")
bench = json.load(open(f"{out}/quant-bench.json")) if has_bench else {"arms": []}
arms = {a["arm"]: a for a in bench["arms"]}
def fps(name): return arms[name]["warm_frames_per_s"] if arms.get(name, {}).get("ran") else None
formats = {"int8": ":int8", "int4": int4}
speed = {}
plain = f"eager:{sdpa}"
for base in (plain, plain + "@avx2"):
    if not fps(base): continue
    row = {"float_fps": fps(base), "float_roofline": arms[base]["roofline_fraction"],
           "float_bytes_per_frame": arms[base]["bytes_per_frame"], "kernels": arms[base]["cpu_kernels"]}
    for fmt, suffix in formats.items():
        q = base.replace(plain, plain + suffix)
        if fps(q):
            row[fmt] = {"fps": fps(q), "ratio": fps(q) / fps(base), "roofline": arms[q]["roofline_fraction"],
                        "bytes_per_frame": arms[q]["bytes_per_frame"], "kernels": arms[q]["cpu_kernels"],
                        "weights": arms[q].get("weights", fmt)}
    speed[base] = row
def log(name):
    p = f"{out}/{name}.log"
    return open(p).read() if os.path.exists(p) else ""
def rss(text):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return int(m.group(1)) * 1024 if m else None
def status(text):
    m = re.search(r"Exit status: (\d+)", text)
    return int(m.group(1)) if m else None
memory = {}
for tag in ("source", "int8", "int4"):
    t = log(f"synth-{tag}")
    memory[tag] = {"peak_rss": rss(t), "exit": status(t)}
for tag in ("int8", "int4"):
    if memory["source"]["peak_rss"] and memory[tag]["peak_rss"]:
        memory[tag]["ratio"] = memory[tag]["peak_rss"] / memory["source"]["peak_rss"]
limited = None
if cg:
    limited = {"limit_gb": int(cg)}
    for tag in ("source", "int8", "int4"):
        t = log(f"cgroup-{tag}")
        limited[tag] = {"exit": status(t), "peak_rss": rss(t),
                        "refusal": next((l for l in t.splitlines() if l.startswith("error:")), ""),
                        "hint": next((l for l in t.splitlines() if l.startswith("hint:")), "")}
result = {"cpu": cpu, "isa": isa, "model": model, "precision": precision, "threads": int(threads),
          "int4": int4.lstrip(":"), "speed": speed, "memory": memory, "cgroup": limited}
json.dump(result, open(f"{out}/quant-study.json", "w"), indent=2)
gb = lambda b: f"{b / 1e9:.2f} GB" if b else "-"
md = [f"# int8 and int4 weights against {precision} (issue #44)", "",
      f"- CPU: {cpu} ({isa}), {threads} threads; model {model}"]
if has_bench:
    md += [f"- speed: `reef-cli bench` arms on the same weights, medians of interleaved repeats (quant-bench.md)", "",
           "| kernels | format | frames/s | / float | % roofline | bytes/frame |",
           "|---|---|---:|---:|---:|---:|"]
else:
    md += ["- speed: not measured in this run (REEF_STUDY_BENCH=0)"]
for base, s in speed.items():
    forced = " (forced)" if "@" in base else ""
    md.append(f"| {s['kernels']}{forced} | {precision} | {s['float_fps']:.2f} | 1.00x | {100*s['float_roofline']:.1f}% | "
              f"{gb(s['float_bytes_per_frame'])} |")
    for fmt in formats:
        if fmt in s:
            q = s[fmt]
            md.append(f"| {q['kernels']}{forced} | {q['weights']} | {q['fps']:.2f} | {q['ratio']:.2f}x | "
                      f"{100*q['roofline']:.1f}% | {gb(q['bytes_per_frame'])} |")
md += ["", "- memory, `reef-cli synth` peak RSS: source " + gb(memory["source"]["peak_rss"]) + "".join(
       f", {tag} {gb(memory[tag]['peak_rss'])}" + (f" ({100*memory[tag]['ratio']:.1f} %)" if "ratio" in memory[tag] else "")
       for tag in ("int8", "int4"))]
if limited:
    for tag in ("source", "int8", "int4"):
        l = limited[tag]
        md.append(f"- under a {limited['limit_gb']} GiB memory cgroup, {tag}: exit {l['exit']}"
                  + (f" (`{l['refusal']}` / `{l['hint']}`)" if l["refusal"] else "") + f", peak RSS {gb(l['peak_rss'])}")
open(f"{out}/quant-study.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
bad = [tag for tag in ("source", "int8", "int4") if memory[tag]["exit"] != 0]
if (has_bench and not speed) or bad: sys.exit(f"quant_study: incomplete ({'no speed rows' if not speed else ', '.join(bad)})")
PY
