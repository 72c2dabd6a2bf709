// safetensors: the 8-byte header length, the JSON header and every entry's dtype, shape and
// data_offsets, through load_safetensors on a file holding the fuzzer's bytes. Every tensor it
// returns is touched at its first and last byte: a view reaching past the mapping would fault.
#include "checkpoint/safetensors.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = reef::fuzz::write_scratch("model.safetensors", data, size);
    reef::fuzz::expect_clean([&] {
        const reef::TensorMap tensors = reef::load_safetensors(path);
        volatile uint8_t sink = 0;
        for (const auto& [name, t] : tensors) {
            if (t.nbytes() == 0) continue;
            const auto* p = static_cast<const uint8_t*>(t.data_ptr());
            sink = sink ^ p[0] ^ p[t.nbytes() - 1];
        }
    });
    return 0;
}
