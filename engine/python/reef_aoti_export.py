#!/usr/bin/env python3
"""Reef's AOTInductor exporter: compiles the dual-AR decode step into two .pt2 packages.

Reef (C++) writes the model's weights exactly as its eager engine holds them (internal names,
run dtype, merged w1|w3, the row-restricted S2 head, the RoPE tables) into a safetensors file and
a JSON spec beside it, then runs this script with the Python whose torch matches the libtorch it
links. The script rebuilds the decode step in PyTorch, mirroring engine/src/text2semantic
(dual_ar_model.cpp, layers.cpp, nn/attention.cpp, nn/llama_ops.cpp) operation for operation,
exports it with torch.export and compiles it with torch._inductor.aoti_compile_and_package, as
fish-speech compiles decode_one_token with torch.compile (Inductor) under sdpa_kernel(MATH).

The graph boundary (README "The compiled arm"): two graphs, the slow decode forward and one fast
(codebook) forward. Sampling stays in Reef's C++ between them, so the compiled arm draws exactly
the eager arm's random numbers from the same generator (Inductor's RNG is its own stream). The
prefill stays eager, as in fish-speech (prefill_decode is not compiled). The KV caches are Reef's
own tensors, passed in and updated in place (mutated inputs); the number of cache rows attended
is the length of a marker input, a torch.export Dim, so one package serves every position:
  slow.pt2: (inp [1, N+1, 1] i64, input_pos [1] i64, kv_marker [L] u8, caches [k0, v0, k1, ...]
             each [1, Hkv, cap, D]) -> (logits [1, 1, R], hidden [1, 1, Cf], normed [1, 1, C])
  fast.pt2: (x [1, 1, Cf], input_pos [1] i64, kv_marker [L] u8, fast caches [1, Hf, N, Df] ...)
             -> logits [1, 1, K]
KV mode "active" attends over the first L = pos + 1 rows without a mask (fish-speech #1312);
"full" attends over every row (L = capacity) under the causal mask, as fish-speech HEAD does.

Usage: reef_aoti_export.py SPEC.json    (progress lines "reef-export: ..." on stdout; exit 0 on
success, 3 = torch version mismatch, 4 = bad spec, 5 = export or compile failure).
       reef_aoti_export.py --check-torch VERSION   (exit 0 when this Python's torch is VERSION, else 3)
"""
import json
import os
import struct
import sys
import time


def say(msg):
    print("reef-export: " + msg, flush=True)


def fail(code, msg):
    print("reef-export: error: " + msg, file=sys.stderr, flush=True)
    sys.exit(code)


def base_version(v):
    return v.split("+", 1)[0]


def load_spec(path):
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        fail(4, f"cannot read the spec {path}: {e}")
    for key in ("torch_version", "device", "dtype", "sdpa", "kv_mode", "weights", "out_dir", "dims"):
        if key not in spec:
            fail(4, f"the spec {path} has no '{key}'")
    return spec


SAFETENSORS_DTYPES = {"F32": "float32", "BF16": "bfloat16", "F16": "float16", "I64": "int64", "BOOL": "bool"}


