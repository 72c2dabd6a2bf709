"""fish-speech's own int4 arithmetic on weights made here: tools/llama/quantize.py's
group_quantize_tensor (the part of --mode int4 that runs on any device; the packing after it,
_convert_weight_to_int4pack, lays the values out for one CUDA kernel) applied to bf16 weight
matrices, for every group size quantize.py allows. Writes a torch.save'd dict that Reef's pth
reader loads: per case "<case>.w" (bf16 [N, K]), "<case>.q" (uint8 [N, K], the 4-bit values) and
"<case>.scales_and_zeros" (bf16 [K/g, N, 2], as quantize.py packs them).

quantize.py imports fish-speech's model code and click at its top; neither is used by
group_quantize_tensor, so both are stubbed here rather than installed.
(tests/parity/make_int4_fixture.sh runs this; our own code.)
"""
import argparse
import importlib.util
import sys
import types

import torch


def load_quantize_py(tree):
    click = types.ModuleType("click")
    click.command = lambda *a, **k: (lambda f: f)
    click.option = lambda *a, **k: (lambda f: f)
    click.Path = lambda *a, **k: None
    sys.modules.setdefault("click", click)
    for name in ["fish_speech", "fish_speech.models", "fish_speech.models.text2semantic"]:
        sys.modules.setdefault(name, types.ModuleType(name))
    inference = types.ModuleType("fish_speech.models.text2semantic.inference")
    inference.init_model = None
    llama = types.ModuleType("fish_speech.models.text2semantic.llama")
    llama.find_multiple = None
    sys.modules["fish_speech.models.text2semantic.inference"] = inference
    sys.modules["fish_speech.models.text2semantic.llama"] = llama
    spec = importlib.util.spec_from_file_location("fs_quantize", f"{tree}/tools/llama/quantize.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fish-speech", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    q = load_quantize_py(args.fish_speech)
    gen = torch.Generator().manual_seed(44)
    out = {}
    for group in (32, 64, 128, 256):
        n, k = 24, 512
        w = (torch.randn(n, k, generator=gen) * 0.05).to(torch.bfloat16)
        w[1, :group] = 0.125                  # a constant group: the 1e-6 floor of the scale
        w[2] = w[2] * 40                      # a wide row
        w[3, 5] = -3.0                        # one outlier in a group
        w_int32, scales_and_zeros = q.group_quantize_tensor(w, n_bit=4, groupsize=group)
        name = f"g{group}"
        out[f"{name}.w"] = w
        out[f"{name}.q"] = w_int32.to(torch.uint8)
        out[f"{name}.scales_and_zeros"] = scales_and_zeros
    torch.save(out, args.out)
    print(f"wrote {args.out}: {len(out)} tensors, torch {torch.__version__}")


if __name__ == "__main__":
    main()
