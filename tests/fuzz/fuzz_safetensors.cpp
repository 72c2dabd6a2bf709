// safetensors: the 8-byte header length, the JSON header and every entry's dtype, shape and
// data_offsets, through load_safetensors on a file holding the fuzzer's bytes. Every tensor it
// returns is touched at its first and last byte: a view reaching past the mapping would fault.
// Then the tensors go through the text2semantic weight checks of a small config (issue #44's rules
// included: int8 and int4 only on linears, scales (and int4's zeros) beside each quantized weight
// and nowhere else, fish-speech's CUDA int4 packs refused), each projection's own checks
// (make_linear: shapes, dtypes, the int4 group dividing K, finite scales) and the strict
// verification: a clean error or a pass, never a crash.
#include "checkpoint/safetensors.h"
#include "checkpoint/verify.h"
#include "fuzz_common.h"
#include "nn/linear.h"
#include "text2semantic/model_weights.h"

namespace {

// one slow and one fast layer of dim 32: the seeds' projection shapes (make_seeds.py)
reef::DualArConfig small_config() {
    reef::DualArConfig c;
    c.vocab_size = 64, c.n_layer = 1, c.n_head = 4, c.n_local_heads = 2, c.head_dim = 8, c.dim = 32;
    c.intermediate_size = 64, c.max_seq_len = 64, c.codebook_size = 16, c.num_codebooks = 2;
    c.n_fast_layer = 1, c.fast_dim = 32, c.fast_n_head = 4, c.fast_n_local_heads = 2, c.fast_head_dim = 8;
    c.fast_intermediate_size = 64;
    return c;
}

}  // namespace

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
        static const reef::DualArConfig config = small_config();
        const reef::ExpectedShapes expected = reef::expected_shapes_for(config, tensors);
        // each projection present, before the strict verification (which a seed of a few tensors
        // fails): make_linear must refuse any shape and dtype cleanly by itself
        auto get = [&](const std::string& key) {
            const auto it = tensors.find(key);
            return it == tensors.end() ? at::Tensor() : it->second;
        };
        for (const std::string& key : reef::linear_weight_keys(config)) {
            const std::string stem = key.substr(0, key.size() - 7);  // "x" of "x.weight"
            if (get(key).defined()) reef::make_linear(get(key), get(stem + ".scales"), {}, stem, get(stem + ".zeros"));
        }
        reef::verify_state_dict(tensors, expected, "fuzz");
    });
    return 0;
}
