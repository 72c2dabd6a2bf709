#!/usr/bin/env bash
# fish-speech's own int4 arithmetic (issue #44): tools/llama/quantize.py's group_quantize_tensor on
# bf16 matrices made by dump_int4_reference.py, every group size. Writes fixtures/int4-groups.pth,
# which tst_quantize_int4 compares Reef's quantize_group_int4 against, value for value.
#   make_int4_fixture.sh FISH_SPEECH_TREE PYTHON
# PYTHON: any python with torch (the project's torch-2.13.0 venv does).
set -euo pipefail
tree=$(cd "$1" && pwd) py=$2
here=$(cd "$(dirname "$0")" && pwd)
"$py" "$here/dump_int4_reference.py" --fish-speech "$tree" --out "$here/fixtures/int4-groups.pth"
git --git-dir="$tree/.git" rev-parse HEAD 2>/dev/null || cat "$tree/.fish-speech-commit" 2>/dev/null || true
