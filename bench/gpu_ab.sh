#!/usr/bin/env bash
# One command for a GPU owner (issue #28): fish-speech PR #1337's A/B matrix on this machine's GPU,
# written to one folder to attach to the PR.
#   bench/gpu_ab.sh [--dry-run] [--cli PATH] OUT_DIR
#
# What it does, per preset (s1-mini and s2-pro: the released models' dimensions, random weights,
# bf16; speed is what is measured, the audio is noise):
#   - `reef-cli bench` with the arms eager:math, eager:auto, eager:fish-speech, aot-inductor:math and
#     aot-inductor:auto, each also as `:full` (--kv-margin 100000: the cache is max_seq_len rows, as
#     fish-speech allocates it, and :full attends over all of it), eager:auto:int8 and
#     eager:auto:int4 (issue #44's weights, quantized in memory), a context sweep, one WAV per arm,
#     the PR report and the JSON/Markdown/CSV reports. Exit status 3 (an arm could not run, the
#     report says why) is a result, not a failure. The cuda-graph arms are left out: reef-cli
#     refuses them until their capture has run on a GPU.
#   - in the same run, batched decode (issue #27): B different prompts decoding together with the
#     reference arm, for each B of REEF_GPU_BATCH: aggregate and per-sequence frames/s, speed-up
#     over B = 1, peak memory (the report's "Batched decode" table).
#   - `reef-cli sdpa-bench`: one decode SDPA call per forced backend at the model's attention dims.
# OUT_DIR gets README.md (the index to attach: what ran, the commands, links, the environment),
# environment.txt/.json (GPU, driver, CUDA, cuDNN, torch, `reef-cli --version`, nvidia-smi, OS, CPU)
# and one folder per preset with its reports, logs and WAVs.
#
# Without --cli it builds the engine and reef-cli only (no Qt, no PortAudio) against the CUDA torch
# of $PYTHON (default python3). Needs: python3 with a CUDA torch, cmake, ninja, a C++20 compiler,
# header-only nlohmann-json and CLI11 installed or carried in .deps/include, PCRE2 (libpcre2-8).
# The compiled arms run that Python once per arm to compile (minutes; cached in $REEF_CACHE_DIR,
# each entry holds a copy of the weights: ~9 GB for s2-pro, see REEF_AOTI_CACHE_GB).
#
# --dry-run: the same script end to end on the CPU in seconds (ctest tst_gpu_ab_dry_run):
# --device cpu, the `tiny` demo model, 16 frames, 1 repeat, a short sweep, eager arms only (the
# compiled arms take 3-4 minutes to compile there; REEF_GPU_DRY_AOT=1 adds them). Its numbers mean nothing.
#
# Knobs (environment):
#   REEF_GPU_BUILD     build folder when building (default: build-gpu in the source tree)
#   REEF_GPU_MODELS    where the demo models are written, kept for reruns (default /tmp/reef-gpu-models;
#                      dry run: a temporary folder, removed at the end)
#   REEF_GPU_FRAMES    decoded frames per repeat (default 128; dry run 16)
#   REEF_GPU_REPEATS   repeats per arm (default 3; dry run 1)
#   REEF_GPU_PRESETS   space-separated presets (default "s1-mini s2-pro"; dry run "tiny")
#   REEF_GPU_CONTEXTS  sweep prompt lengths (default 128,512,2048,8192; dry run 128,256); a length
#                      that would not leave room for the frames in max_seq_len is lowered to fit
#   REEF_GPU_CMAKE_ARGS  extra configure arguments, split on spaces (a pip CUDA torch without a CUDA
#                      toolkit needs none: scripts/torch_wheel.sh links the wheel's files directly)
#   REEF_GPU_BATCH     batch sizes for the batched-decode table (default 1,4,8,16; dry run 1,2;
#                      empty: none)
#   REEF_GPU_DRY_AOT=1 include the aot-inductor arms in the dry run
set -euo pipefail

usage() { echo "usage: bench/gpu_ab.sh [--dry-run] [--cli PATH] OUT_DIR" >&2; exit 2; }
die() { echo "gpu_ab.sh: $*" >&2; exit 1; }
q1() { [[ $1 =~ ^[A-Za-z0-9_./:,=+@%-]+$ ]] && echo "$1" || printf '%q\n' "$1"; }   # quoted only if needed
q() { local a out=(); for a in "$@"; do out+=("$(q1 "$a")"); done; echo "${out[*]}"; }   # a pasteable command line
INVOCATION=$(q bench/gpu_ab.sh "$@")
DRY=0 CLI="" OUT=""
while (($#)); do
  case $1 in
    --dry-run) DRY=1 ;;
    --cli) (($# > 1)) || usage; CLI=$2; shift ;;
    -h | --help) usage ;;
    -*) usage ;;
    *) [[ -z $OUT ]] || usage; OUT=$1 ;;
  esac
  shift
