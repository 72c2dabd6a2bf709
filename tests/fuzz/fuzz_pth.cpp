// .pth (torch zip): caffe2's zip reader, the record-size check, our restricted unpickler and the
// storage/view checks, through load_pth on a file holding the fuzzer's bytes. libtorch itself is
// not instrumented, so the harness checks the invariant the reader promises instead of relying on
// ASan inside libtorch: every tensor's view (offset, sizes, strides) lies inside its storage.
#include "checkpoint/pth_reader.h"
#include "fuzz_common.h"

namespace {

void check_view(const std::string& name, const at::Tensor& t) {
    if (t.numel() == 0) return;
    int64_t last = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) {
        if (t.stride(d) < 0) reef::fuzz::finding("negative stride", name);
        last += (t.size(d) - 1) * t.stride(d);
    }
    const int64_t item = int64_t(t.element_size());
    if (t.storage_offset() < 0 || uint64_t(last + 1) * uint64_t(item) > t.storage().nbytes())
        reef::fuzz::finding("view outside its storage", name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = reef::fuzz::write_scratch("model.pth", data, size);
    reef::fuzz::expect_clean([&] {
        for (const auto& [name, t] : reef::load_pth(path)) check_view(name, t);
    });
    return 0;
}
