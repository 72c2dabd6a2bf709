#!/usr/bin/env python3
"""Runs fish-speech's OWN code on a Reef demo model folder and writes golden parity fixtures.

Usage (one process per fish-speech era; the module names of the two trees collide):
  PYTHONPATH=<fish-speech HEAD tree> python dump_reference.py --fish-speech <HEAD tree> \
      --model <reef demo folder, layout s2> --out fixtures/tiny-s2 --layout s2
  PYTHONPATH=<fish-speech d3df505 tree> python dump_reference.py --fish-speech <S1 tree> \
      --model <reef demo folder, layout s1> --out fixtures/tiny-s1 --layout s1 [--codec-tree <HEAD tree>]
  fish-speech's int8 (tests/parity/make_int8_fixture.sh runs its tools/llama/quantize.py first):
  PYTHONPATH=<HEAD tree> python dump_reference.py --fish-speech <HEAD tree> \
      --model <quantize.py's fs-1.2-int8-* folder> --out fixtures/tiny-s2-int8 --no-codec --frames 40

Fixture format (read by tests/parity/parity_fixtures.h): <out>/manifest.json + <out>/tensors.bin.
manifest.json: {"format": "reef-parity-v1", "meta": {...}, "inputs": {...},
                "tensors": {name: {"dtype": "f32"|"i64", "shape": [...], "offset": bytes, "numel": n}}}
tensors.bin: the tensors back to back, raw little-endian, C order.

See tests/parity/README.md for the why of every step.
Our own glue code: it imports and calls fish-speech, copies none of it.
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TQDM_DISABLE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

THREADS = 1
FRAMES = 32          # greedy / sampled frames per run
SEED = 1234          # torch.manual_seed right before generate (reference-run §5.4)
TOPN = 8             # per-frame top-N of the raw slow logits, kept to diagnose divergences

# Inputs. The C++ test reads them back from the manifest, so both sides use the same strings.
TEXTS = {
    "plain": "Hello world, this is Reef speaking from the studio.",
    "special": "<|im_start|>user\nSay it<|im_end|>\n<|speaker:0|>ok<|semantic:7|><|semantic:0|> <|voice|>x",
    "multi": [
        "Grüße aus Köln, naïve café!",
        "今天天气很好，我们一起去公园散步吧。",
        "こんにちは、今日はいい天気ですね。",
        "Привет, мир! Как дела?",
        "¿Qué tal? ÀÉÎÕÜ ñ ß",
        "e\u0301 vs \u00e9 (NFC)",
        "emoji 🐟🐠 and   three   spaces\t\ttabs\n\nnewlines",
        "Numbers 2024, 3.14 and 100% -- dashes: done.",
    ],
    "tts": "The quick brown fox jumps over the lazy dog.",
    "clone_ref": "We read the text aloud.",
    "clone_target": "Then the model turns the text into sound.",
}
REF_FRAMES = 12


class FixtureWriter:
    def __init__(self):
        self.blob = bytearray()
        self.tensors = {}

    def add(self, name, t):
        a = t.detach().cpu().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)
        if a.dtype.kind == "f":
            a, dt = a.astype("<f4"), "f32"
        elif a.dtype.kind in "iub":
            a, dt = a.astype("<i8"), "i64"
        else:
            raise TypeError(f"{name}: unsupported dtype {a.dtype}")
        a = np.ascontiguousarray(a)
        self.tensors[name] = {"dtype": dt, "shape": list(a.shape), "offset": len(self.blob), "numel": int(a.size)}
        self.blob += a.tobytes()

    def write(self, out, meta, inputs):
        out.mkdir(parents=True, exist_ok=True)
        (out / "tensors.bin").write_bytes(bytes(self.blob))
        manifest = {"format": "reef-parity-v1", "meta": meta, "inputs": inputs, "tensors": self.tensors}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def git_commit(tree):
    marker = Path(tree) / ".fish-speech-commit"
    if marker.exists():
        return marker.read_text().strip()
    try:
        return subprocess.check_output(["git", "-C", str(tree), "rev-parse", "HEAD"], text=True).strip()
    except Exception:
        return "unknown"


def ref_codes(num_codebooks, frames, codebook_size):
    """Fixed reference codes for the voice-clone prompt (row 0 semantic, < 4096; rows 1.. < 1024)."""
    rs = np.random.RandomState(7)
    codes = rs.randint(0, 1024, size=(num_codebooks, frames)).astype(np.int64)
    codes[0] = rs.randint(0, min(4096, codebook_size), size=frames)
    return torch.from_numpy(codes)


# --------------------------------------------------------------------------------------------
# LM loading + checks (reference-run §3.6, §5.5)


def strip_unknown_config_keys(model_dir, tmp_root):
    """d3df505's BaseModelArgs.from_pretrained passes every config.json key to DualARModelArgs(**data),
    so a key that era does not know raises TypeError. If the folder has such keys, load a copy whose
    config.json drops them (other files symlinked) and report the keys (a Reef writer discrepancy)."""
    import dataclasses

    from fish_speech.models.text2semantic import llama

    data = json.loads((model_dir / "config.json").read_text())
    if data.get("model_type") != "dual_ar":
        return model_dir, []
    known = {f.name for f in dataclasses.fields(llama.DualARModelArgs)}
    unknown = sorted(k for k in data if k not in known)
    if not unknown:
        return model_dir, []
    copy = Path(tmp_root) / "model"
    copy.mkdir(parents=True)
    for f in model_dir.iterdir():
        if f.name != "config.json":
            (copy / f.name).symlink_to(f)
    (copy / "config.json").write_text(json.dumps({k: v for k, v in data.items() if k in known}, indent=2))
    print(f"WARNING: config.json keys unknown to this fish-speech era, dropped for loading: {unknown}")
    return copy, unknown


def load_lm(model_dir):
    from fish_speech.models.text2semantic import inference as inf

    # An int8 folder makes from_pretrained import tools/llama/quantize.py, which in the S1-era tree
    # (d3df505) imports load_model, renamed init_model there (same arguments): the alias lets its
    # int8 path run unchanged (make_int8_fixture.sh sets the same for quantize.py itself).
    if not hasattr(inf, "load_model"):
        inf.load_model = inf.init_model
    model, decode_one_token = inf.init_model(str(model_dir), "cpu", torch.float32, compile=False)
    if model.tokenizer is None:
        raise SystemExit("fish-speech could not load the tokenizer of " + str(model_dir) + " (see its warning above)")
    check_keys(model, Path(model_dir))
    return inf, model, decode_one_token


def check_keys(model, model_dir):
    """strict=False hides misnamed keys: compare the file's (remapped) keys with the model's."""
    from fish_speech.models.text2semantic import llama

    if (model_dir / "model.safetensors").exists():
        from safetensors.torch import load_file

        w = load_file(str(model_dir / "model.safetensors"))
        remap = getattr(llama, "_remap_fish_qwen3_omni_keys", None)
        if remap is not None:
            w = remap(w)
    else:
        w = torch.load(model_dir / "model.pth", map_location="cpu", weights_only=True)
        if "state_dict" in w:
            w = w["state_dict"]
        w = {k[len("model."):] if k.startswith("model.") else k: v for k, v in w.items()}
        w = {k: v for k, v in w.items() if "audio_" not in k}
    file_keys = set(w)
    model_keys = {k for k in model.state_dict() if ".kv_cache." not in k}
    missing, unexpected = sorted(model_keys - file_keys), sorted(file_keys - model_keys)
    if missing or unexpected:
        raise SystemExit(f"state_dict key mismatch: missing {missing[:8]} unexpected {unexpected[:8]}")
    sd = model.state_dict()
    for k, v in w.items():
        if tuple(sd[k].shape) != tuple(v.shape):
            raise SystemExit(f"shape mismatch for {k}: file {tuple(v.shape)} model {tuple(sd[k].shape)}")
        if not torch.equal(sd[k].float(), v.float()):
            raise SystemExit(f"weight {k} was not loaded from the file")


# --------------------------------------------------------------------------------------------
# Prompts (reference-run §3.7, §3.8 S1 era)


def build_prompts_s2(tok, num_codebooks, codebook_size):
    from fish_speech.content_sequence import TextPart, VQPart
    from fish_speech.conversation import Conversation, Message

    def conversation(system_parts, user_text):
        conv = Conversation()
        conv.append(Message(role="system", parts=system_parts, cal_loss=False, add_im_start=True, add_im_end=True))
        conv.append(Message(role="user", parts=[TextPart(text=user_text, cal_loss=False)], cal_loss=False,
                            add_im_start=True, add_im_end=True))
        conv.append(Message(role="assistant", parts=[], cal_loss=False, modality="voice", add_im_start=True,
                            add_im_end=False))
        encoded, _, _ = conv.encode_for_inference(tok, num_codebooks=num_codebooks)
        return encoded

    # generate_long without references
    plain = conversation([TextPart(text="convert the provided text to speech", cal_loss=False)], TEXTS["tts"])
    # generate_long with one reference: untagged reference text gets "<|speaker:0|>"
    codes = ref_codes(num_codebooks, REF_FRAMES, codebook_size)
    system = [
        TextPart(text="convert the provided text to speech reference to the following:\n\nText:\n", cal_loss=False),
        TextPart(text="<|speaker:0|>" + TEXTS["clone_ref"], cal_loss=False),
        TextPart(text="\n\nSpeech:\n", cal_loss=False),
        VQPart(codes=codes, cal_loss=False),
    ]
    clone = conversation(system, TEXTS["clone_target"])
    return plain, clone, codes


def build_prompts_s1(tok, num_codebooks, codebook_size):
    from fish_speech.content_sequence import ContentSequence, TextPart, VQPart

    def seq(references, text):
        cs = ContentSequence(modality="interleave")
        for ref_text, ref in references:
            cs.append([TextPart(text=ref_text), VQPart(codes=ref)], add_end=True, speaker=0)
        cs.append([TextPart(text=text)], add_end=False, speaker=0)
        encoded, _, _ = cs.encode_for_inference(tok, num_codebooks=num_codebooks)
        return encoded

    codes = ref_codes(num_codebooks, REF_FRAMES, codebook_size)
    return seq([], TEXTS["tts"]), seq([(TEXTS["clone_ref"], codes)], TEXTS["clone_target"]), codes


# --------------------------------------------------------------------------------------------
# Generation with capture hooks (reference-run §3.8)


class Capture:
    def __init__(self, model):
        self.slow = []      # (logits [V], hidden [Cf]) per frame
        self.fast = []      # fast_output outputs, in call order
        self.prompt = None
        orig = model.forward_generate

        def wrapped(*a, **kw):
            r = orig(*a, **kw)
            if self.prompt is None:
                self.prompt = a[0].clone()
            self.slow.append((r.logits.reshape(-1).clone(), r.hidden_states.reshape(-1).clone()))
            return r

        model.forward_generate = wrapped
        self.hook = model.fast_output.register_forward_hook(
            lambda m, i, o: self.fast.append(o.reshape(-1).clone()))

    def reset(self):
        self.slow, self.fast, self.prompt = [], [], None


def run_generate(inf, model, decode_one_token, prompt, s1, seed, greedy, knobs):
    torch.manual_seed(seed)
    kw = dict(model=model, prompt=prompt, max_new_tokens=FRAMES, audio_masks=None, audio_parts=None,
              decode_one_token=decode_one_token, temperature=knobs["temperature"], top_p=knobs["top_p"])
    if s1:
        kw["repetition_penalty"] = knobs["repetition_penalty"]
    else:
        kw["top_k"] = knobs["top_k"]
    y = inf.generate(**kw)
    return y[:, prompt.shape[1]:].clone()  # [N+1, n]: prefill frame + decode frames


def probs_fixed_logit(inf, logits, s1, knobs):
    """fish-speech's own logits_to_probs on a fixed logit vector (for the distribution test)."""
    t = torch.tensor(knobs["temperature"], dtype=torch.float32)
    p = torch.tensor(knobs["top_p"], dtype=torch.float32)
    with torch.inference_mode():
        if s1:
            return inf.logits_to_probs(logits.clone(), t, p, torch.tensor(1.0), None)
        return inf.logits_to_probs(logits.clone(), t, p, knobs["top_k"])


