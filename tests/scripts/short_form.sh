#!/usr/bin/env bash
# The CI short form of a script the README names (ctest tst_script_<case>, label scripts): the
# script itself, end to end, on the tiny demo model with the fewest frames and repeats, then a check
# that it wrote the files it promises. Exits 77 when something the script needs is not installed.
#   short_form.sh CASE REEF_CLI TMP_DIR [BUILD_DIR]
# CASE: batch_project busy_desktop codec_worker_study compiled_study cpu_study cpu_targets decode_attention_speed
#       fish_speech_eager quant_study serve_bench study_1337 study_1337_arms screenshots threads_reload update_translations
# Env: REEF_SCRIPT_PYTHON (the venv Python with torch, for the .py scripts).
set -euo pipefail
case_=$1 cli=$2 tmp=$3 build=${4:-}
root="$(cd "$(dirname "$0")/../.." && pwd)"
T="$tmp/$case_"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
nonempty() { local f; for f in "$@"; do [[ -s "$f" ]] || fail "${f#"$T"/} is missing or empty"; done; }
has() { grep -q -- "$2" "$1" || fail "${1#"$T"/} lacks '$2'"; }
rm -rf "$T" && mkdir -p "$T"
start=$SECONDS
command -v python3 >/dev/null || skip "python3 is not installed (the scripts and checks use it)"

tiny() {  # the tiny demo model, S2 layout as the studies' s1-mini one
  "$cli" demo-model "$T/tiny" --preset tiny --layout s2 >/dev/null
}
study() {  # the env of a short study run (bench/study_env.sh): tiny model, one thread, few frames
  export REEF_CLI="$cli" REEF_STUDY_MODEL="$T/tiny" REEF_STUDY_THREADS=1 REEF_STUDY_FRAMES=8 REEF_STUDY_WARMUP=2 \
    REEF_STUDY_REPEATS=1 REEF_STUDY_AOT=0 REEF_STUDY_CONTEXTS=64,128 REEF_STUDY_SDPA_WIDTHS=128
}
arms_ran() {  # bench JSON, minimum number of arms: every arm ran
  python3 - "$1" "$2" <<'PY'
import json, sys
arms = json.load(open(sys.argv[1])).get("arms") or sys.exit(f"{sys.argv[1]}: no arms")
bad = [f"{a['arm']}: {a.get('error')}" for a in arms if not a.get("ran")]
if bad: sys.exit(f"{sys.argv[1]}: arms did not run: " + "; ".join(bad))
if len(arms) < int(sys.argv[2]): sys.exit(f"{sys.argv[1]}: {len(arms)} arms, expected {sys.argv[2]}")
PY
}

case $case_ in
batch_project)   # 3 segments, one by one and in a batch of 2, 8 frames each
  tiny
  printf '%s\n' "The first segment." "A second, longer segment of the project." "Third." >"$T/text.txt"
  REEF_BATCH_TEXT="$T/text.txt" REEF_BATCH_SIZES=2 REEF_BATCH_FRAMES=8 \
    bash "$root/bench/batch_project.sh" "$cli" "$T/tiny" "$T/project.md" --threads 1
  nonempty "$T/project.md"
  has "$T/project.md" "^# A project of 3 segments"
  has "$T/project.md" "^| 1 | " && has "$T/project.md" "^| 2 | "
  ;;
busy_desktop)   # one round of each configuration, idle and busy, 16 frames: the files, and the same codes
  # everywhere (the script's own check); the speeds are a quiet machine's verdict, not CI's
  tiny
  REEF_CLI="$cli" REEF_STUDY_FRAMES=16 bash "$root/bench/busy_desktop.sh" "$T/tiny" "$T/out" 1 >"$T/log.txt" 2>&1 ||
    { cat "$T/log.txt"; fail "busy_desktop.sh failed"; }
  nonempty "$T/out/busy-desktop.md" "$T/out/busy-desktop.tsv" "$T/out/busy-desktop.json"
  python3 - "$T/out/busy-desktop.json" <<'PY' || fail "the study's figures are incomplete"
