#!/usr/bin/env bash
# tst_example_synthesize: make a tiny demo model with reef-cli, synthesize a text with the example
# program into a WAV, and check the file; a missing model folder must fail with a message.
# usage: run_example_test.sh REEF_CLI EXAMPLE TMPDIR
set -u
CLI="$1"; EXAMPLE="$2"; T="$3/example_synthesize"
rm -rf "$T" && mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }

"$CLI" demo-model "$T/tiny" --preset tiny || fail "reef-cli demo-model"
"$EXAMPLE" "$T/tiny" "Hello from the example." "$T/out.wav" 16 || fail "the example exited $?"
test -s "$T/out.wav" || fail "$T/out.wav is missing or empty"
[ "$(head -c 4 "$T/out.wav")" = RIFF ] || fail "$T/out.wav is not a RIFF file"
[ "$(tail -c +9 "$T/out.wav" | head -c 4)" = WAVE ] || fail "$T/out.wav is not a WAVE file"

if "$EXAMPLE" "$T/no-such-model" "Hi." "$T/none.wav" >"$T/err.txt" 2>&1; then
    fail "a missing model folder did not fail"
fi
grep -q "cannot load" "$T/err.txt" || { cat "$T/err.txt"; fail "no error message for a missing model folder"; }
test -e "$T/none.wav" && fail "a failed run left $T/none.wav"
echo "PASS: $(stat -c %s "$T/out.wav") bytes in $T/out.wav"
