#!/usr/bin/env python3
"""Writes the committed seed corpora of tests/fuzz/corpus/<harness>/ from the tiny demo models and
the hostile cases of tests/unit/data/hostile/make_hostile.py: a few small files per harness (each
well under 100 KB; the demo weights themselves are megabytes and are cut down to a few tensors).

usage: make_seeds.py S2_DEMO S1_DEMO HOSTILE_DIR OUT_DIR
  S2_DEMO / S1_DEMO: `reef-cli demo-model DIR --preset tiny [--layout s1]`
  HOSTILE_DIR: the OUT_DIR of make_hostile.py run on those two folders
Needs the venv's torch (to cut .pth files down; torch.save writes the real format) and, for the
FLAC and OGG seeds, sndfile-convert (Debian sndfile-programs). Deterministic apart from those tools."""
import collections, io, json, os, shutil, struct, subprocess, sys

import torch

s2, s1, hostile, out = sys.argv[1:5]


def put(harness, name, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    assert len(data) < 100_000, (harness, name, len(data))
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(*p):
    with open(os.path.join(*p), "rb") as f:
        return f.read()


# --- safetensors: the demo model's smallest tensors, re-packed; the demo header with no data ---
def safetensors_bytes(tensors, meta=None, shift=None):
    header, blobs, off = {}, [], 0
    if meta:
        header["__metadata__"] = meta
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    if shift:
        header[shift]["data_offsets"] = [o + (1 << 40) for o in header[shift]["data_offsets"]]
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h)) + h + b"".join(blobs)


st = read(s2, "model.safetensors")
n = struct.unpack("<Q", st[:8])[0]
header = json.loads(st[8:8 + n])
data = st[8 + n:]
entries = sorted((e["data_offsets"][1] - e["data_offsets"][0], k) for k, e in header.items() if k != "__metadata__")
small = collections.OrderedDict()
for _, k in entries[:6]:
    e = header[k]
    b, en = e["data_offsets"]
    small[k] = (e["dtype"], e["shape"], data[b:en])
put("safetensors", "demo_small.safetensors", safetensors_bytes(small, header.get("__metadata__")))
put("safetensors", "dtypes.safetensors", safetensors_bytes(collections.OrderedDict(
    [("f16", ("F16", [2, 2], b"\x00\x3c" * 4)), ("bf16", ("BF16", [3], b"\x80\x3f" * 3)),
     ("i64", ("I64", [1], struct.pack("<q", -7))), ("u8", ("U8", [0, 5], b"")), ("bool", ("BOOL", [2], b"\x01\x00"))])))
put("safetensors", "hostile_range.safetensors", safetensors_bytes(small, shift=next(iter(small))))
# int8 (issue #44): one projection of fuzz_safetensors.cpp's small config as quantize.py stores it
# (int8 weight, bf16 scales), and the hostile mixes: an int8 weight without scales, scales beside a
# bf16 weight, an int8 norm, fish-speech's int4 pack
def q8(rows, cols):
    return bytes((i * 37) % 256 for i in range(rows * cols))
int8_good = collections.OrderedDict([
    ("layers.0.attention.wqkv.weight", ("I8", [64, 32], q8(64, 32))),
    ("layers.0.attention.wqkv.scales", ("BF16", [64], b"\x00\x3c" * 64)),
    ("layers.0.attention.wo.weight", ("I8", [32, 32], q8(32, 32))),
    ("layers.0.attention.wo.scales", ("BF16", [32], b"\x00\x3c" * 32))])
put("safetensors", "int8_linears.safetensors", safetensors_bytes(int8_good, {"reef.quantization": "int8"}))
put("safetensors", "int8_hostile.safetensors", safetensors_bytes(collections.OrderedDict([
    ("layers.0.feed_forward.w1.weight", ("I8", [64, 32], q8(64, 32))),
    ("layers.0.feed_forward.w2.weight", ("BF16", [32, 64], b"\x80\x3f" * 2048)),
    ("layers.0.feed_forward.w2.scales", ("BF16", [32], b"\x00\x3c" * 32)),
    ("norm.weight", ("I8", [32], q8(1, 32))),
    ("layers.0.attention.wqkv.scales_and_zeros", ("BF16", [1, 64, 2], b"\x00\x3c" * 128))])))
# int4 (issue #44): two projections in Reef's layout (uint8 [N, K/2], bf16 scales and zeros
# [N, K/32]), and the hostile mixes: zeros missing, a truncated pack, a group that does not divide
# K, fp32 scales, zeros beside a bf16 weight, a uint8 embedding
int4_good = collections.OrderedDict([
    ("layers.0.attention.wqkv.weight", ("U8", [64, 16], q8(64, 16))),
    ("layers.0.attention.wqkv.scales", ("BF16", [64, 1], b"\x00\x3c" * 64)),
    ("layers.0.attention.wqkv.zeros", ("BF16", [64, 1], b"\x00\x00" * 64)),
    ("layers.0.attention.wo.weight", ("U8", [32, 16], q8(32, 16))),
    ("layers.0.attention.wo.scales", ("BF16", [32, 1], b"\x00\x3c" * 32)),
    ("layers.0.attention.wo.zeros", ("BF16", [32, 1], b"\x00\x00" * 32))])