# --------------------------------------------------------------------------------------------
# Codec (reference-run §3.9, §3.10)


def codec_fixtures(model_dir, fw, inputs):
    import fs_shim

    yaml_path = model_dir / "codec_config.yaml"
    codec = fs_shim.build_codec(str(yaml_path))
    from fish_speech.models.dac import modded_dac

    for m in codec.modules():
        if isinstance(m, modded_dac.Transformer):  # 32768² masks are never read by the window transformer
            m.causal_mask = torch.ones(1, 1, dtype=torch.bool)
    state = torch.load(model_dir / "codec.pth", map_location="cpu", weights_only=True)
    if "state_dict" in state:
        state = state["state_dict"]
    if any("generator" in k for k in state):
        state = {k.replace("generator.", ""): v for k, v in state.items() if "generator." in k}
    res = codec.load_state_dict(state, strict=False)
    if res.missing_keys or res.unexpected_keys:
        raise SystemExit(f"codec key mismatch: missing {res.missing_keys[:8]} unexpected {res.unexpected_keys[:8]}")
    codec = codec.eval().to("cpu", torch.float32)

    n_cb = 1 + codec.quantizer.residual_vq.n_codebooks if hasattr(codec.quantizer, "residual_vq") else 10
    rs = np.random.RandomState(11)
    codes = rs.randint(0, 1024, size=(n_cb, 6)).astype(np.int64)
    codes[0] = rs.randint(0, 4096, size=6)
    codes = torch.from_numpy(codes)
    with torch.inference_mode():
        pcm = codec.from_indices(codes[None].clone())[0, 0]
    fw.add("codec_codes_in", codes)
    fw.add("codec_pcm", pcm)

    # A fixed 44.1 kHz clip, not a multiple of the 2048-sample frame: chirp + a little noise.
    sr = 44100
    n = 2048 * 4 + 777
    t = np.arange(n) / sr
    clip = 0.4 * np.sin(2 * np.pi * (220 * t + 900 * t * t)) + 0.05 * rs.standard_normal(n)
    clip = torch.from_numpy(clip.astype(np.float32))
    with torch.inference_mode():
        idx, lens = codec.encode(clip[None, None].float(), torch.tensor([clip.numel()]))
    fw.add("codec_clip", clip)
    fw.add("codec_codes_out", idx[0, :, : int(lens[0])])
    inputs["codec"] = {"clip_samples": n, "sample_rate": sr}


