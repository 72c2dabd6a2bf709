"""Runs fish-speech's own modded DAC (HEAD 3dd1f85) on Reef's tiny demo codec and writes the
fixture tst_codec_oracle compares against.

Usage (reference-run doc: torch 2.13 CPU, omegaconf, einops, tqdm, descript-audio-codec 1.0.0
--no-deps, the fish-speech tree on PYTHONPATH):
    reef-side: write_demo_codec(DIR, "tiny", 1234)   (tst_codec_oracle does it too)
    OMP_NUM_THREADS=1 PYTHONPATH=<fish-speech>:<pkgs> python make_fixture.py DIR OUT

Writes raw little-endian files: codes.bin (int64 [10, 150]; one residual code is 3000 to check
the clamp), pcm_strided.bin (float32, decode output pcm[::31]), enc.bin (int64 [10, 147], codes
of a 300000-sample two-tone signal). 150 frames pass the post_module's 128-frame window and
300000 samples (586 encoder frames) the encoder transformer's 512 window.
"""
import functools
import importlib
import importlib.util
import os
import sys
import types

import numpy as np
import torch
import torch.nn as nn

PCM_STRIDE = 31
N_FRAMES = 150
N_SAMPLES = 300000


def install_shim():
    # Load only dac's leaf modules and stub audiotools (reference-run §3.4).
    root = list(importlib.util.find_spec("dac").submodule_search_locations)[0]
    for name, sub in (("dac", ""), ("dac.nn", "nn"), ("dac.model", "model")):
        m = types.ModuleType(name)
        m.__path__ = [os.path.join(root, sub)]
        sys.modules[name] = m
    audiotools = types.ModuleType("audiotools")
    audiotools.__path__ = []
    ml = types.ModuleType("audiotools.ml")

    class AudioSignal:
        pass

    class BaseModel(nn.Module):
        pass

    audiotools.AudioSignal, ml.BaseModel, audiotools.ml = AudioSignal, BaseModel, ml
    sys.modules.update({"audiotools": audiotools, "audiotools.ml": ml})


def instantiate(node):
    # hydra-free recursive instantiate (reference-run §3.9).
    if isinstance(node, list):
        return [instantiate(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: instantiate(v) for k, v in node.items()}
    if "_target_" not in node:
        return node
    module, _, name = node.pop("_target_").rpartition(".")
    partial = node.pop("_partial_", False)
    target = getattr(importlib.import_module(module), name)
    return functools.partial(target, **node) if partial else target(**node)


def main(model_dir, out):
    torch.set_num_threads(1)
    install_shim()
    from omegaconf import OmegaConf

    cfg = OmegaConf.to_container(OmegaConf.load(os.path.join(model_dir, "codec_config.yaml")), resolve=True)
    model = instantiate(cfg)
    state = torch.load(os.path.join(model_dir, "codec.pth"), map_location="cpu", weights_only=True)
    print(model.load_state_dict(state, strict=True))  # every Reef key name and shape must match
    model.eval()
    for m in model.modules():
        if hasattr(m, "causal_mask"):
            m.causal_mask = torch.ones(1, 1, dtype=torch.bool)  # dead 32768^2 buffers

    g = torch.Generator().manual_seed(0)
    codes = torch.randint(0, 1024, (10, N_FRAMES), generator=g)
    codes[0] = torch.randint(0, 4096, (N_FRAMES,), generator=g)
    codes[3, 5] = 3000
    t = torch.arange(N_SAMPLES, dtype=torch.float32) / 44100.0
    wav = 0.3 * torch.sin(2 * np.pi * 220.0 * t) + 0.1 * torch.sin(2 * np.pi * 1250.0 * t)
    with torch.inference_mode():
        pcm = model.from_indices(codes[None].long().clone())[0, 0]
        idx, lens = model.encode(wav[None, None], torch.tensor([wav.numel()]))
        enc = idx[0, :, : lens[0]]
    os.makedirs(out, exist_ok=True)
    codes.numpy().astype("<i8").tofile(os.path.join(out, "codes.bin"))
    pcm[::PCM_STRIDE].numpy().astype("<f4").tofile(os.path.join(out, "pcm_strided.bin"))
    enc.numpy().astype("<i8").tofile(os.path.join(out, "enc.bin"))
    print("pcm", tuple(pcm.shape), float(pcm.std()), "enc", tuple(enc.shape))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
