#!/usr/bin/env bash
# fish-speech's own int8 (issue #44): its tools/llama/quantize.py --mode int8 on Reef's tiny S2 demo
# model, then its own inference on the folder quantize.py wrote (dump_reference.py, fp32, greedy).
# Writes fixtures/tiny-s2-int8: the fixture and quantize.py's model.pth itself, which tst_parity
# loads through Reef's loader as fish-speech's folder layout (name holding "int8", model.pth).
#   make_int8_fixture.sh REEF_CLI FISH_SPEECH_TREE PYTHON
# PYTHON: a venv's python with torch 2.13.0 and fish-speech's LM dependencies (transformers,
# einops, loguru, loralib, click, tiktoken): fish-speech-reference-run.md, "Running".
set -euo pipefail
cli=$1 tree=$(cd "$2" && pwd) py=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" demo-model "$work/demo" --preset tiny --layout s2 --seed 1234 >/dev/null
# quantize.py writes checkpoints/fs-1.2-int8-<timestamp> under the working folder, a copy of the
# model folder without codec.pth, its model.pth the int8 state dict
(cd "$work" && PYTHONPATH="$tree" OMP_NUM_THREADS=1 "$py" "$tree/tools/llama/quantize.py" \
   --checkpoint-path demo --mode int8 --timestamp reef)
q="$work/checkpoints/fs-1.2-int8-reef"
# fish-speech's from_pretrained takes model.safetensors before model.pth, and quantize.py copied the
# source's bf16 one beside its int8 model.pth: fish-speech would then load float weights into its
# int8 modules, cast to int8, with every scale missing (its log says so). Its int8 path runs on a
# folder holding model.pth alone, so the copy goes for fish-speech's own run; tst_parity keeps it,
# as quantize.py leaves it, and Reef reads model.pth first in a folder named int8.
rm "$q/model.safetensors"
PYTHONPATH="$tree" "$py" "$here/dump_reference.py" --fish-speech "$tree" --model "$q" \
  --out "$here/fixtures/tiny-s2-int8" --no-codec --frames 40
cp "$q/model.pth" "$here/fixtures/tiny-s2-int8/model.pth"
ls -l "$here/fixtures/tiny-s2-int8"
