# The checks the CLI's shell tests share (source it after setting T, the test's folder): each
# runs a command or a grep on its output, counts a pass or a failure, and shows the output of a
# failure. End the test with: echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]
pass=0; fail=0
ok() { if "$@" >"$T/out.txt" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; cat "$T/out.txt"; fi; }
bad() { if "$@" >"$T/out.txt" 2>&1; then fail=$((fail+1)); echo "FAIL (should have failed): $*"; cat "$T/out.txt"; else pass=$((pass+1)); fi; }
has() { if grep -q -- "$1" "$T/out.txt"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: output lacks '$1'"; cat "$T/out.txt"; fi; }
lacks() { if grep -q -- "$1" "$T/out.txt"; then fail=$((fail+1)); echo "FAIL: output has '$1'"; cat "$T/out.txt"; else pass=$((pass+1)); fi; }