import json, sys
r = json.load(open(sys.argv[1]))
if not r["same_codes"]: sys.exit("the configurations made different codes")
m = r["medians"]
if len(m) != 6 or not all(v["warm_fps"] > 0 and v["wall_fps"] > 0 for v in m.values()): sys.exit(f"medians: {m}")
PY
  ;;
codec_worker_study)   # the one-core configurations once, 8 frames, no waiting for a quiet machine: on CI's
  # two shared cores the two-thread decode oversubscribes them and an idle-priority codec starves (seconds a run)
  tiny && study
  REEF_STUDY_QUIET_WAIT=0 REEF_STUDY_ONLY=1core- bash "$root/bench/codec_worker_study.sh" "$T/out" 1
  tsv="$T/out/codec-worker-s1mini-bf16.tsv"
  nonempty "$tsv" "${tsv%.tsv}.md"
  has "${tsv%.tsv}.md" "Medians over all runs"
  python3 - "$tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
names = [r["config"] for r in rows]
if names != ["1core-inline", "1core-worker", "1core-no-stream"]: sys.exit(f"runs in the TSV: {names}")
bad = [r["config"] for r in rows if not r["total_ms"] or not r["frames"]]
if bad: sys.exit("runs without timings: " + ", ".join(bad))
PY
  ;;
compiled_study)   # eager arms only: the aot-inductor packages take minutes each to compile
  tiny && study
  bash "$root/bench/compiled_study.sh" "$T/out"
  for p in bf16 fp32; do
    nonempty "$T/out/compiled-s1mini-$p.json" "$T/out/compiled-s1mini-$p.md"
    arms_ran "$T/out/compiled-s1mini-$p.json" 5
  done
  nonempty "$T/out/compiled-pr-s1mini-bf16.md" "$T/out/compiled-s1mini-bf16-profile.md"
  ;;
cpu_study)   # the fish-speech comparison at its end needs a fish-speech tree: left out
  tiny && study
  unset FISH_SPEECH_TREE FISH_SPEECH_PYTHON
  bash "$root/bench/cpu_study.sh" "$T/out"
  for n in s1mini-bf16 s1mini-bf16-libtorch-linear s1mini-bf16-aten-small-ops s1mini-fp32 \
    s1mini-fp32-libtorch-linear s1mini-bf16-kv8000; do
    nonempty "$T/out/$n.json" "$T/out/$n.md"
    has "$T/out/$n.md" '^| `eager:auto'
  done
  nonempty "$T/out/s1mini-bf16-profile.md" "$T/out/s1mini-bf16-libtorch-linear-profile.md" \
    "$T/out/s1mini-bf16-aten-small-ops-profile.md"
  ;;
