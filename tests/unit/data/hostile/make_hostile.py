#!/usr/bin/env python3
"""Writes the hostile model folders and audio files of tests/unit/hostile_inputs.sh, each a copy of
a tiny demo model (or a tiny WAV) with one deliberate defect. Deterministic; standard library only.

usage: make_hostile.py S2_DEMO S1_DEMO OUT_DIR
Every case folder is OUT_DIR/<case>; OUT_DIR/outside/ holds files the cases try to reach."""
import json, os, pickle, shutil, struct, sys, zipfile

s2, s1, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
outside = os.path.join(out, "outside")
os.makedirs(outside, exist_ok=True)


def clone(name, src):
    d = os.path.join(out, name)
    shutil.copytree(src, d)
    return d


def edit_json(path, fn):
    with open(path) as f:
        j = json.load(f)
    fn(j)
    with open(path, "w") as f:
        json.dump(j, f)


def torch_zip(path, pkl, records=None):
    # The layout torch.save writes (stored, archive/ prefix); PyTorchStreamReader reads it.
    os.remove(path) if os.path.exists(path) else None
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pkl)
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/version", "3\n")
        for k, v in (records or {}).items():
            z.writestr("archive/" + k, v)


def binunicode(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def binint(n):
    return b"J" + struct.pack("<i", n)


# --- codec_config.json: a rate of 0 (prod = 0 -> division by zero) ---
d = clone("codec_rate_zero", s2)
edit_json(os.path.join(d, "codec_config.json"), lambda j: j.__setitem__("encoder_rates", [0, 4, 8, 8]))

# --- model.safetensors.index.json: shard names escaping the folder ---
shutil.copy(os.path.join(s2, "model.safetensors"), os.path.join(outside, "stolen.safetensors"))
with open(os.path.join(s2, "model.safetensors"), "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    keys = [k for k in json.loads(f.read(n)) if k != "__metadata__"]
for case, shard in [("index_dotdot", "../outside/stolen.safetensors"),
                    ("index_absolute", os.path.abspath(os.path.join(outside, "stolen.safetensors")))]:
    d = clone(case, s2)
    os.remove(os.path.join(d, "model.safetensors"))
    with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {}, "weight_map": {k: shard for k in keys}}, f)

# --- safetensors: a tensor whose byte range lies past the end of the file ---
d = clone("safetensors_range", s2)
with open(os.path.join(d, "model.safetensors"), "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
    data = f.read()
name = sorted(k for k in header if k != "__metadata__")[0]
b, e = header[name]["data_offsets"]
header[name]["data_offsets"] = [b + (1 << 40), e + (1 << 40)]
raw = json.dumps(header).encode()
with open(os.path.join(d, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(raw)) + raw + data)

# --- model.pth (S1): sub-dicts shared through the memo, 2^31 paths from ~350 bytes ---
d = clone("pth_expansion", s1)
tree = {}
for _ in range(30):
    tree = {"a": tree, "b": tree}
torch_zip(os.path.join(d, "model.pth"), pickle.dumps(tree, protocol=2))

# --- model.pth (S1): a stride-0 view claiming 10^10 floats of a 4-byte storage ---
d = clone("pth_broadcast", s1)
pkl = (b"\x80\x02}(" + binunicode("layers.0.attention.wqkv.weight") +
       b"ctorch._utils\n_rebuild_tensor_v2\n((" + binunicode("storage") + b"ctorch\nFloatStorage\n" +
       binunicode("0") + binunicode("cpu") + b"K\x01tQ" +
       b"K\x00" + binint(100000) + binint(100000) + b"\x86K\x00K\x00\x86\x89" +
       b"ccollections\nOrderedDict\n)RtRu.")
torch_zip(os.path.join(d, "model.pth"), pkl, {"data/0": struct.pack("<f", 1.0)})

# --- config.json: sizes that drive allocations ---
for case, field, value in [("config_seq_len", "max_seq_len", 10 ** 12), ("config_vocab", "vocab_size", 1 << 40),
                           ("config_layers", "n_layer", 10 ** 9)]:
    d = clone(case, s2)
    edit_json(os.path.join(d, "config.json"), lambda j: j["text_config"].__setitem__(field, value))
d = clone("config_s1_dim", s1)
edit_json(os.path.join(d, "config.json"), lambda j: j.__setitem__("dim", 1 << 40))

# --- config.json within the limits but far beyond any machine's memory (about 280 TB) ---
d = clone("config_too_big", s2)
def huge(j):
    j["text_config"].update(dim=65536, n_layer=1024, n_head=512, n_local_heads=512, head_dim=128,
                            intermediate_size=262144, max_seq_len=524288)
edit_json(os.path.join(d, "config.json"), huge)

# --- tokenizers: ids that size tables ---
d = clone("tiktoken_rank", s1)
with open(os.path.join(d, "tokenizer.tiktoken"), "a") as f:
    f.write("aGVsbG8gd29ybGQ= 2147483000\n")
d = clone("tokenizer_id", s2)
edit_json(os.path.join(d, "tokenizer.json"), lambda j: j["model"]["vocab"].__setitem__("zzzz", 1 << 40))

# --- tokenizer.json: a pre-tokenizer regex with catastrophic backtracking ---
d = clone("tokenizer_regex", s2)
edit_json(os.path.join(d, "tokenizer.json"),
          lambda j: j["pre_tokenizer"]["pretokenizers"][0]["pattern"].__setitem__("Regex", "(a+)+b"))

# --- config.json that is a FIFO (reading it would block) and one of 20 MB ---
d = clone("config_fifo", s2)
os.remove(os.path.join(d, "config.json"))
os.mkfifo(os.path.join(d, "config.json"))
d = clone("config_huge", s2)
with open(os.path.join(d, "config.json"), "r+b") as f:
    f.truncate(20 << 20)


# --- audio: WAV headers with 0 channels, 0 Hz, 1 Hz, and a FIFO ---
def wav(path, channels, rate, frames=100, bits=16):
    block = channels * bits // 8
    data = b"\x00" * (frames * max(block, 1))
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


wav(os.path.join(out, "zero_channels.wav"), 0, 44100)
wav(os.path.join(out, "zero_rate.wav"), 1, 0)
wav(os.path.join(out, "one_hz.wav"), 1, 1, frames=20)
os.mkfifo(os.path.join(out, "fifo.wav"))
