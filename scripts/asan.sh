#!/usr/bin/env bash
# The unit and audio suites under AddressSanitizer + UndefinedBehaviorSanitizer (gcc), in build-asan
# (CMake preset "asan": no GUI). Same set-up as test.sh (Debian packages, the torch venv), then
# configure, build and ctest. Extra arguments go to ctest (default: -L "unit|audio|parity").
#
# ASAN_OPTIONS: detect_leaks=0 by default: libtorch keeps process-lifetime allocations (operator
# registries, thread pools) that LeakSanitizer may report at exit. Whether it does under this wheel
# is not yet established; ASAN_OPTIONS=detect_leaks=1 scripts/asan.sh checks. Leaks in the parsers
# are covered by the fuzz harnesses (scripts/fuzz.sh), which run LeakSanitizer with targeted
# suppressions. UBSan stops at the first report (-fno-sanitize-recover) so a finding fails the test.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
ASAN_DIR="$REEF_ROOT/build-asan"
reef_install_apt
reef_install_torch
reef_build_tool_args
if [[ ! -f "$ASAN_DIR/CMakeCache.txt" ]]; then
  reef_log "configuring $ASAN_DIR (preset asan: ASan + UBSan, no GUI)"
  (cd "$REEF_ROOT" && cmake --preset asan -DCMAKE_PREFIX_PATH="$REEF_TORCH_CMAKE" \
     -DREEF_VENV_PYTHON="$REEF_VENV/bin/python" "${REEF_TORCH_CMAKE_ARGS[@]}" "${REEF_BUILD_TOOL_ARGS[@]}")
fi
reef_log "building $ASAN_DIR (-j$REEF_JOBS)"
# REEF_ASAN_TARGETS: build only these targets (CI's short form, tests/ci/asan_subset.txt)
# shellcheck disable=SC2086
cmake --build "$ASAN_DIR" -j "$REEF_JOBS" ${REEF_ASAN_TARGETS:+--target $REEF_ASAN_TARGETS}
cd "$ASAN_DIR"
((${#@})) || set -- -L "unit|audio|parity"
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}" \
  ctest --output-on-failure -j "$REEF_JOBS" --timeout 1800 "$@"
