#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build, and start the Reef desktop app.
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
reef_setup
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
  cat <<MSG
Reef is built, but this session has no display (DISPLAY and WAYLAND_DISPLAY are unset).
Start it on a virtual X screen:      xvfb-run -a $REEF_BUILD_DIR/app/reef
or render without any X server:      QT_QPA_PLATFORM=offscreen $REEF_BUILD_DIR/app/reef
The command-line tool works anywhere: $REEF_BUILD_DIR/app/reef-cli --help
MSG
  exit 0
fi
exec "$REEF_BUILD_DIR/app/reef" "$@"