done
[[ -n $OUT ]] || usage
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python3}"
if ((DRY)); then
  DEVICE=cpu FRAMES=${REEF_GPU_FRAMES:-16} REPEATS=${REEF_GPU_REPEATS:-1} PRESETS=${REEF_GPU_PRESETS:-tiny}
  CONTEXTS=${REEF_GPU_CONTEXTS:-128,256} WARMUP=2 SWEEP_REPEATS=1 BATCH=${REEF_GPU_BATCH-1,2}
  CPU_ARGS=(--threads 1)   # ctest runs two tests at once on two cores
  MODELS=${REEF_GPU_MODELS:-}
  if [[ -z $MODELS ]]; then   # private: two build trees may run this test at the same time
    MODELS=$(mktemp -d "${TMPDIR:-/tmp}/reef-gpu-ab-dry.XXXXXX")
    trap 'rm -rf "$MODELS"' EXIT
  fi
else
  DEVICE=cuda FRAMES=${REEF_GPU_FRAMES:-128} REPEATS=${REEF_GPU_REPEATS:-3} PRESETS=${REEF_GPU_PRESETS:-s1-mini s2-pro}
  CONTEXTS=${REEF_GPU_CONTEXTS:-128,512,2048,8192} WARMUP=8 SWEEP_REPEATS=2 BATCH=${REEF_GPU_BATCH-1,4,8,16}
  CPU_ARGS=()
  MODELS=${REEF_GPU_MODELS:-/tmp/reef-gpu-models}
fi
mkdir -p "$OUT" "$MODELS"
OUT=$(cd "$OUT" && pwd) MODELS=$(cd "$MODELS" && pwd)   # the runs below cd into OUT's preset folders
START=$SECONDS

# --- reef-cli: the one given, else (dry run) this checkout's build, else built here for the GPU
build_cli() {
  local torch_cmake py_exe build=${REEF_GPU_BUILD:-$ROOT/build-gpu}
  torch_cmake=$("$PY" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)') ||
    die "$PY has no torch: install a CUDA torch (pip install torch) or pass --cli"
  py_exe=$("$PY" -c 'import sys; print(sys.executable)')
  local extra=()
  [[ -d "$ROOT/.deps/include" ]] && extra+=("-DCMAKE_CXX_FLAGS=-isystem $ROOT/.deps/include" "-DCMAKE_PREFIX_PATH=$torch_cmake;$ROOT/.deps")
  read -r -a user <<<"${REEF_GPU_CMAKE_ARGS:-}"
  # A pip CUDA torch without a CUDA toolkit (the usual 4090/5090 set-up): torch's own CMake config
  # wants the toolkit, so the wheel's files are linked directly (scripts/torch_wheel.sh).
  source "$ROOT/scripts/torch_wheel.sh"
  reef_torch_wheel_args "$PY" 1
  # REEF_VENV_PYTHON: the compiled arms' exporter must run the torch this libtorch came from.
  cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREEF_BUILD_GUI=OFF -DREEF_BUILD_AUDIO=OFF \
    -DREEF_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$torch_cmake" -DREEF_VENV_PYTHON="$py_exe" \
    "${REEF_TORCH_CMAKE_ARGS[@]}" "${extra[@]}" "${user[@]}"
  cmake --build "$build" --target reef-cli -j "$(nproc)"
  CLI=$build/app/reef-cli
}
if [[ -n $CLI ]]; then
  [[ -x $CLI ]] || die "--cli $CLI: no such program"
elif ((DRY)) && [[ -x "$ROOT/build/app/reef-cli" ]]; then
  CLI=$ROOT/build/app/reef-cli
else
  build_cli 2>&1 | tee "$OUT/build.log"
  CLI=${REEF_GPU_BUILD:-$ROOT/build-gpu}/app/reef-cli   # build_cli ran in the pipeline's subshell
fi
CLI=$(readlink -f "$CLI")
VERSION=$("$CLI" --version)
if ((!DRY)) && ! grep -q "CUDA compiled in" <<<"$VERSION"; then
  die "$CLI has no CUDA ($(sed -n 2p <<<"$VERSION")): build it against a CUDA torch, or use --dry-run"
fi

