#!/usr/bin/env bash
# reef-cli bench --context ... --pr-report: a real run on the tiny demo model, then the report is
# rendered by a GitHub-flavoured Markdown renderer (cmark-gfm, tables extension) and checked as
# HTML: every table keeps its column count in every row, the sections and confirmations are
# there, and every WAV link points at a file the run wrote.
#   pr_report.sh REEF_CLI TMP_DIR
set -euo pipefail
cli=$1
T="$2/pr_report"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v cmark-gfm >/dev/null || { echo "cmark-gfm is not installed (apt install cmark-gfm)"; exit 77; }
rm -rf "$T" && mkdir -p "$T/out"
"$cli" demo-model "$T/tiny" --preset tiny >/dev/null
rc=0
# The compiled arm is left without a Python to compile with: it must be reported as not run, with
# the reason, while the other arms run (the compiled arm itself is tst_compiled_step's).
REEF_CACHE_DIR="$T/cache" REEF_PYTHON=/nonexistent/python3 \
"$cli" bench -m "$T/tiny" --arms eager:math,eager:fish-speech,eager:auto:full,aot-inductor:fish-speech --threads 1 \
  --frames 12 --warmup 2 --repeats 1 --context 120,300 --sweep-repeats 1 --wav-dir "$T/out/wavs" \
  --pr-report "$T/out/report.md" --json "$T/out/r.json" --sweep-csv "$T/out/sweep.csv" >"$T/stdout.md" 2>"$T/stderr" || rc=$?
[[ $rc == 3 ]] || { cat "$T/stderr"; fail "expected exit 3 (the aot-inductor arm cannot run), got $rc"; }
grep -q "aot-inductor:fish-speech. did not run: .*/nonexistent/python3" "$T/out/report.md" ||
  fail "the report does not say why the compiled arm did not run"
cmark-gfm -e table --unsafe "$T/out/report.md" >"$T/report.html"
python3 - "$T/report.html" "$T/out" <<'PY'
import html.parser, os, sys
page, out = sys.argv[1], sys.argv[2]

class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.row, self.links, self.headings, self.text, self.items = [], None, [], [], [], 0
        self.in_heading = False
    def handle_starttag(self, tag, attrs):
        if tag == "table": self.tables.append([])
        elif tag == "tr": self.row = 0
        elif tag in ("td", "th"): self.row += 1
        elif tag == "a": self.links.append(dict(attrs).get("href", ""))
        elif tag in ("h2", "h3"): self.in_heading = True; self.headings.append("")
        elif tag == "li": self.items += 1
    def handle_endtag(self, tag):
        if tag == "tr": self.tables[-1].append(self.row)
        elif tag in ("h2", "h3"): self.in_heading = False
    def handle_data(self, data):
        if self.in_heading: self.headings[-1] += data
        self.text.append(data)

p = Tables()
p.feed(open(page, encoding="utf-8").read())
errors = []
if len(p.tables) != 3: errors.append(f"expected 3 tables (results, sweep, quality), rendered {len(p.tables)}")
for i, rows in enumerate(p.tables):
    if len(set(rows)) != 1: errors.append(f"table {i + 1} has rows of different widths: {rows}")
for h in ["Hardware", "Software", "Command", "Parameters", "Results", "Context sweep", "Quality checks",
          "Audio samples", "Confirmations"]:
    if not any(h in x for x in p.headings): errors.append(f"no heading {h!r} in {p.headings}")
text = "".join(p.text)
for phrase in ["Eager decoding no longer forces MATH.", "The compiled path still uses MATH.",
               "The active prefix advances correctly.", "CPU:", "libtorch", "tolerance"]:
    if phrase not in text: errors.append(f"missing {phrase!r}")
wavs = [l for l in p.links if l.endswith(".wav")]
if len(wavs) != 3: errors.append(f"expected 3 WAV links (the arms that ran), got {wavs}")
for l in wavs:
    if not os.path.isfile(os.path.join(out, l)): errors.append(f"WAV link {l} points at no file")
if errors:
    print("\n".join(errors)); sys.exit(1)
PY
# the compiled arm's confirmation says it was not measured, with the reason
grep -q "2. \*The compiled path still uses MATH.\* \*\*Not measured\*\*" "$T/out/report.md" || fail "compiled confirmation"
grep -q "aot-inductor:fish-speech\` did not run" "$T/out/report.md" || fail "compiled arm's reason"
# the command as a reader types it, not the path of the binary on the machine that ran it
grep -q '^reef-cli bench ' "$T/out/report.md" || fail "command line starts with the program's name"
grep -qF "$(dirname "$(readlink -f "$cli")")" "$T/out/report.md" && fail "the report shows the build folder"
echo "PR report renders: 3 tables, every section, 3 WAV links"