# --------------------------------------------------------------------------------------------


def main():
    global FRAMES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fish-speech", required=True, help="fish-speech source tree (HEAD for s2, d3df505 for s1)")
    ap.add_argument("--model", required=True, help="Reef demo model folder (reef-cli demo-model)")
    ap.add_argument("--out", required=True, help="fixture folder to write")
    ap.add_argument("--layout", choices=["s2", "s1"], default="s2")
    ap.add_argument("--no-codec", action="store_true", help="skip the codec fixtures")
    ap.add_argument("--frames", type=int, default=FRAMES, help=f"frames per generate run (default {FRAMES})")
    args = ap.parse_args()
    FRAMES = args.frames

    fs_tree = Path(args.fish_speech).resolve()
    sys.path.insert(0, str(fs_tree))
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # fs_shim
    torch.set_num_threads(THREADS)
    model_dir = Path(args.model).resolve()
    s1 = args.layout == "s1"

    import tempfile

    tmp = tempfile.TemporaryDirectory(prefix="reef-parity-")
    load_dir, dropped_keys = strip_unknown_config_keys(model_dir, tmp.name)
    inf, model, decode_one_token = load_lm(load_dir)
    cfg = model.config
    tok = model.tokenizer
    fw = FixtureWriter()
    inputs = {"texts": TEXTS, "frames": FRAMES, "seed": SEED, "ref_frames": REF_FRAMES}

    # Token ids of each prompt part
    fw.add("tok_plain", torch.tensor(tok.encode(TEXTS["plain"]), dtype=torch.long))
    fw.add("tok_special", torch.tensor(tok.encode(TEXTS["special"]), dtype=torch.long))
    for i, t in enumerate(TEXTS["multi"]):
        fw.add(f"tok_multi_{i}", torch.tensor(tok.encode(t), dtype=torch.long))
    fw.add("semantic_range", torch.tensor([tok.semantic_begin_id, tok.semantic_end_id,
                                           tok.get_token_id("<|im_end|>")], dtype=torch.long))

    build = build_prompts_s1 if s1 else build_prompts_s2
    prompt, prompt_clone, codes = build(tok, cfg.num_codebooks, cfg.codebook_size)
    fw.add("prompt", prompt)
    fw.add("prompt_clone", prompt_clone)
    fw.add("ref_codes", codes)

    cap = Capture(model)
    # Greedy: S2 top_k=1; S1 (no top-k) a tiny top_p and no repetition penalty (reference-run §3.8).
    greedy = ({"temperature": 0.7, "top_p": 1e-6, "repetition_penalty": 1.0} if s1
              else {"temperature": 0.8, "top_p": 0.8, "top_k": 1})
    codes_g = run_generate(inf, model, decode_one_token, prompt, s1, SEED, True, greedy)
    if not torch.equal(cap.prompt.reshape(prompt.shape).long(), prompt.long()):
        raise SystemExit("the prompt the model saw differs from the built prompt")
    fw.add("greedy_codes", codes_g)
    logits0, hidden0 = cap.slow[0]
    fw.add("prefill_logits", logits0)
    fw.add("prefill_hidden", hidden0)
    N = cfg.num_codebooks
    fw.add("fast_logits_f0", torch.stack(cap.fast[:N]))  # fast positions 0..N-1 of the prefill frame
    tops = [torch.topk(l, TOPN) for l, _ in cap.slow]
    fw.add("greedy_top_vals", torch.stack([t.values for t in tops]))
    fw.add("greedy_top_ids", torch.stack([t.indices for t in tops]))

    # Greedy on the voice-clone prompt too (exercises VQ embeddings in the prompt)
    cap.reset()
    fw.add("greedy_codes_clone", run_generate(inf, model, decode_one_token, prompt_clone, s1, SEED, True, greedy))
    fw.add("prefill_logits_clone", cap.slow[0][0])

    # Seeded sampling with fish-speech's defaults for the era
    sampled = ({"temperature": 0.7, "top_p": 0.7, "repetition_penalty": 1.2} if s1
               else {"temperature": 0.8, "top_p": 0.8, "top_k": 30})
    cap.reset()
    fw.add("sampled_codes", run_generate(inf, model, decode_one_token, prompt, s1, SEED, False, sampled))
    # A second stream that leans on the era's anti-repetition rule: S2 a low temperature, so the
    # normal sample repeats and RAS swaps in the high-temperature draw; S1 a strong penalty.
    sampled_2 = ({"temperature": 0.1, "top_p": 0.95, "repetition_penalty": 1.9} if s1
                 else {"temperature": 0.3, "top_p": 0.5, "top_k": 30})
    penalty_ids = []

    def spy(**kw):  # S1: the ids fish-speech penalises for the main token at each decode step
        if kw.get("previous_tokens") is not None:
            penalty_ids.append(kw["previous_tokens"][:, 0].clone().long())
        return decode_one_token(**kw)

    fw.add("sampled_codes_2", run_generate(inf, model, spy if s1 else decode_one_token, prompt, s1, SEED + 1, False,
                                           sampled_2))
    if s1:
        fw.add("s1_main_penalty_ids", torch.stack(penalty_ids))  # [decode steps, N+1]

    # Distribution fixture: fish-speech's probabilities for a fixed logit vector (the biased
    # prefill logits in S2; raw in S1) with knobs that keep a few dozen candidates.
    dist = ({"temperature": 1.0, "top_p": 0.5, "repetition_penalty": 1.0} if s1
            else {"temperature": 1.0, "top_p": 0.95, "top_k": 40})
    fixed = logits0.clone()
    if not s1:
        bias = torch.full_like(fixed, float("-inf"))
        bias[tok.semantic_begin_id: tok.semantic_end_id + 1] = 0
        bias[tok.get_token_id("<|im_end|>")] = 0
        fixed = fixed + bias
    fw.add("dist_logits", fixed)
    fw.add("dist_probs", probs_fixed_logit(inf, fixed, s1, dist))
    inputs.update({"greedy_knobs": greedy, "sampled_knobs": sampled, "sampled_2_knobs": sampled_2,
                   "sampled_2_seed": SEED + 1, "dist_knobs": dist})

    if not s1 and not args.no_codec:
        codec_fixtures(model_dir, fw, inputs)

    marker = model_dir / "reef_demo.json"
    meta = {
        "layout": args.layout,
        "fish_speech_commit": git_commit(fs_tree),
        "torch_version": torch.__version__,
        "threads": torch.get_num_threads(),
        "model_folder": json.loads(marker.read_text()) if marker.exists() else str(model_dir),
        "config_keys_dropped_for_fish_speech": dropped_keys,
        "config": {"vocab_size": cfg.vocab_size, "num_codebooks": cfg.num_codebooks,
                   "codebook_size": cfg.codebook_size, "semantic_begin_id": tok.semantic_begin_id,
                   "semantic_end_id": tok.semantic_end_id, "max_seq_len": cfg.max_seq_len},
    }
    fw.write(Path(args.out), meta, inputs)
    print(f"wrote {len(fw.tensors)} tensors, {len(fw.blob)} bytes to {args.out}")


if __name__ == "__main__":
    main()