put("safetensors", "int4_linears.safetensors", safetensors_bytes(int4_good, {"reef.quantization": "int4"}))
put("safetensors", "int4_hostile.safetensors", safetensors_bytes(collections.OrderedDict([
    ("layers.0.feed_forward.w1.weight", ("U8", [64, 16], q8(64, 16))),
    ("layers.0.feed_forward.w1.scales", ("BF16", [64, 1], b"\x00\x3c" * 64)),
    ("layers.0.feed_forward.w2.weight", ("U8", [32, 31], q8(32, 31))),
    ("layers.0.feed_forward.w2.scales", ("BF16", [32, 2], b"\x00\x3c" * 64)),
    ("layers.0.feed_forward.w2.zeros", ("BF16", [32, 2], b"\x00\x00" * 64)),
    ("layers.0.feed_forward.w3.weight", ("U8", [64, 16], q8(64, 16))),
    ("layers.0.feed_forward.w3.scales", ("F32", [64, 3], b"\x00\x00\x80\x3f" * 192)),
    ("layers.0.feed_forward.w3.zeros", ("BF16", [64, 3], b"\x00\x00" * 192)),
    ("layers.0.attention.wo.weight", ("BF16", [32, 32], b"\x80\x3f" * 1024)),
    ("layers.0.attention.wo.zeros", ("BF16", [32, 1], b"\x00\x00" * 32)),
    ("embeddings.weight", ("U8", [64, 16], q8(64, 16)))])))
demo_header = st[:8 + n]
if len(demo_header) < 90_000:
    put("safetensors", "demo_header_only.safetensors", demo_header)

# --- model.safetensors.index.json: the keys fuzz_safetensors_index.cpp writes into its two shards ---
a, b = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
wm = {"embed.weight": a, "layers.0.attn.wqkv.weight": a, "layers.0.norm.weight": b, "output.bias": b}
put("safetensors_index", "index.json", json.dumps({"metadata": {"total_size": 116}, "weight_map": wm}, indent=2))
put("safetensors_index", "missing_key.json", json.dumps({"weight_map": dict(wm, **{"lm_head.weight": a})}))
put("safetensors_index", "dotdot.json", json.dumps({"weight_map": {k: "../" + v for k, v in wm.items()}}))
put("safetensors_index", "absolute.json", json.dumps({"weight_map": {"embed.weight": "/etc/passwd"}}))
for case in ("index_dotdot",):
    raw = json.loads(read(hostile, case, "model.safetensors.index.json"))
    raw["weight_map"] = dict(list(raw["weight_map"].items())[:4])
    put("safetensors_index", case + ".json", json.dumps(raw))

# --- .pth: a few demo tensors re-saved by torch.save (zip + pickle), views of one storage, hostile ---
def pth_bytes(obj):
    buf = io.BytesIO()  # a buffer, so the zip's folder is named "archive" as for any torch.save to a stream
    torch.save(obj, buf)
    return buf.getvalue()


sd = torch.load(os.path.join(s1, "model.pth"), map_location="cpu", weights_only=True)
keys = sorted(sd, key=lambda k: sd[k].numel())[:5]
put("pth", "demo_small.pth", pth_bytes(collections.OrderedDict((k, sd[k].clone()) for k in keys)))
codec = torch.load(os.path.join(s2, "codec.pth"), map_location="cpu", weights_only=True)
ck = sorted(codec, key=lambda k: codec[k].numel())[:3]
put("pth", "codec_nested.pth", pth_bytes({"state_dict": collections.OrderedDict((k, codec[k].clone()) for k in ck),
                                          "epoch": 3, "names": ["a", "b"], "lr": 1e-4, "flag": True, "none": None}))
base = torch.arange(16, dtype=torch.float32)
put("pth", "views.pth", pth_bytes(collections.OrderedDict(
    [("a", base[:8]), ("b", base[8:].view(2, 4)), ("t", base.view(4, 4).t()), ("h", torch.ones(3, dtype=torch.float16)),
     ("bf", torch.zeros(2, 2, dtype=torch.bfloat16)), ("i", torch.tensor([1, 2], dtype=torch.int64)),
     ("p", torch.nn.Parameter(torch.ones(2)))])))
# pth_expansion (dicts shared through the memo) is left out: refusing it walks the whole node budget,
# about 5 s per input under ASan, and every mutation of it would be as slow; tst_hostile_inputs covers it.
put("pth", "pth_broadcast.pth", read(hostile, "pth_broadcast", "model.pth"))

