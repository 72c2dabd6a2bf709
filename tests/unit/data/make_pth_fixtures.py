"""Writes the small .pth fixtures of tst_checkpoint_pth (run with the project venv's python):

  python tests/unit/data/make_pth_fixtures.py tests/unit/data

pth_torch_save.pth  torch.save of {"state_dict": OrderedDict(...), "epoch": 3, "meta": {...},
                    "linear": nn.Linear(3, 2).state_dict()} with fp32/bf16/fp16/int64/int32/bool
                    tensors, a 0-d tensor, a transposed (non-contiguous) view and an offset slice
                    sharing the storage of another tensor. Values are aranges so the test can
                    recompute them.
pth_evil.pth        a torch zip whose data.pkl calls os.system: must be refused, never run.
"""
import collections
import io
import pathlib
import sys
import zipfile

import torch


def state_dict_fixture(path):
    base = torch.arange(12, dtype=torch.int64).reshape(3, 4)
    flat = torch.arange(10, dtype=torch.float32)
    sd = collections.OrderedDict()
    sd["f32"] = torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5
    sd["bf16"] = torch.tensor([1.5, -2.0, 0.25], dtype=torch.bfloat16)
    sd["f16"] = torch.tensor([[0.5, -1.0]], dtype=torch.float16)
    sd["i64"] = base
    sd["i64_t"] = base.t()          # non-contiguous view of i64's storage
    sd["i32"] = torch.arange(-2, 2, dtype=torch.int32)
    sd["flag"] = torch.tensor([True, False, True])
    sd["scalar"] = torch.tensor(7.25)
    sd["flat"] = flat
    sd["slice"] = flat[3:7]         # storage offset 3 into flat's storage
    torch.manual_seed(0)
    linear = torch.nn.Linear(3, 2).state_dict()  # an OrderedDict with _metadata (pickled via BUILD)
    obj = {"state_dict": sd, "epoch": 3, "meta": {"name": "fixture", "lr": 0.1, "flags": [True, None]},
           "linear": linear}
    torch.save(obj, path)


def evil_fixture(path):
    # Hand-made bytes (pickle.dumps would spell the global 'posix system' on Linux):
    # PROTO 2, GLOBAL 'os system', BINUNICODE cmd, TUPLE1, REDUCE, STOP.
    cmd = b"echo reef-fixture-should-never-run"
    pkl = b"\x80\x02cos\nsystem\nX" + len(cmd).to_bytes(4, "little") + cmd + b"\x85R."
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("pth_evil/data.pkl", pkl)
        z.writestr("pth_evil/byteorder", "little")
        z.writestr("pth_evil/version", "3\n")


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    state_dict_fixture(out / "pth_torch_save.pth")
    evil_fixture(out / "pth_evil.pth")
    # sanity: torch itself refuses the evil one with weights_only
    try:
        torch.load(out / "pth_evil.pth", weights_only=True)
        raise SystemExit("torch loaded the evil fixture?")
    except Exception as e:  # noqa: BLE001
        print("torch refuses pth_evil.pth:", type(e).__name__)


if __name__ == "__main__":
    main()
