#!/usr/bin/env bash
# Fuzzing campaign (issue #13, docs/reliability.md): installs clang and libFuzzer if missing,
# configures and builds the harnesses of tests/fuzz in build-fuzz (clang, ASan + UBSan, no GUI),
# then runs every harness for SECONDS (default 60) and prints executions, exec/s and any crash.
# A crash input is copied to tests/fuzz/regressions/<harness>/ so that, once fixed and committed,
# the short `ctest -L fuzz` run replays it.
#
# usage: scripts/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]      (default: 60 s, every harness)
# env:   REEF_JOBS (build jobs, default 2), REEF_VENV (venv with the torch wheel, default .venv),
#        REEF_FUZZ_BUILD_DIR (default build-fuzz), REEF_FUZZ_FLAGS (extra libFuzzer flags).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
SECS="${1:-60}"; shift || true
FUZZ_DIR="${REEF_FUZZ_BUILD_DIR:-$REEF_ROOT/build-fuzz}"
SRC="$REEF_ROOT/tests/fuzz"
ALL=(safetensors safetensors_index pth model_config codec_config tokenizer_json tiktoken text_split audio epub)
HARNESSES=("$@"); ((${#HARNESSES[@]})) || HARNESSES=("${ALL[@]}")

# the build's packages and clang 14 (Debian 12's) with libFuzzer and the sanitizer runtimes
REEF_APT_PACKAGES+=("${REEF_FUZZ_APT_PACKAGES[@]}")
reef_install_apt
reef_install_torch
reef_build_tool_args
reef_build_tool_args

if [[ ! -f "$FUZZ_DIR/CMakeCache.txt" ]]; then
  reef_log "configuring $FUZZ_DIR (clang, libFuzzer, ASan + UBSan)"
  cmake -S "$REEF_ROOT" -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DREEF_BUILD_GUI=OFF -DREEF_BUILD_TESTS=OFF -DREEF_BUILD_FUZZERS=ON \
    -DCMAKE_PREFIX_PATH="$REEF_TORCH_CMAKE" "${REEF_TORCH_CMAKE_ARGS[@]}" "${REEF_BUILD_TOOL_ARGS[@]}"
fi
reef_log "building the fuzzers (-j$REEF_JOBS)"
cmake --build "$FUZZ_DIR" --target reef_fuzzers -j "$REEF_JOBS"

WORK="$FUZZ_DIR/campaign"
mkdir -p "$WORK"
status=0
printf '%-18s %12s %8s %8s  %s\n' harness executions seconds exec/s result
for h in "${HARNESSES[@]}"; do
  log="$WORK/$h.log"
  rm -f "$WORK/$h"/crash-* "$WORK/$h"/timeout-* "$WORK/$h"/oom-* "$WORK/$h"/leak-*
  start=$(date +%s)
  rc=0
  OMP_NUM_THREADS=1 bash "$SRC/run_fuzzer.sh" "$FUZZ_DIR/tests/fuzz/fuzz_$h" "$h" "$SRC" "$WORK" "$SECS" \
    ${REEF_FUZZ_FLAGS:-} >"$log" 2>&1 || rc=$?
  secs=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  result=ok
  if ((rc != 0)); then
    status=1
    result="FAILED (rc $rc), log: $log"
    mkdir -p "$SRC/regressions/$h"
    for f in "$WORK/$h"/crash-* "$WORK/$h"/timeout-* "$WORK/$h"/oom-* "$WORK/$h"/leak-*; do
      [[ -e "$f" ]] || continue
      cp "$f" "$SRC/regressions/$h/"
      result+="; input saved as tests/fuzz/regressions/$h/$(basename "$f")"
    done
    grep -m3 -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:|fuzz finding' "$log" | sed 's/^/    /' || true
  fi
  printf '%-18s %12s %8s %8s  %s\n' "$h" "${runs:-?}" "$secs" "${rate:-?}" "$result"
done
exit $status
