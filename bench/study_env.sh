# Sourced by the study scripts: ROOT, OUT (first argument, default bench/results/cpu), CLI
# ($REEF_CLI or build/app/reef-cli) and MODEL ($REEF_STUDY_MODEL or /tmp/reef-s1mini-s2: s1-mini
# dimensions with random weights, S2 layout, written here if missing).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench/results/cpu}"
CLI="${REEF_CLI:-$ROOT/build/app/reef-cli}"
MODEL="${REEF_STUDY_MODEL:-/tmp/reef-s1mini-s2}"
mkdir -p "$OUT"
[[ -f "$MODEL/config.json" ]] || "$CLI" demo-model "$MODEL" --preset s1-mini --layout s2