# --- the environment: environment.txt for people, environment.json for scripts
ENV_K=() ENV_V=()
env_add() { ENV_K+=("$1"); ENV_V+=("${2:-not found}"); }
first() { "$@" 2>/dev/null | head -n1 || true; }   # first line of a probe, empty when it fails
env_add mode "$( ((DRY)) && echo "DRY RUN: CPU, tiny random-weight model, numbers meaningless" || echo "GPU (cuda)")"
env_add date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
git=$(first git -C "$ROOT" describe --always --dirty)
env_add reef "$(first sed -n 1p <<<"$VERSION") (git ${git:-checkout not found})"
env_add reef-cli "$(sed -n 2p <<<"$VERSION")"
env_add os "$(first sed -n 's/^PRETTY_NAME="*\([^"]*\)"*$/\1/p' /etc/os-release); $(uname -srm)"
env_add cpu "$(first sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo), $(nproc) logical CPUs"
env_add memory "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
if command -v nvidia-smi >/dev/null; then
  SMI=$(nvidia-smi 2>&1 || true)
  env_add gpu "$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | paste -sd';' || true)"
  env_add driver "$(first nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
  env_add "CUDA (driver)" "$(grep -o 'CUDA Version: *[0-9.]*' <<<"$SMI" | grep -o '[0-9.]*$' || true)"
else
  SMI="nvidia-smi: not found"
  env_add gpu "" && env_add driver "" && env_add "CUDA (driver)" ""
fi
env_add nvcc "$(nvcc --version 2>/dev/null | sed -n 's/.*release //p' || true)"
# torch: the Python side of the libtorch Reef links (what fish-speech itself would run on)
TORCH_PROBE='
import sys
print("python\t%s (%s)" % (sys.version.split()[0], sys.executable))
try:
    import torch
except Exception as e:
    print("torch\tnot found (%s)\ntorch CUDA\tnot found\ncuDNN\tnot found" % type(e).__name__)
    sys.exit()
print("torch\t" + torch.__version__)
print("torch CUDA\t%s" % (torch.version.cuda or "none (CPU build)"))
print("cuDNN\t%s" % (torch.backends.cudnn.version() or "none"))
for i in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
    p = torch.cuda.get_device_properties(i)
    print("torch GPU %d\t%s, sm_%d%d, %.1f GiB" % (i, p.name, p.major, p.minor, p.total_memory / 2**30))
'
PROBE=$("$PY" -c "$TORCH_PROBE" 2>/dev/null || true)
[[ -n $PROBE ]] || PROBE=$'python\tnot found\ntorch\tnot found\ntorch CUDA\tnot found\ncuDNN\tnot found'
while IFS=$'\t' read -r k v; do env_add "$k" "$v"; done <<<"$PROBE"
DEVICES=$("$CLI" devices 2>/dev/null) || DEVICES="not in this reef-cli"   # the devices --device takes
{
  for i in "${!ENV_K[@]}"; do printf '%-14s %s\n' "${ENV_K[$i]}:" "${ENV_V[$i]}"; done
  printf '\n== reef-cli --version ==\n%s\n\n== reef-cli devices ==\n%s\n' "$VERSION" "$DEVICES"
  printf '\n== nvidia-smi ==\n%s\n' "$SMI"
} >"$OUT/environment.txt"
ENV_JSON=""
if command -v python3 >/dev/null; then   # any python3: only its json module is needed
  pairs=()
  for i in "${!ENV_K[@]}"; do pairs+=("${ENV_K[$i]}" "${ENV_V[$i]}"); done
  python3 -c 'import json, sys; a = sys.argv[1:]; print(json.dumps(dict(zip(a[::2], a[1::2])), indent=1))' \
    "${pairs[@]}" "reef-cli --version" "$VERSION" "reef-cli devices" "$DEVICES" nvidia-smi "$SMI" >"$OUT/environment.json" && ENV_JSON=1
fi
cat "$OUT/environment.txt"

# --- the matrix, per preset
ARMS=eager:math,eager:auto,eager:fish-speech
((DRY)) && [[ ${REEF_GPU_DRY_AOT:-0} != 1 ]] || ARMS+=,aot-inductor:math,aot-inductor:auto
ARMS+=",${ARMS//,/:full,}:full"   # every arm again over the whole cache
# The quantized weights of issue #44 against bf16 on the same weights (made in memory per arm): on
# CUDA through libtorch (int8: linear on the converted weight times the scales; int4: the matrix
# dequantized per call). The tiny dry-run model's widths take group 32 only.
if ((DRY)); then ARMS+=,eager:auto:int8,eager:auto:int4-g32; else ARMS+=,eager:auto:int8,eager:auto:int4; fi
# The sweep lengths that fit: context + frames must stay within the model's max_seq_len.
fit_contexts() {
  local max c out=()
  max=$(grep -o '"max_seq_len": *[0-9]*' "$1/config.json" | grep -o '[0-9]*$' | sort -n | tail -n1)
  local cs
  IFS=, read -r -a cs <<<"$CONTEXTS"
  for c in "${cs[@]}"; do
    ((c + FRAMES <= max)) || c=$((max - FRAMES))
    [[ " ${out[*]} " == *" $c "* ]] || out+=("$c")
  done
  local IFS=,
  echo "${out[*]}"
}
INDEX=""     # README.md's per-preset sections
FAILED=()
for preset in $PRESETS; do
  model="$MODELS/$preset" dir="$OUT/$preset" tag="$preset-bf16"
  mkdir -p "$dir"
  if [[ ! -f "$model/config.json" ]]; then   # written aside, so an interrupted write is not reused
    rm -rf "$model.partial"
    if ! { "$CLI" demo-model "$model.partial" --preset "$preset" 2>&1 | tee "$dir/demo-model.log" &&
      mv "$model.partial" "$model"; }; then   # e.g. s2-pro's 9 GB on a small disk: the next preset still runs
      FAILED+=("$preset demo-model")
      INDEX+=$'\n### '"$preset"$'\n\n**Its demo model could not be written**: see ['"$preset/demo-model.log]($preset/demo-model.log)."$'\n'
      continue
    fi
  fi
  bench=(bench -m "$model" --device "$DEVICE" --precision bf16 "${CPU_ARGS[@]}" --kv-margin 100000
    --arms "$ARMS" --frames "$FRAMES" --warmup "$WARMUP" --repeats "$REPEATS"
    --context "$(fit_contexts "$model")" --sweep-repeats "$SWEEP_REPEATS" --wav-dir "wavs-$tag"
    --pr-report "pr-$tag.md" --json "bench-$tag.json" --md "bench-$tag.md" --csv "bench-$tag.csv"
    --sweep-csv "sweep-$tag.csv")
  [[ -z $BATCH ]] || bench+=(--batch "$BATCH")
  case $preset in   # the released models' dimensions by name; another model by its config.json
    s1-mini | s2-pro) sdpa=(sdpa-bench --preset "$preset") ;;
    *) sdpa=(sdpa-bench -m "$model") ;;
  esac
  sdpa+=(--device "$DEVICE" "${CPU_ARGS[@]}")
  ((!DRY)) || sdpa+=(--widths "128,256" --iters 3 --warmup 1)
  sdpa+=(--precision bf16 --backends "math,flash,efficient,cudnn" --json "sdpa-bench-$tag.json" --md "sdpa-bench-$tag.md")
  echo "== $preset: reef-cli $(q "${bench[@]}")"
  t0=$SECONDS rc=0
  (cd "$dir" && "$CLI" "${bench[@]}") 2>&1 | tee "$dir/bench-$tag.log" || rc=$?   # cd: the report links its WAVs relative to itself
  case $rc in
    0) status="every arm ran" ;;
    3) status="some arm could not run (exit 3): its reason is in the reports" ;;
    *) status="**failed (exit $rc)**: see [bench-$tag.log]($preset/bench-$tag.log)"; FAILED+=("$preset bench") ;;
  esac
  bench_s=$((SECONDS - t0)) t0=$SECONDS rc=0
  echo "== $preset: reef-cli $(q "${sdpa[@]}")"
  (cd "$dir" && "$CLI" "${sdpa[@]}") 2>&1 | tee "$dir/sdpa-bench-$tag.log" || rc=$?
  sdpa_status="measured"
  ((rc == 0)) || { sdpa_status="**failed (exit $rc)**: see [sdpa-bench-$tag.log]($preset/sdpa-bench-$tag.log)"; FAILED+=("$preset sdpa-bench"); }
  sdpa_s=$((SECONDS - t0))
  wavs=$(find "$dir/wavs-$tag" -name '*.wav' 2>/dev/null | wc -l)
  INDEX+="
