#!/usr/bin/env bash
# Quick start, step 2: the same set-up as run.sh, then every test through ctest.
# Extra arguments go to ctest (e.g. ./test.sh -L unit).
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
reef_setup
reef_log "running tests"
cd "$REEF_BUILD_DIR"
ctest --output-on-failure -j "$REEF_JOBS" --timeout 900 "$@"
