"""Import shim that lets fish-speech's codec modules load without audiotools/torchaudio.

fish_speech/models/dac/modded_dac.py and rvq.py import leaf modules of the `dac` package
(descript-audio-codec 1.0.0, installed with --no-deps) and two *names* from audiotools. Importing
`dac.nn.layers` normally runs dac/__init__.py, which drags in the whole of audiotools (and
torchaudio, which has no wheel for torch 2.13). We pre-register bare package objects whose
__path__ points into the installed package, so Python loads only the leaf files, plus a stub
audiotools with a plain AudioSignal class and a BaseModel that is just an nn.Module.
(tests/parity/README.md; our own code.)

Also: a small hydra-free instantiate for a fish-speech codec yaml (OmegaConf, not PyYAML, so that
`1e-5` parses as a float), so a tiny demo codec can be built from its own yaml.
"""
import functools
import importlib
import importlib.util
import os
import sys
import types

import torch.nn as nn


def install():
    if getattr(sys.modules.get("audiotools"), "_reef_stub", False):
        return
    spec = importlib.util.find_spec("dac")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("descript-audio-codec (package 'dac') is not installed: pip install --no-deps descript-audio-codec==1.0.0")
    root = list(spec.submodule_search_locations)[0]
    for name, sub in (("dac", ""), ("dac.nn", "nn"), ("dac.model", "model")):
        mod = types.ModuleType(name)
        mod.__path__ = [os.path.join(root, sub)]
        sys.modules[name] = mod

    audiotools = types.ModuleType("audiotools")
    audiotools.__path__ = []
    audiotools._reef_stub = True
    ml = types.ModuleType("audiotools.ml")

    class AudioSignal:  # only used in annotations of CodecMixin.compress/decompress
        pass

    class BaseModel(nn.Module):  # audiotools' BaseModel adds only save/load helpers
        pass

    audiotools.AudioSignal = AudioSignal
    ml.BaseModel = BaseModel
    audiotools.ml = ml
    sys.modules["audiotools"] = audiotools
    sys.modules["audiotools.ml"] = ml


def _import_target(dotted):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def instantiate(node):
    """Recursive hydra-style instantiate over plain containers (children first)."""
    if isinstance(node, dict):
        kw = {k: instantiate(v) for k, v in node.items() if k not in ("_target_", "_partial_")}
        if "_target_" not in node:
            return kw
        target = _import_target(node["_target_"])
        if node.get("_partial_", False):
            return functools.partial(target, **kw)
        return target(**kw)
    if isinstance(node, list):
        return [instantiate(v) for v in node]
    return node


def build_codec(yaml_path):
    """The (randomly initialised) DAC described by a fish-speech codec yaml."""
    install()
    from omegaconf import OmegaConf

    cfg = OmegaConf.to_container(OmegaConf.load(yaml_path), resolve=True)
    return instantiate(cfg)
