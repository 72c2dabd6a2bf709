#!/usr/bin/env python3
"""How fast libtorch's SDPA reads the KV cache for one decode query (issue #26 follow-up).

Reef's CPU decode calls at::scaled_dot_product_attention with the GQA-folded query of one KV
head's G query rows ([1, Hkv, G, D] against [1, Hkv, Lk, D], nn/attention.cpp). This times that
call with the libtorch of Reef's venv (the same build the engine links) at s1-mini's attention
shape and several cache lengths on libtorch's pool, and one thread's share as the GEMV team runs
it (half of the KV heads, nn/gemv_team.h), and sets the K/V bytes it reads against a plain sum
over 512 MiB on the same threads (the memory's read speed, as the bench's roofline probe).

  .venv/bin/python bench/decode_attention_speed.py [--threads 2] [--dtype float32|bfloat16]
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F


def median_us(fn, runs):
    for _ in range(5):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--contexts", default="512,1024,3072,8192")
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--group", type=int, default=2, help="query heads per KV head (s1-mini: 16 / 8)")
    ap.add_argument("--head-dim", type=int, default=128)
    a = ap.parse_args()
    dtype = getattr(torch, a.dtype)
    torch.manual_seed(0)
    probe = torch.ones(512 << 20 >> 2)  # 512 MiB of fp32
    print(f"libtorch {torch.__version__}, {a.threads} threads, {a.dtype}, "
          f"q [1, {a.kv_heads}, {a.group}, {a.head_dim}] (folded GQA decode)")
    print("| cache rows | K/V MB | SDPA us | K/V read GB/s | one thread, half the KV heads, us | memory sum GB/s |")
    print("|---:|---:|---:|---:|---:|---:|")
    with torch.inference_mode():
        for ctx in (int(c) for c in a.contexts.split(",")):
            h, g, d = a.kv_heads, a.group, a.head_dim
            q = torch.randn(1, h, g, d).to(dtype)
            # a narrow view of a longer cache, as the KV cache hands it to SDPA
            k = torch.randn(1, h, ctx + 256, d).to(dtype).narrow(2, 0, ctx)
            v = torch.randn(1, h, ctx + 256, d).to(dtype).narrow(2, 0, ctx)
            mask = torch.ones(1, 1, 1, ctx, dtype=torch.bool)
            kv_bytes = 2 * k.numel() * k.element_size()
            torch.set_num_threads(a.threads)
            pool = median_us(lambda: F.scaled_dot_product_attention(q, k, v, mask), 100)
            sum_gbps = probe.numel() * 4 / (median_us(lambda: probe.sum(), 9) * 1e-6) / 1e9
            # what each GEMV-team thread runs: one thread, its share (half) of the KV heads
            torch.set_num_threads(1)
            half = h // 2
            share = median_us(lambda: F.scaled_dot_product_attention(q[:, :half], k[:, :half], v[:, :half], mask), 100)
            print(f"| {ctx} | {kv_bytes / 1e6:.1f} | {pool:.0f} | {kv_bytes / pool / 1e3:.1f} | {share:.0f} | "
                  f"{sum_gbps:.1f} |")


if __name__ == "__main__":
    main()