# --- config.json, both layouts, and the hostile sizes ---
put("model_config", "s2_config.json", read(s2, "config.json"))
put("model_config", "s1_config.json", read(s1, "config.json"))
for case in ("config_seq_len", "config_vocab", "config_layers", "config_s1_dim", "config_too_big"):
    put("model_config", case + ".json", read(hostile, case, "config.json"))

# --- codec_config.json ---
put("codec_config", "codec_config.json", read(s2, "codec_config.json"))
put("codec_config", "codec_rate_zero.json", read(hostile, "codec_rate_zero", "codec_config.json"))

# --- tokenizer.json: the demo tokenizer with 8 of its 4096 semantic tokens (the rest is ~600 KB) ---
def trim_tokenizer(tok):
    keep = lambda t: not t.startswith("<|semantic:") or int(t[len("<|semantic:"):-2]) < 8
    tok["model"]["vocab"] = {t: i for t, i in tok["model"]["vocab"].items() if keep(t)}
    tok["added_tokens"] = [a for a in tok["added_tokens"] if keep(a["content"])]
    return tok


tok = trim_tokenizer(json.loads(read(s2, "tokenizer.json")))
put("tokenizer_json", "demo_tokenizer.json", json.dumps(tok, ensure_ascii=False))
for case in ("tokenizer_id", "tokenizer_regex"):
    put("tokenizer_json", case + ".json", json.dumps(trim_tokenizer(json.loads(read(hostile, case, "tokenizer.json"))),
                                                     ensure_ascii=False))

# --- tokenizer.tiktoken + special_tokens.json, one input (see fuzz_tiktoken.cpp) ---
SEP = b"\n#special_tokens.json\n"
ranks = read(s1, "tokenizer.tiktoken")
special = json.loads(read(s1, "special_tokens.json"))
special = {t: i for t, i in special.items() if not t.startswith("<|semantic:") or int(t[len("<|semantic:"):-2]) < 8} \
    if isinstance(special, dict) else special[:15 + 8]
put("tiktoken", "demo.tiktoken", ranks + SEP + json.dumps(special).encode())
put("tiktoken", "builtin_specials.tiktoken", ranks)
put("tiktoken", "hostile_rank.tiktoken", read(hostile, "tiktoken_rank", "tokenizer.tiktoken") + SEP + json.dumps(special).encode())

# --- prompt text: first byte = chunk_length / 4, then the text ---
texts = [
    (50, "<|speaker:0|>Hello there. <|speaker:1|>Hi! How are you?<|speaker:0|>Fine, thanks."),
    (0, "No speaker tag at all, one batch whatever its length."),
    (3, "dropped prefix <|speaker:12|>  padded turn  \n<|speaker:3|>\u4f60\u597d\uff0c\u4e16\u754c<|speaker:\u0663|>arabic-indic digit"),
    (255, "".join("<|speaker:%d|>turn %d with some words; " % (i % 7, i) for i in range(12))),
    (1, "<|speaker:0|><|im_start|>user\n<|semantic:5|><|im_end|> caf\u00e9 cafe\u0301 \U0001f41f <|speaker:"),
]
for i, (chunk, text) in enumerate(texts):
    put("text_split", "text%d.txt" % i, bytes([chunk]) + text.encode())


# --- audio: short WAVs (16-bit, float, stereo), FLAC and OGG of one, the hostile headers ---
def wav(channels, rate, frames, bits=16, fmt=1):
    block = channels * bits // 8
    if fmt == 3:
        samples = b"".join(struct.pack("<f", ((i * 37) % 200 - 100) / 120.0) for i in range(frames * channels))
    else:
        samples = b"".join(struct.pack("<h", ((i * 997) % 20000) - 10000) for i in range(frames * channels))
    f = struct.pack("<HHIIHH", fmt, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(f)) + f + b"data" + struct.pack("<I", len(samples)) + samples
    return b"RIFF" + struct.pack("<I", len(body)) + body


put("audio", "pcm16_mono.wav", wav(1, 16000, 400))
put("audio", "float_stereo.wav", wav(2, 44100, 200, bits=32, fmt=3))
for case in ("zero_channels", "zero_rate", "one_hz"):
    put("audio", case + ".wav", read(hostile, case + ".wav"))
conv = shutil.which("sndfile-convert")
if conv:
    src = os.path.join(out, "audio", "pcm16_mono.wav")
    for ext, flags in (("flac", []), ("ogg", ["-vorbis"]), ("opus.ogg", ["-opus"])):
        dst = os.path.join(out, ".tmp." + ext)
        subprocess.run([conv, *flags, src, dst], check=True, stdout=subprocess.DEVNULL)
        put("audio", "pcm16_mono." + ext, read(dst))
        os.remove(dst)
else:
    print("sndfile-convert not found: no FLAC / OGG seeds", file=sys.stderr)


# --- epub: small books and XHTML documents (make_epub_seeds.py) ---
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_epub_seeds  # noqa: E402
make_epub_seeds.write(put)
