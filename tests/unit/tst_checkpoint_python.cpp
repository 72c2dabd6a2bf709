// Files we write must load in real Python torch: save_pth through torch.load(weights_only=True),
// save_safetensors through a plain struct/json parse + torch.frombuffer. Skipped (exit 77) when
// REEF_VENV_PYTHON does not name a python with torch.
#include <cstdlib>

#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "tst_checkpoint_util.h"

using namespace reef;
namespace fs = std::filesystem;

namespace {

std::string python() {
    const char* p = std::getenv("REEF_VENV_PYTHON");
    return p && *p && fs::exists(p) ? p : "";
}

TensorMap sample() {
    TensorMap m;
    m["layers.0.w"] = at::arange(12, at::kFloat).reshape({3, 4}) / 4;
    m["layers.0.b"] = (at::arange(5, at::kFloat) - 2).to(at::kBFloat16);
    m["h"] = at::arange(6, at::kFloat).to(at::kHalf);
    m["ids"] = at::arange(-3, 3, at::kLong) * (int64_t(1) << 40);
    m["mask"] = at::arange(5, at::kLong).remainder(2).to(at::kBool);
    m["scalar"] = at::scalar_tensor(2.5, at::kFloat);
    return m;
}

// The same tensors, spelled in Python.
const char* kScript = R"PY(
import json, struct, sys, torch
want = {
    "layers.0.w": torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4,
    "layers.0.b": (torch.arange(5, dtype=torch.float32) - 2).to(torch.bfloat16),
    "h": torch.arange(6, dtype=torch.float32).to(torch.float16),
    "ids": torch.arange(-3, 3, dtype=torch.int64) * (1 << 40),
    "mask": (torch.arange(5) % 2).to(torch.bool),
    "scalar": torch.tensor(2.5),
}
def same(got, where):
    assert sorted(got) == sorted(want), (where, sorted(got))
    for k, t in want.items():
        assert got[k].dtype == t.dtype and got[k].shape == t.shape and torch.equal(got[k], t), (where, k, got[k])

sd = torch.load(sys.argv[1], weights_only=True)
assert type(sd).__name__ == "OrderedDict", type(sd)
same(sd, "pth")

names = {"F32": torch.float32, "BF16": torch.bfloat16, "F16": torch.float16, "I64": torch.int64, "BOOL": torch.bool}
raw = open(sys.argv[2], "rb").read()
(n,) = struct.unpack("<Q", raw[:8])
header = json.loads(raw[8:8 + n])
assert header["__metadata__"] == {"format": "pt"}, header["__metadata__"]
data = raw[8 + n:]
got = {}
for k, v in header.items():
    if k == "__metadata__":
        continue
    b, e = v["data_offsets"]
    got[k] = torch.frombuffer(bytearray(data[b:e]), dtype=names[v["dtype"]]).reshape(v["shape"])
same(got, "safetensors")
print("python agrees")
)PY";

}  // namespace

TEST_CASE(python_reads_our_files) {
    const fs::path dir = reef_test::temp_dir("ckpt_python");
    save_pth((dir / "ours.pth").string(), sample());
    save_safetensors((dir / "ours.safetensors").string(), sample(), {{"format", "pt"}});
    ckpt_test::write_bytes(dir / "check.py", kScript);
    std::string cmd;  // each argument single-quoted for the shell
    for (const std::string& arg : {python(), (dir / "check.py").string(), (dir / "ours.pth").string(),
                                   (dir / "ours.safetensors").string()})
        cmd.append(cmd.empty() ? "'" : " '").append(arg).append("'");
    const int rc = std::system(cmd.c_str());
    CHECK(rc == 0);
}

int main(int argc, char** argv) {
    if (python().empty()) {
        std::printf("REEF_VENV_PYTHON unset or missing: skipped\n");
        return 77;
    }
    return ::reef_test::run_all(argc, argv);
}