### $preset

| | |
|---|---|
| **PR report** (paste this) | [pr-$tag.md]($preset/pr-$tag.md) |
| bench | $status; ${bench_s} s |
| bench reports | [Markdown]($preset/bench-$tag.md), [JSON]($preset/bench-$tag.json), [CSV]($preset/bench-$tag.csv), [context sweep CSV]($preset/sweep-$tag.csv), [log]($preset/bench-$tag.log) |
| WAVs, one per arm | [wavs-$tag/]($preset/wavs-$tag/) ($wavs files) |
| sdpa-bench | $sdpa_status; ${sdpa_s} s: [Markdown]($preset/sdpa-bench-$tag.md), [JSON]($preset/sdpa-bench-$tag.json) |

\`\`\`sh
reef-cli $(q demo-model "$model" --preset "$preset")   # unless it is there from an earlier run
cd $preset
reef-cli $(q "${bench[@]}")
reef-cli $(q "${sdpa[@]}")
\`\`\`
"
done

# --- README.md: the index a GPU owner attaches to fish-speech PR #1337
env_of() { local i; for i in "${!ENV_K[@]}"; do [[ ${ENV_K[$i]} != "$1" ]] || { echo "${ENV_V[$i]}"; return; }; done; echo "not found"; }
knobs=""   # the knobs set for this run, as they can be pasted back
for v in $(compgen -e | grep -E '^(REEF_GPU_[A-Z_]+|PYTHON)$' || true); do knobs+="$v=$(q1 "${!v}") "; done
{
  if ((DRY)); then
    echo "# DRY RUN of bench/gpu_ab.sh: CPU, tiny random-weight model"
    echo
    echo "> **This is a dry run, not a measurement.** It ran on the CPU (\`--device cpu\`) with Reef's"
    echo "> \`tiny\` demo model (random weights, toy dimensions), $FRAMES frames and $REPEATS repeat,"
    echo "> to check that the script works end to end. **Its numbers are meaningless**; do not attach it to"
    echo "> fish-speech PR #1337. Run \`bench/gpu_ab.sh OUT_DIR\` on a CUDA machine for the real report."
  else
    gpu=$(env_of gpu) && [[ $gpu != "not found" ]] || gpu=$(env_of "torch GPU 0")
    [[ $gpu != "not found" ]] || gpu="an unnamed GPU (neither nvidia-smi nor torch named it)"
    echo "# Reef A/B for fish-speech PR #1337 on ${gpu%%,*}"
    echo
    echo "The SDPA backend × compile mode matrix of fish-speech PR #1337, measured by Reef's \`reef-cli\`"
    echo "(a native C++/libtorch port of fish-speech's decode loop) on the machine below."
  fi
  echo
  echo "- GPU: $(env_of gpu); driver $(env_of driver), CUDA (driver) $(env_of 'CUDA (driver)')"
  echo "- torch $(env_of torch), its CUDA $(env_of 'torch CUDA'), cuDNN $(env_of cuDNN)"
  echo "- $(env_of reef); reef-cli: $(env_of reef-cli)"
  echo "- $(env_of os); CPU $(env_of cpu); $(env_of memory)"
  echo "- Everything: [environment.txt](environment.txt)${ENV_JSON:+ ([JSON](environment.json))}; $(env_of date); $((SECONDS - START)) s in all"
  echo
  echo "## What ran"
  echo
  echo "\`$knobs$INVOCATION\` ran two commands per preset"
  echo "(below, each in its preset's folder):"
  echo
  if ((DRY)); then
    echo "- \`reef-cli bench\`: preset(s) $PRESETS (Reef's demo models, random weights), bf16,"
  else
    echo "- \`reef-cli bench\`: presets $PRESETS with the released models' dimensions and random weights"
    echo "  (the speed is real, the audio is noise; \`reef-cli demo-model DIR --preset P\` writes them), bf16,"
  fi
  echo "  \`--device $DEVICE\`; arms \`${ARMS//,/\`, \`}\`."
  echo "  \`:full\` attends over the whole cache (\`--kv-margin 100000\`: max_seq_len rows, as fish-speech"
  echo "  allocates it), the others over the filled prefix (#1312). $FRAMES frames, $REPEATS repeat(s), a context"
  echo "  sweep, quality checks against \`eager:math\` and one WAV per arm. The cuda-graph arms are not in it:"
  echo "  reef-cli refuses them until their capture has run on a GPU."
  echo "- \`reef-cli sdpa-bench\`: one decode SDPA call per forced backend (math, flash, efficient, cudnn) at the"
  echo "  model's attention dimensions, over the active prefix and the whole cache."
  echo
  echo "## Results"
  printf '%s' "$INDEX"
  echo
  echo "## Environment"
  echo
  echo '```text'
  sed '/^$/,$d' "$OUT/environment.txt"   # the summary, before the raw sections
  echo '```'
} >"$OUT/README.md"
echo "wrote $OUT/README.md ($((SECONDS - START)) s)"
((${#FAILED[@]} == 0)) || die "failed: ${FAILED[*]} (the rest is in $OUT)"