def read_safetensors(torch, path):
    """The tensors of a safetensors file (Reef writes it; no third-party package needed)."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = bytearray(f.read())
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = getattr(torch, SAFETENSORS_DTYPES[info["dtype"]])
        begin, end = info["data_offsets"]
        t = torch.frombuffer(data, dtype=torch.uint8, count=end - begin, offset=begin) if end > begin else None
        t = t.view(dtype) if t is not None else torch.empty(0, dtype=dtype)
        out[name] = t.reshape(info["shape"]).clone()
    return out


def build_modules(torch, spec, w):
    F = torch.nn.functional
    d = spec["dims"]
    full = spec["kv_mode"] == "full"

    def rms_norm(x, weight, eps):
        # nn/llama_ops.cpp: fp32 norm, rounded to x's dtype before the weight
        return torch.rms_norm(x.float(), (x.shape[-1],), None, eps).to(x.dtype) * weight

    def rotary(x, freqs):
        # nn/llama_ops.cpp apply_rotary_emb: interleaved pairs times (cos, sin) in fp32.
        # x [B, S, H, D], freqs [S, D/2, 2]
        xs = x.float().reshape(x.shape[0], x.shape[1], x.shape[2], -1, 2)
        f = freqs.float().reshape(1, xs.shape[1], 1, xs.shape[3], 2)
        a, b = xs[..., 0], xs[..., 1]
        c, s = f[..., 0], f[..., 1]
        return torch.stack((a * c - b * s, a * s + b * c), -1).flatten(3).to(x.dtype)

    def linear(x, weight, bias=None):
        return F.linear(x, weight, bias)

    class Block(torch.nn.Module):
        def __init__(self, prefix, n_head, n_local, head_dim, eps):
            super().__init__()
            self.n_head, self.n_local, self.head_dim, self.eps = n_head, n_local, head_dim, eps
            for name in ("attention.wqkv", "attention.wqkv_bias", "attention.wo", "attention.wo_bias",
                         "attention.q_norm", "attention.k_norm", "attention_norm", "ffn_norm",
                         "feed_forward.w13", "feed_forward.w2"):
                key = prefix + name
                t = w.get(key)
                self.register_buffer(name.replace(".", "_"), t if t is not None and t.numel() > 0 else None)

        def forward(self, x, freqs, k_cache, v_cache, input_pos, kv_len, mask):
            # x [1, 1, C] at input_pos; caches [1, Hkv, cap, D] updated in place
            h = x + self.attention(rms_norm(x, self.attention_norm, self.eps), freqs, k_cache, v_cache,
                                   input_pos, kv_len, mask)
            hn = rms_norm(h, self.ffn_norm, self.eps)
            a, b = linear(hn, self.feed_forward_w13).chunk(2, -1)
            return h + linear(F.silu(a) * b, self.feed_forward_w2)

        def attention(self, x, freqs, k_cache, v_cache, input_pos, kv_len, mask):
            H, Hkv, D = self.n_head, self.n_local, self.head_dim
            qkv = linear(x, self.attention_wqkv, self.attention_wqkv_bias)
            q, k, v = qkv.split([H * D, Hkv * D, Hkv * D], -1)
            q = q.view(1, 1, H, D)
            k = k.view(1, 1, Hkv, D)
            v = v.view(1, 1, Hkv, D)
            if self.attention_q_norm is not None:
                q = torch.rms_norm(q, (D,), self.attention_q_norm, self.eps)
                k = torch.rms_norm(k, (D,), self.attention_k_norm, self.eps)
            q = rotary(q, freqs).transpose(1, 2)  # [1, H, 1, D]
            k = rotary(k, freqs).transpose(1, 2)  # [1, Hkv, 1, D]
            v = v.transpose(1, 2)
            k_cache.index_copy_(2, input_pos, k)
            v_cache.index_copy_(2, input_pos, v)
            keys = k_cache[:, :, :kv_len]
            values = v_cache[:, :, :kv_len]
            # nn/attention.cpp fold_gqa_decode: the G query heads of a KV head along the query length
            qf = q.reshape(1, Hkv, H // Hkv, D)
            y = F.scaled_dot_product_attention(qf, keys, values, attn_mask=mask)
            y = y.reshape(1, H, 1, D).transpose(1, 2).reshape(1, 1, H * D)
            return linear(y, self.attention_wo, self.attention_wo_bias)

    def causal_mask(input_pos, kv_len, device):
        # key j visible iff j <= input_pos: [1, 1, 1, L] bool (kv_cache.cpp attention_span_at)
        return (torch.arange(kv_len, device=device) <= input_pos).view(1, 1, 1, kv_len)

    class SlowStep(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("embeddings", w["embeddings"])
            self.register_buffer("codebook_embeddings", w["codebook_embeddings"])
            self.register_buffer("codebook_offsets", w["codebook_offsets"])
            self.register_buffer("freqs_cis", w["freqs_cis"])
            self.register_buffer("norm", w["norm"])
            self.register_buffer("head", w["head"])
            self.register_buffer("fast_project_in_w", w.get("fast_project_in_w"))
            self.register_buffer("fast_project_in_b", w.get("fast_project_in_b"))
            self.layers = torch.nn.ModuleList(
                Block(f"layers.{i}.", d["n_head"], d["n_local_heads"], d["head_dim"], d["norm_eps"])
                for i in range(d["n_layer"]))

        def embed(self, inp):
            # dual_ar_model.cpp embed: inp [1, N+1, 1] -> [1, 1, C]
            tokens = inp[:, 0]
            codes = inp[:, 1:] + self.codebook_offsets
            vq_sum = F.embedding(codes, self.codebook_embeddings).sum(1)
            sem = ((tokens >= d["semantic_begin_id"]) & (tokens <= d["semantic_end_id"])).unsqueeze(-1)
            vq_sum = vq_sum.masked_fill(~sem, 0)
            x = F.embedding(tokens, self.embeddings) + vq_sum
            if d["scale_codebook_embeddings"]:
                x = torch.where(sem, x / ((d["num_codebooks"] + 1) ** 0.5), x)
            return x

        def forward(self, inp, input_pos, kv_marker, caches):
            kv_len = kv_marker.shape[0]
            x = self.embed(inp)
            freqs = self.freqs_cis.index_select(0, input_pos)  # [1, D/2, 2]
            mask = causal_mask(input_pos, kv_len, inp.device) if full else None
            for i, layer in enumerate(self.layers):
                x = layer(x, freqs, caches[2 * i], caches[2 * i + 1], input_pos, kv_len, mask)
            normed = rms_norm(x, self.norm, d["norm_eps"])
            logits = linear(normed, self.head)
            hidden = normed if d["norm_fastlayer_input"] else x
            if self.fast_project_in_w is not None:
                hidden = linear(hidden, self.fast_project_in_w, self.fast_project_in_b)
            return logits, hidden, normed

    class FastStep(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("fast_freqs_cis", w["fast_freqs_cis"])
            self.register_buffer("fast_norm", w["fast_norm"])
            self.register_buffer("fast_output", w["fast_output"])
            self.layers = torch.nn.ModuleList(
                Block(f"fast_layers.{i}.", d["fast_n_head"], d["fast_n_local_heads"], d["fast_head_dim"],
                      d["norm_eps"])
                for i in range(d["n_fast_layer"]))

        def forward(self, x, input_pos, kv_marker, caches):
            kv_len = kv_marker.shape[0]
            freqs = self.fast_freqs_cis.index_select(0, input_pos)
            mask = causal_mask(input_pos, kv_len, x.device) if full else None
            for i, layer in enumerate(self.layers):
                x = layer(x, freqs, caches[2 * i], caches[2 * i + 1], input_pos, kv_len, mask)
            return linear(rms_norm(x, self.fast_norm, d["norm_eps"]), self.fast_output)

    return SlowStep(), FastStep()


def sdpa_backends(torch, name):
    from torch.nn.attention import SDPBackend
    table = {
        "math": [SDPBackend.MATH],
        "flash": [SDPBackend.FLASH_ATTENTION],
        "efficient": [SDPBackend.EFFICIENT_ATTENTION],
        "cudnn": [SDPBackend.CUDNN_ATTENTION],
        "auto": [SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION,
                 SDPBackend.MATH],
    }
    if name not in table:
        fail(4, f"unknown SDPA policy '{name}' (math, flash, efficient, cudnn, auto)")
    return table[name]


def export_one(torch, spec, name, module, args, dynamic_shapes, site):
    from torch.nn.attention import sdpa_kernel
    out = os.path.join(spec["out_dir"], name + ".pt2")
    metadata = {
        "reef.site": site,
        "reef.sdpa_policy": spec["sdpa"],
        "reef.kv_mode": spec["kv_mode"],
        "reef.dtype": spec["dtype"],
        "reef.torch": torch.__version__,
    }
    for k, v in spec.get("metadata", {}).items():
        metadata["reef." + k] = str(v)
    configs = {"aot_inductor.metadata": metadata}
    if spec["device"] == "cpu":
        configs["freezing"] = True  # fold the weights into the generated code (torch/_inductor/config.py: freezing)
    if spec.get("kernel_profile"):
        # RECORD_FUNCTION around every generated CPU kernel, so libtorch's profiler (reef-cli
        # bench --profile) sees where compiled time goes; a separate package (it is in the key)
        configs["cpp.enable_kernel_profile"] = True
    t0 = time.monotonic()
    with torch.no_grad(), sdpa_kernel(sdpa_backends(torch, spec["sdpa"])):
        say(f"exporting the {site} step")
        ep = torch.export.export(module, args, dynamic_shapes=dynamic_shapes, strict=False)
        say(f"compiling the {site} step")
        torch._inductor.aoti_compile_and_package(ep, package_path=out, inductor_configs=configs)
    say(f"{name}.pt2 done in {time.monotonic() - t0:.1f} s")


def import_matching_torch(wanted):
    try:
        import torch
    except ImportError as e:
        fail(3, f"this Python ({sys.executable}) has no torch: {e}")
    if base_version(torch.__version__) != base_version(wanted):
        fail(3, f"this Python's torch is {torch.__version__} but Reef links libtorch {wanted}; "
                "a package only loads into the libtorch it was compiled for")
    return torch


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check-torch":
        # Reef asks this first, before it writes the weights for a compile that could not run
        torch = import_matching_torch(sys.argv[2])
        say(f"torch {torch.__version__}")
        return
    if len(sys.argv) != 2:
        fail(4, "usage: reef_aoti_export.py SPEC.json | --check-torch VERSION")
    spec = load_spec(sys.argv[1])
    torch = import_matching_torch(spec["torch_version"])
    say(f"torch {torch.__version__}, {spec['device']}, {spec['dtype']}, sdpa {spec['sdpa']}, kv {spec['kv_mode']}")
    try:
        threads = int(spec.get("threads", 0))
        if threads > 0:
            torch.set_num_threads(threads)
        device = torch.device(spec["device"])
        dtype = getattr(torch, spec["dtype"])
        w = {k: v.to(device) for k, v in read_safetensors(torch, spec["weights"]).items()}
        d = spec["dims"]
        slow, fast = build_modules(torch, spec, w)
        slow.eval()
        fast.eval()
        Dim = torch.export.Dim
        n_rows = d["num_codebooks"] + 1
        cap_max = int(d["max_cache_rows"])
        cap = Dim("cap", min=16, max=cap_max)
        kv = Dim("kv", min=2, max=cap_max)

        def caches(n_layer, heads, head_dim, rows):
            return [torch.zeros(1, heads, rows, head_dim, dtype=dtype, device=device)
                    for _ in range(2 * n_layer)]

        u8 = dict(dtype=torch.uint8, device=device)
        i64 = dict(dtype=torch.int64, device=device)
        slow_args = (torch.zeros(1, n_rows, 1, **i64), torch.tensor([5], **i64), torch.empty(6, **u8),
                     caches(d["n_layer"], d["n_local_heads"], d["head_dim"], 24))
        slow_dyn = {"inp": None, "input_pos": None, "kv_marker": {0: kv},
                    "caches": [{2: cap} for _ in range(2 * d["n_layer"])]}
        export_one(torch, spec, "slow", slow, slow_args, slow_dyn, "slow-decode")

        # The fast cache has N rows; its length is declared dynamic as the slow one's, so that
        # attending over all N rows (the last codebook) is not a specialised case of the slice.
        n_cb = d["num_codebooks"]
        fcap = Dim("fcap", min=2, max=max(n_cb, 2) + 8)
        fkv = Dim("fkv", min=1, max=max(n_cb, 2) + 8)
        fast_args = (torch.zeros(1, 1, d["fast_dim"], dtype=dtype, device=device), torch.tensor([1], **i64),
                     torch.empty(2, **u8), caches(d["n_fast_layer"], d["fast_n_local_heads"], d["fast_head_dim"], 5))
        fast_dyn = {"x": None, "input_pos": None, "kv_marker": {0: fkv},
                    "caches": [{2: fcap} for _ in range(2 * d["n_fast_layer"])]}
        export_one(torch, spec, "fast", fast, fast_args, fast_dyn, "fast-decode")
    except SystemExit:
        raise
    except BaseException as e:  # an export or C++ compile failure: the arm reports it, Reef goes on
        import traceback
        traceback.print_exc()
        msg = str(e).strip().splitlines()
        fail(5, f"{type(e).__name__}: {msg[0] if msg else ''}"[:600])
    say("done")


if __name__ == "__main__":
    main()
