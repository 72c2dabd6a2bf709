#!/usr/bin/env bash
# Checks that a build folder registers at least as many ctest entries as tests/ci/test_count_floor.txt
# asks for its configuration, so that tests cannot silently disappear from CI.
#   scripts/check_test_count.sh BUILD_DIR NAME      (NAME: a line of the floor file, e.g. main)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$1"; name="$2"
line="$(awk -v n="$name" '$1 == n { print; exit }' "$root/tests/ci/test_count_floor.txt")"
[[ -n $line ]] || { echo "check_test_count: no line '$name' in tests/ci/test_count_floor.txt"; exit 2; }
read -r _ floor args <<<"$line"
# shellcheck disable=SC2086  # the arguments are words of the floor file
count="$(cd "$build" && ctest -N ${args:+"${args%% *}" "${args#* }"} | sed -n 's/^Total Tests: *//p')"
if [[ -z $count ]] || ((count < floor)); then
  echo "check_test_count: $build registers ${count:-no} ctest entries${args:+ ($args)}, fewer than the floor $floor" \
       "(tests/ci/test_count_floor.txt): a test fragment or test was dropped or renamed"
  exit 1
fi
echo "check_test_count: $name: $count ctest entries${args:+ ($args)}, floor $floor"