cpu_targets)   # this CPU's best target and scalar, one repeat
  tiny && study
  best=$("$cli" --version | sed -n 's/^CPU kernels: .*(this CPU runs: \([^ )]*\).*/\1/p')
  [[ -n $best ]] || fail "reef-cli --version names no CPU kernel target"
  targets=("$best"); [[ $best == scalar ]] || targets+=(scalar)
  bash "$root/bench/cpu_targets.sh" "$T/out" "${targets[@]}"
  for p in bf16 fp32; do
    nonempty "$T/out/targets-$p.json" "$T/out/targets-$p.md"
    arms_ran "$T/out/targets-$p.json" $((${#targets[@]} + 1))
    for t in "${targets[@]}"; do has "$T/out/targets-$p.md" "eager:auto@$t"; done
  done
  ;;
decode_attention_speed)   # two short cache lengths with the venv's libtorch
  py=${REEF_SCRIPT_PYTHON:-}
  [[ -n $py ]] && "$py" -c "import torch" 2>/dev/null || skip "no Python with torch (REEF_VENV_PYTHON)"
  "$py" "$root/bench/decode_attention_speed.py" --threads 1 --contexts 64,256 | tee "$T/out.md"
  has "$T/out.md" "^| cache rows |"
  has "$T/out.md" "^| 64 |" && has "$T/out.md" "^| 256 |"
  ;;
fish_speech_eager)   # --help only: the timing loop needs fish-speech's source tree and its dependencies
  py=${REEF_SCRIPT_PYTHON:-}
  [[ -n $py ]] && "$py" -c "import torch" 2>/dev/null || skip "no Python with torch (REEF_VENV_PYTHON)"
  "$py" "$root/bench/fish_speech_eager.py" --help >"$T/help.txt"
  has "$T/help.txt" "--fish-speech" && has "$T/help.txt" "--model"
  ;;
serve_bench)   # reef-cli serve on the tiny model, concurrency 1 and 2, 8 frames
  "$cli" serve --help >/dev/null 2>&1 || skip "this reef-cli has no serve (cpp-httplib missing at build time)"
  tiny
  REEF_CLI="$cli" REEF_BENCH_FRAMES=8 bash "$root/bench/serve_bench.sh" "$T/tiny" "$T/serve" 1,2 -- --threads 1
  nonempty "$T/serve.md" "$T/serve.json"
  has "$T/serve.md" "^Server: \`reef-cli serve"
  python3 - "$T/serve.json" <<'PY'
import json, sys
levels = json.load(open(sys.argv[1])).get("levels") or sys.exit("serve.json has no levels")
if [l["concurrency"] for l in levels] != [1, 2]: sys.exit(f"levels {[l['concurrency'] for l in levels]}, not [1, 2]")
bad = [f"{l['concurrency']}: {l['errors']}" for l in levels if l["failed"] or not l["ok"]]
if bad: sys.exit("failed requests at concurrency " + "; ".join(bad))
PY
  ;;
study_1337)   # eager arms, a 64/128-token sweep; the sdpa-bench tables at the released dims
  tiny && study
  bash "$root/bench/study_1337.sh" "$T/out"
  o="$T/out"
  nonempty "$o/pr-s1mini-bf16.md" "$o/sweep-s1mini-bf16.json" "$o/sweep-s1mini-bf16.md" "$o/sweep-s1mini-bf16.csv"
  arms_ran "$o/sweep-s1mini-bf16.json" 4
  compgen -G "$o/pr-s1mini-bf16-wavs/*.wav" >/dev/null || fail "no WAV in pr-s1mini-bf16-wavs"
  for m in s1mini s2pro; do nonempty "$o/sdpa-bench-$m-bf16.json" "$o/sdpa-bench-$m-bf16.md"; done
  ;;
study_1337_arms)   # eager arms only (the compiled ones take minutes to compile), a 64/128-token sweep
  tiny && study
  bash "$root/bench/study_1337_arms.sh" "$T/out"
  n="$T/out/pr-arms-s1mini-bf16"
  nonempty "$n.md" "$n-bench.json" "$n-bench.md" "$n-sweep.csv"
  arms_ran "$n-bench.json" 4
  compgen -G "$n-wavs/*.wav" >/dev/null || fail "no WAV in pr-arms-s1mini-bf16-wavs"
  ;;
screenshots)   # the eleven README images, written to TMP_DIR instead of docs/images
  [[ -n $build ]] || fail "give BUILD_DIR"
  missing=()
  for p in xvfb xauth fonts-wqy-microhei; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) || skip "not installed: ${missing[*]} (the script would install them)"
  bash "$root/scripts/screenshots.sh" "$build" "$T/images"
  for f in project queue_running main_window_zh_CN compare_sweep remote_project remote_progress settings_1280 queue_batch quantize_dialog production_dialog project_production; do
    nonempty "$T/images/$f.png"
    [[ $(head -c 4 "$T/images/$f.png" | od -An -tx1 | tr -d ' \n') == 89504e47 ]] || fail "$f.png is not a PNG"
  done
  ;;
