#!/usr/bin/env bash
# The README's screenshots of the studio, made under Xvfb (a real X server, so real fonts and
# window decorations of the widgets) by the window tests that drive those states:
#   project.png          tst_real_window: a long text split, generated and re-generated (tiny demo model)
#   queue_running.png    tst_studio_window: three texts queued, the first one running
#   main_window_zh_CN.png tst_studio_window: the Chinese interface over a generated project
#   compare_sweep.png    tst_real_window: the Compare view after a two-length context sweep (tiny demo model)
#   remote_project.png   tst_remote_window: a project generated through reef-cli serve (Settings → Speech from a server)
#   remote_progress.png  tst_remote_window: a take streaming in from the server, its progress moving
#   settings_1280.png    tst_main_window: the window at its default 1280×860, every Settings row in view
#   queue_batch.png      tst_main_window: a batch of 4 with 8 items queued (fake engine), which decode and which wait
#   quantize_dialog.png  tst_real_window: Settings → Engine → Quantize to int8…, the copy written (tiny demo model)
#   production_dialog.png tst_production: Project → Production…: cast, pauses, pace, loudness, the book's export
#   project_production.png tst_production: a cast project, chapters and speakers in the segment list
# Installs Xvfb and a CJK font (fonts-wqy-microhei) when missing; needs a built tree (./run.sh or
# ./test.sh first). Usage: scripts/screenshots.sh [BUILD_DIR] [OUT_DIR]   (OUT_DIR default docs/images;
# ctest tst_script_screenshots writes them to a temporary folder)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
IMAGES="${2:-$ROOT/docs/images}"
mkdir -p "$IMAGES"
missing=()
for p in xvfb xauth fonts-wqy-microhei; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
shots="$(mktemp -d)"
trap 'rm -rf "$shots"' EXIT
export REEF_SCREENS_DIR="$shots" REEF_SOURCE_DIR="$ROOT" QT_QPA_PLATFORM=xcb OMP_NUM_THREADS=1
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/tests/ui/tst_studio_window" >/dev/null
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/tests/ui/tst_real_window" longTextThroughAProject \
  compareViewRunsAContextSweep quantizeFromTheStudioAndUseTheCopy >/dev/null
cp "$shots/project_real.png" "$IMAGES/project.png"
REEF_CLI="$BUILD/app/reef-cli" xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/tests/ui/tst_remote_window" >/dev/null
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/tests/ui/tst_main_window" settingsFitAndClosedDocksComeBack \
  theQueueTellsTheTruthAboutABatch >/dev/null
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/tests/ui/tst_production" >/dev/null
cp "$shots/queue_running.png" "$shots/main_window_zh_CN.png" "$shots/compare_sweep.png" "$shots/remote_project.png" \
  "$shots/remote_progress.png" "$shots/settings_1280.png" "$shots/queue_batch.png" "$shots/quantize_dialog.png" \
  "$shots/production_dialog.png" "$shots/project_production.png" "$IMAGES/"
echo "wrote $IMAGES/{project,queue_running,main_window_zh_CN,compare_sweep,remote_project,remote_progress,settings_1280,queue_batch,quantize_dialog,production_dialog,project_production}.png"
