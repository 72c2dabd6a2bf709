#!/usr/bin/env bash
# fish-speech's own int8 (issue #44): its tools/llama/quantize.py --mode int8 on Reef's tiny demo
# model, then its own inference on the folder quantize.py wrote (dump_reference.py, fp32, greedy).
# Writes fixtures/tiny-<layout>-int8: the fixture and quantize.py's model.pth itself, which
# tst_parity loads through Reef's loader as fish-speech's folder layout (name holding "int8",
# model.pth).
#   make_int8_fixture.sh REEF_CLI FISH_SPEECH_TREE PYTHON [s2|s1]
# FISH_SPEECH_TREE: HEAD (3dd1f85) for s2, the last S1-era commit (d3df505) for s1, as for the
# float fixtures (README.md). PYTHON: a venv's python with torch 2.13.0 and fish-speech's LM
# dependencies (transformers, einops, loguru, loralib, click, tiktoken):
# fish-speech-reference-run.md, "Running".
set -euo pipefail
cli=$1 tree=$(cd "$2" && pwd) py=$3 layout=${4:-s2}
[[ $layout == s2 || $layout == s1 ]] || { echo "layout must be s2 or s1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" demo-model "$work/demo" --preset tiny --layout "$layout" --seed 1234 >/dev/null
# quantize.py writes checkpoints/fs-1.2-int8-<timestamp> under the working folder, a copy of the
# model folder without codec.pth, its model.pth the int8 state dict
# The S1-era tree's quantize.py imports load_model, which its inference.py had renamed init_model
# (same arguments; HEAD's quantize.py imports init_model): the alias is set before quantize.py runs,
# nothing else of it changes.
(cd "$work" && PYTHONPATH="$tree" OMP_NUM_THREADS=1 "$py" -c '
import runpy, sys
import fish_speech.models.text2semantic.inference as inference
if not hasattr(inference, "load_model"):
    inference.load_model = inference.init_model
sys.argv = [sys.argv[1]] + sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
' "$tree/tools/llama/quantize.py" --checkpoint-path demo --mode int8 --timestamp reef)
q="$work/checkpoints/fs-1.2-int8-reef"
# fish-speech's from_pretrained takes model.safetensors before model.pth, and quantize.py copied the
# source's float one beside its int8 model.pth: fish-speech would then load float weights into its
# int8 modules, cast to int8, with every scale missing (its log says so). Its int8 path runs on a
# folder holding model.pth alone, so the copy goes for fish-speech's own run; tst_parity keeps it,
# as quantize.py leaves it, and Reef reads model.pth first in a folder named int8.
rm -f "$q/model.safetensors"
out="$here/fixtures/tiny-$layout-int8"
PYTHONPATH="$tree" "$py" "$here/dump_reference.py" --fish-speech "$tree" --model "$q" \
  --out "$out" --layout "$layout" --no-codec --frames 40
cp "$q/model.pth" "$out/model.pth"
ls -l "$out"
