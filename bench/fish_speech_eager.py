"""Times fish-speech's own eager decode on a Reef demo model folder, for a back-to-back comparison
with `reef-cli bench` on the same weights (issue: decode at the memory-bandwidth limit).

fish-speech HEAD decodes with `decode_one_token_ar` under `sdpa_kernel(SDPBackend.MATH)` over its
full-length KV cache (`setup_caches(max_seq_len=config.max_seq_len)`, a masked attention over every
row). This script runs exactly that loop (greedy: top_k = 1), one step at a time, and prints warm
frames/s as Reef's bench defines them: 1000 / median step ms after the warm-up steps.

    python bench/fish_speech_eager.py --fish-speech TREE --model DIR [--precision bf16] [--threads 2]
        [--frames 16] [--warmup 4] [--sdpa math|auto] [--cache ROWS]

TREE is a fish-speech checkout (HEAD 3dd1f85 was used); run it with a venv that has torch and the
text2semantic dependencies (install lines: tests/parity/README.md, step 2). Our own glue: no fish-speech
code is copied here.
"""
import argparse
import contextlib
import statistics
import sys
import time

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fish-speech", required=True, help="fish-speech source tree")
    ap.add_argument("--model", required=True, help="model folder (a Reef demo folder loads in fish-speech)")
    ap.add_argument("--precision", default="bf16", choices=["bf16", "fp32"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--frames", type=int, default=16)
    ap.add_argument("--warmup", type=int, default=4)
    ap.add_argument("--prompt-tokens", type=int, default=64)
    ap.add_argument("--sdpa", default="math", choices=["math", "auto"], help="math = fish-speech HEAD's rule")
    ap.add_argument("--cache", type=int, default=0, help="KV cache rows (0 = the config's max_seq_len, as HEAD)")
    a = ap.parse_args()

    sys.path.insert(0, a.fish_speech)
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from fish_speech.models.text2semantic import inference as fs
    from fish_speech.models.text2semantic.llama import DualARTransformer

    torch.set_num_threads(a.threads)
    dtype = torch.bfloat16 if a.precision == "bf16" else torch.float32
    model = DualARTransformer.from_pretrained(a.model, load_weights=True)
    model = model.to(dtype=dtype).eval()
    c = model.config
    rows = a.cache or c.max_seq_len
    with torch.device("cpu"):
        model.setup_caches(max_batch_size=1, max_seq_len=rows, dtype=dtype)

    # A prompt of text tokens (no audio parts), then greedy frames fed back like decode_n_tokens.
    gen = torch.Generator().manual_seed(0)
    T = a.prompt_tokens
    prompt = torch.zeros((1, c.num_codebooks + 1, T), dtype=torch.long)
    prompt[0, 0] = torch.randint(300, min(c.semantic_begin_id, 100000), (T,), generator=gen)
    temperature = torch.tensor(0.8, dtype=dtype)
    top_p = torch.tensor(0.8, dtype=dtype)
    bias = torch.full((1, 1, c.vocab_size), float("-inf"), dtype=dtype)
    bias[0, 0, c.semantic_begin_id : c.semantic_end_id + 1] = 0.0
    bias[0, 0, model.tokenizer.get_token_id(fs.IM_END_TOKEN)] = 0.0
    kernel = (lambda: sdpa_kernel(SDPBackend.MATH)) if a.sdpa == "math" else contextlib.nullcontext

    def step(x, pos, previous):
        with kernel():
            return fs.decode_one_token_ar(model=model, x=x, input_pos=pos, temperature=temperature, top_p=top_p,
                                          top_k=1, semantic_logit_bias=bias, audio_masks=None, audio_parts=None,
                                          previous_tokens=previous).clone()

    times = []
    with torch.inference_mode():
        cur = step(prompt, torch.arange(0, T), None).view(1, c.num_codebooks + 1, -1)
        previous = torch.zeros((c.num_codebooks + 1, fs.RAS_WIN_SIZE), dtype=torch.int)
        pos = torch.tensor([T], dtype=torch.long)
        for _ in range(a.frames):
            t0 = time.perf_counter()
            nxt = step(cur, pos, previous)
            times.append((time.perf_counter() - t0) * 1000)
            pos += 1
            cur = nxt.view(1, c.num_codebooks + 1, -1)
            previous = previous.roll(-1, dims=1)
            previous[:, -1] = nxt.view(c.num_codebooks + 1, -1)[:, 0]
    warm = times[a.warmup:] or times
    ms = statistics.median(warm)
    print(f"fish-speech eager ({a.sdpa}, {rows}-row cache, {a.precision}, {a.threads} threads, torch {torch.__version__}): "
          f"{1000 / ms:.3f} warm frames/s (median step {ms:.1f} ms over {len(warm)} steps)")


if __name__ == "__main__":
    main()
