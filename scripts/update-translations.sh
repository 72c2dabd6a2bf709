#!/usr/bin/env bash
# Refreshes ui/translations/*.ts from the sources (every tr() in ui/ and app/, and the engine's
# sampling labels, marked with QT_TRANSLATE_NOOP in engine/src/sampling_settings.cpp), keeping the
# translations already made; strings no longer in the code are dropped. Then translate the new
# entries (type="unfinished") with Qt Linguist or an editor, and commit the .ts files.
# The build compiles them (lrelease) into the app's resources.
# REEF_TS_DIR: refresh the reef_*.ts in that folder instead (ctest tst_script_update_translations
# refreshes copies, leaving the checkout as it is).
set -euo pipefail
TS_DIR="$(cd "${REEF_TS_DIR:-$(dirname "$0")/../ui/translations}" && pwd)"
cd "$(dirname "$0")/.."
LUPDATE="${LUPDATE:-$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)}"
for ts in "$TS_DIR"/reef_*.ts; do
  lang="$(basename "$ts" .ts)"; lang="${lang#reef_}"
  # English needs only the plural forms ("%n take(s)" -> "1 take" / "2 takes").
  only=(); [[ $lang == en ]] && only=(-pluralonly)
  "$LUPDATE" -silent -no-obsolete -locations none -extensions cpp,h -source-language en -target-language "$lang" \
    "${only[@]}" ui app engine/src/sampling_settings.cpp -ts "$ts"
done
# A summary: how many strings each language still lacks.
for ts in "$TS_DIR"/reef_*.ts; do
  printf '%s: %s messages, %s unfinished\n' "$ts" "$(grep -c '<message' "$ts")" "$(grep -c 'type="unfinished"' "$ts" || true)"
done
