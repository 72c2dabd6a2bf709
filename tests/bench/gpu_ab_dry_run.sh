#!/usr/bin/env bash
# bench/gpu_ab.sh (issue #28) end to end on the CPU: its --dry-run on the tiny demo model, then the
# folder a GPU owner would attach to fish-speech PR #1337 is checked: the README index labelled as a
# dry run with every link pointing at a file, the environment, the tiny preset's reports (the bench
# JSON parses and every arm ran), WAVs and the sdpa-bench tables.
#   gpu_ab_dry_run.sh REEF_CLI OUT_DIR
set -euo pipefail
cli=$1 out=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is not installed (needed to parse the JSON)"; exit 77; }
rm -rf "$out"
start=$SECONDS
bash "$root/bench/gpu_ab.sh" --dry-run --cli "$cli" "$out"
echo "dry run: $((SECONDS - start)) s"

tag=tiny-bf16
for f in README.md environment.txt environment.json "tiny/pr-$tag.md" "tiny/bench-$tag.json" "tiny/bench-$tag.md" \
  "tiny/bench-$tag.csv" "tiny/sweep-$tag.csv" "tiny/sdpa-bench-$tag.md" "tiny/sdpa-bench-$tag.json"; do
  [[ -s "$out/$f" ]] || fail "$f is missing or empty"
done
compgen -G "$out/tiny/wavs-$tag/*.wav" >/dev/null || fail "no WAV in tiny/wavs-$tag"
grep -q "^# DRY RUN" "$out/README.md" || fail "README.md does not say it is a dry run"
grep -q "meaningless" "$out/README.md" || fail "README.md does not say the numbers are meaningless"
grep -q "^reef-cli bench " "$out/README.md" || fail "README.md lacks the bench command"
grep -q "^reef-cli sdpa-bench " "$out/README.md" || fail "README.md lacks the sdpa-bench command"
grep -q "^reef-cli: *libtorch" "$out/environment.txt" || fail "environment.txt lacks reef-cli's libtorch"
grep -q "^torch: " "$out/environment.txt" || fail "environment.txt lacks the torch line"
# every relative link of the index points at something the run wrote
links=$(grep -o '](\([^)#]*\))' "$out/README.md" | sed 's/^](//; s/)$//')
[[ -n $links ]] || fail "README.md links nothing"
while read -r l; do [[ -e "$out/$l" ]] || fail "README.md links $l, which is not there"; done <<<"$links"
python3 - "$out" "$tag" <<'PY'
import json, sys
out, tag = sys.argv[1], sys.argv[2]
json.load(open(f"{out}/environment.json"))
bench = json.load(open(f"{out}/tiny/bench-{tag}.json"))
arms = bench.get("arms") or sys.exit("the bench JSON has no arms")
names = [a["arm"] for a in arms]
for want in ("eager:math", "eager:auto", "eager:fish-speech", "eager:math:full", "eager:auto:full", "eager:fish-speech:full"):
    if want not in names: sys.exit(f"arm {want} missing from {names}")
bad = [f"{a['arm']}: {a.get('error')}" for a in arms if not a.get("ran")]
if bad: sys.exit("arms did not run: " + "; ".join(bad))
if not bench.get("sweep"): sys.exit("the bench JSON has no context sweep")
batch = bench.get("batch") or sys.exit("the bench JSON has no batch points")
if [p["batch"] for p in batch] != [1, 2]: sys.exit(f"batch sizes {[p['batch'] for p in batch]}, not [1, 2]")
if not all(p["ran"] for p in batch): sys.exit("a batch point did not run: " + "; ".join(str(p.get("error")) for p in batch))
sdpa = json.load(open(f"{out}/tiny/sdpa-bench-{tag}.json"))
if not sdpa.get("rows"): sys.exit("the sdpa-bench JSON has no rows")
print(f"bench JSON: {len(arms)} arms ran, {len(bench['sweep'])} sweep points")
PY
echo "gpu_ab.sh --dry-run wrote a complete folder"
