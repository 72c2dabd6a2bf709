# Sourced by the study scripts: ROOT, OUT (first argument, default bench/results/cpu), CLI
# ($REEF_CLI or build/app/reef-cli) and MODEL ($REEF_STUDY_MODEL or /tmp/reef-s1mini-s2: s1-mini
# dimensions with random weights, S2 layout, written here if missing).
# A short run (ctest label scripts, tests/scripts/short_form.sh: a tiny demo model in
# REEF_STUDY_MODEL) also sets REEF_STUDY_THREADS (THREADS, default 2), REEF_STUDY_FRAMES /
# REEF_STUDY_WARMUP / REEF_STUDY_REPEATS (replace every bench's own frames, warm-up steps and
# repeats), REEF_STUDY_AOT=0 (study_arms drops the aot-inductor arms and aot_on is false: no package
# is compiled, minutes each), REEF_STUDY_CONTEXTS (the sweeps) and REEF_STUDY_SDPA_WIDTHS (study_1337.sh).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench/results/cpu}"
CLI="${REEF_CLI:-$ROOT/build/app/reef-cli}"
MODEL="${REEF_STUDY_MODEL:-/tmp/reef-s1mini-s2}"
THREADS="${REEF_STUDY_THREADS:-2}"
mkdir -p "$OUT"
[[ -f "$MODEL/config.json" ]] || "$CLI" demo-model "$MODEL" --preset s1-mini --layout s2
aot_on() { [[ "${REEF_STUDY_AOT:-1}" != 0 ]]; }
study_arms() {  # a comma-separated arm list, less its aot-inductor arms when REEF_STUDY_AOT=0
  if aot_on; then echo "$1"; else tr , '\n' <<<"$1" | grep -v '^aot-inductor:' | paste -sd, -; fi
}
sizes() {  # FRAMES WARMUP REPEATS -> bench flags (unquoted: numbers), each replaced by REEF_STUDY_* when set
  echo --frames "${REEF_STUDY_FRAMES:-$1}" --warmup "${REEF_STUDY_WARMUP:-$2}" --repeats "${REEF_STUDY_REPEATS:-$3}"
}
