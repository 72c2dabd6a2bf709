#!/usr/bin/env bash
# Refreshes ui/translations/*.ts from the sources (every tr() in ui/ and app/), keeping the
# translations already made; strings no longer in the code are dropped. Then translate the new
# entries (type="unfinished") with Qt Linguist or an editor, and commit the .ts files.
# The build compiles them (lrelease) into the app's resources.
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE="${LUPDATE:-$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)}"
for ts in ui/translations/reef_*.ts; do
  lang="$(basename "$ts" .ts)"; lang="${lang#reef_}"
  # English needs only the plural forms ("%n take(s)" -> "1 take" / "2 takes").
  only=(); [[ $lang == en ]] && only=(-pluralonly)
  "$LUPDATE" -silent -no-obsolete -locations none -extensions cpp,h -source-language en -target-language "$lang" \
    "${only[@]}" ui app -ts "$ts"
done
# A summary: how many strings each language still lacks.
for ts in ui/translations/reef_*.ts; do
  printf '%s: %s messages, %s unfinished\n' "$ts" "$(grep -c '<message' "$ts")" "$(grep -c 'type="unfinished"' "$ts" || true)"
done