quant_study)   # int8 and int4 against fp32 on the tiny model: every arm, the quantized copies, every synth run
  tiny
  REEF_CLI="$cli" REEF_STUDY_THREADS=1 REEF_STUDY_PRECISION=fp32 REEF_STUDY_FRAMES=8 REEF_STUDY_REPEATS=1 \
    REEF_STUDY_SYNTH_FRAMES=4 REEF_STUDY_INT4_GROUP=32 REEF_STUDY_WORK="$T/work" \
    bash "$root/bench/quant_study.sh" "$T/tiny" "$T/out" || fail "quant_study.sh failed"
  nonempty "$T/out/quant-study.md" "$T/out/quant-bench.md" "$T/work/model-int8/quantization.json" \
    "$T/work/model-int4/quantization.json"
  arms_ran "$T/out/quant-bench.json" 3
  python3 - "$T/out/quant-study.json" <<'PY' || fail "the study's figures are incomplete"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["speed"]["eager:auto"]
if not (s["int4"]["bytes_per_frame"] < s["int8"]["bytes_per_frame"] < s["float_bytes_per_frame"]): sys.exit(f"bytes: {s}")
if not (s["int8"]["fps"] > 0 and s["int4"]["fps"] > 0 and s["int4"]["weights"] == "int4-g32"): sys.exit(f"speed: {s}")
m = r["memory"]
if not all(m[t]["peak_rss"] and m[t]["exit"] == 0 for t in ("source", "int8", "int4")): sys.exit(f"memory: {m}")
PY
  ;;
threads_reload)   # 99 threads, then default, on the tiny model; BUILD_DIR slot: the program
  tiny
  # The speed ratio is the script's verdict for a quiet machine (ctest runs tests beside this one),
  # so here only its files and the count of threads left after the reload are checked.
  REEF_THREADS_RELOAD="$build" REEF_STUDY_FRAMES=8 REEF_STUDY_REPEATS=1 REEF_STUDY_PRECISION=fp32 \
    bash "$root/bench/threads_reload.sh" "$T/tiny" "$T/out" 1 || [[ -s "$T/out/threads-reload.json" ]] ||
    fail "threads_reload.sh wrote no result"
  nonempty "$T/out/threads-reload.md" "$T/out/threads-reload.log"
  python3 - "$T/out/threads-reload.json" <<'PY' || fail "the reload left the threads of 99 behind"
import json, sys
r = json.load(open(sys.argv[1]))
print(r)
if r["process_threads_after_reload"] >= 99: sys.exit(f"{r['process_threads_after_reload']} process threads after the reload")
PY
  ;;
update_translations)   # refreshes copies of the .ts files; the checkout's own are left alone
  lupdate=${LUPDATE:-$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)}
  [[ -x $lupdate ]] || skip "no lupdate (qt6-l10n-tools)"
  mkdir -p "$T/ts" && cp "$root"/ui/translations/reef_*.ts "$T/ts/"
  REEF_TS_DIR="$T/ts" LUPDATE="$lupdate" bash "$root/scripts/update-translations.sh" | tee "$T/summary.txt"
  for ts in "$root"/ui/translations/reef_*.ts; do
    copy="$T/ts/$(basename "$ts")"
    has "$T/summary.txt" "$copy: "
    python3 - "$copy" <<'PY' || fail "$(basename "$ts") is not a valid refreshed translation file"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
if root.tag != "TS" or not root.findall("./context/message"): sys.exit(f"{sys.argv[1]}: no messages")
PY
    cmp -s "$ts" "$copy" || echo "note: $(basename "$ts") is not current: run scripts/update-translations.sh"
  done
  ;;
*) fail "unknown case $case_" ;;
esac
echo "$case_: the short form passed in $((SECONDS - start)) s"
