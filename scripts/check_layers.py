#!/usr/bin/env python3
"""The layer order of Reef's sources, checked on every #include (docs/architecture.md).

Each source file belongs to one layer (LAYERS: the first matching pattern wins). A quoted include
may name a file of its own layer or of a layer it is allowed to see: a lower rank within the
engine's stack, or one listed in SEES for the layers outside it. Angle includes are checked for the
libraries a layer must not touch (torch in the UI and apps, Qt in the engine).

usage: scripts/check_layers.py [ROOT]      exit 0 when every edge is allowed, 1 with the list
"""
import fnmatch
import os
import re
import sys

# (pattern relative to the repository root, layer). Public headers in engine/include/reef are plain
# types (no torch): those every layer of the engine shares are "api"; the facade's own classes
# (Engine, the remote backend) and the study's report API sit at their layer.
LAYERS = [
    ("engine/include/reef/engine.h", "facade"),
    ("engine/include/reef/remote.h", "facade"),
    ("engine/include/reef/bench_report.h", "study"),
    ("engine/include/reef/*", "api"),
    ("engine/kernels/*", "kernels"),
    ("engine/audio/*", "audio"),
    ("engine/remote/*", "remote"),
    ("engine/src/base/*", "base"),
    ("engine/src/check.h", "base"),
    ("engine/src/input_limits.h", "base"),
    ("engine/src/library_versions.h", "base"),
    ("engine/src/memory_check.*", "base"),
    ("engine/src/cgroup_memory.*", "base"),
    ("engine/src/torch_pch.h", "base"),
    ("engine/src/sampling_settings.cpp", "base"),
    ("engine/src/checkpoint/*", "checkpoint"),
    ("engine/src/nn/*", "nn"),
    ("engine/src/text2semantic/*", "text2semantic"),
    ("engine/src/codec/*", "codec"),
    ("engine/src/compiled/*", "compiled"),
    ("engine/src/runtime/*", "runtime"),
    ("engine/src/study/*", "study"),
    ("engine/src/*", "facade"),   # engine.cpp, backend.cpp, version.cpp, types.cpp, demo_model.cpp
    ("ui/qt/*", "ui-qt"),
    ("ui/widgets/*", "ui-widgets"),
    ("app/*", "app"),
    ("examples/*", "app"),
]

# The engine's stack, lowest first: a layer sees every layer of a lower rank and its own; layers
# of one rank do not see each other (text2semantic and the codec; the public types and the SIMD
# kernels, which include nothing of the engine).
STACK = {"api": 0, "kernels": 0, "base": 1, "checkpoint": 2, "nn": 3, "text2semantic": 4, "codec": 4,
         "compiled": 5, "runtime": 6, "study": 7, "facade": 8}

# Layers outside the stack: what each may include besides itself.
SEES = {
    "audio": set(),
    "remote": {"api", "facade", "audio"},                       # a TtsBackend, PCM helpers
    "ui-qt": {"api", "facade", "study", "audio", "remote"},     # public headers only
    "ui-widgets": {"api", "facade", "study", "audio", "remote", "ui-qt"},
    "app": {"api", "facade", "study", "audio", "remote", "ui-qt", "ui-widgets"},
}
# Within the stack, the engine's internal headers are not public: the layers outside may include
# only engine/include (api, facade's public headers, study's report API).
PUBLIC_ONLY = {"remote", "ui-qt", "ui-widgets", "app"}

TORCH = re.compile(r"^(torch|ATen|c10|caffe2)/")
QT = re.compile(r"^Q[A-Za-z]+(/|$)|^Qt[A-Za-z]+/")
NO_TORCH = {"kernels", "audio", "remote", "ui-qt", "ui-widgets", "app"}
NO_QT = set(STACK) | {"audio", "remote"}

# Where a quoted include is looked for: the including file's folder, then these include roots.
ROOTS = ["engine/src", "engine/include", "engine", "engine/kernels", "ui", "app/cli", "app"]
SOURCE_DIRS = ["engine", "ui", "app", "examples"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(path):
    for pattern, layer in LAYERS:
        if fnmatch.fnmatch(path, pattern):
            return layer
    return None


def allowed(src, dst):
    if src == dst:
        return True
    if src in STACK and dst in STACK:
        return STACK[dst] < STACK[src]
    if src in SEES:
        return dst in SEES[src]
    return False


def resolve(root, including, name):
    for base in [os.path.dirname(including)] + ROOTS:
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def check(root):
    problems = []
    edges = 0
    for top in SOURCE_DIRS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".h", ".hpp", ".cpp", ".cc", ".inc")):
                    continue
                path = os.path.relpath(os.path.join(folder, f), root)
                src = layer_of(path)
                if src is None:
                    problems.append(f"{path}: in no layer (add it to scripts/check_layers.py's LAYERS)")
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    for lineno, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        kind, name = m.groups()
                        where = f"{path}:{lineno}: {src} includes {kind}{name}{'>' if kind == '<' else kind}"
                        if kind == "<":
                            if src in NO_TORCH and TORCH.match(name):
                                problems.append(f"{where}: {src} never includes torch")
                            if src in NO_QT and QT.match(name):
                                problems.append(f"{where}: {src} never includes Qt")
                            continue
                        target = resolve(root, path, name)
                        if target is None:
                            continue   # a generated or system header found through -I
                        dst = layer_of(target)
                        edges += 1
                        if src in PUBLIC_ONLY and target.startswith("engine/src/"):
                            problems.append(f"{where} ({target}): {src} uses the engine's public headers only")
                        elif dst is None or not allowed(src, dst):
                            problems.append(f"{where} ({target}, layer {dst}): not allowed")
    return edges, problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    edges, problems = check(root)
    for p in problems:
        print(p)
    print(f"layers: {edges} include edges checked, {len(problems)} not allowed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
