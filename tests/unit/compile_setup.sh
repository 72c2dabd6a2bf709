#!/usr/bin/env bash
# reef-cli compile --setup, for real: the private venv an installed Reef compiles with.
#   compile_setup.sh REEF_CLI TMP_DIR
# 1. a set-up that cannot start (no such python3) fails with the reason and leaves no folder;
# 2. the real set-up (python3 -m venv + pip install torch==<libtorch's version>, ~2 minutes) makes
#    a venv whose torch is the version `reef-cli --version` names for its libtorch (asked of the
#    venv's own Python, not of Reef), and --status names it;
# 3. a decode-step compile then runs with that venv (REEF_PYTHON unset: the private venv comes
#    before the build's, and --status said it is the one).
# Exits 77 when PyPI cannot be reached (pip's own words are printed).
set -uo pipefail
cli=$1
T="$2/compile_setup"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T" && mkdir -p "$T"
unset REEF_PYTHON

REEF_COMPILE_VENV="$T/venv" REEF_SETUP_PYTHON=/nonexistent/python3 "$cli" compile --setup >"$T/out" 2>&1 &&
  fail "a set-up without python3 succeeded"
grep -q "/nonexistent/python3" "$T/out" && grep -q "could not be started" "$T/out" || { cat "$T/out"; fail "no reason"; }
[[ ! -e "$T/venv" ]] && ! compgen -G "$T/venv.tmp-*" >/dev/null || fail "a failed set-up left a folder"
REEF_COMPILE_VENV="$T/venv" "$cli" compile --status >"$T/out" 2>&1
grep -q "private venv: $T/venv" "$T/out" || { cat "$T/out"; fail "--status does not name the venv folder"; }

if ! REEF_COMPILE_VENV="$T/venv" "$cli" compile --setup >"$T/setup.log" 2>&1; then
  if grep -qiE "connection|resolve|network is unreachable|No matching distribution" "$T/setup.log"; then
    tail -5 "$T/setup.log"; echo "skipped: PyPI cannot be reached"; exit 77
  fi
  cat "$T/setup.log"; fail "compile --setup failed"
fi
libtorch=$("$cli" --version | sed -n 's/^libtorch \([0-9][0-9.]*\).*/\1/p' | head -1)
venv_torch=$("$T/venv/bin/python" -c 'import torch; print(torch.__version__.split("+")[0])')
[[ -n $libtorch && $venv_torch == "$libtorch" ]] || fail "venv torch '$venv_torch' is not libtorch '$libtorch'"
REEF_COMPILE_VENV="$T/venv" "$cli" compile --status >"$T/out" 2>&1 || { cat "$T/out"; fail "--status after set-up"; }
grep -q "python: $T/venv/bin/python (private venv)" "$T/out" || { cat "$T/out"; fail "--status does not use the venv"; }
# a second set-up finds it done and changes nothing
REEF_COMPILE_VENV="$T/venv" "$cli" compile --setup >"$T/out" 2>&1 && grep -q "already set up" "$T/out" ||
  { cat "$T/out"; fail "second set-up"; }

"$cli" demo-model "$T/tiny" --preset tiny >/dev/null
REEF_COMPILE_VENV="$T/venv" REEF_CACHE_DIR="$T/cache" OMP_NUM_THREADS=1 \
  "$cli" compile -m "$T/tiny" --threads 1 >"$T/compile.log" 2>&1 || { cat "$T/compile.log"; fail "compile with the venv"; }
grep -q "compiled in" "$T/compile.log" || { cat "$T/compile.log"; fail "nothing was compiled"; }
echo "compile --setup: venv torch $venv_torch, compile ran with it"
# A pass leaves nothing behind: the venv is a ~1 GB copy of torch (a failure keeps it to look at).
rm -rf "$T"
