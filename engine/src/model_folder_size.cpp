// model_folder_size (reef/quantize.h): a model folder's size in memory from its config.json, for
// the studio's model picker (issue #44), the same figures load_dual_ar_model checks memory against.
#include "base/facade_guard.h"
#include "reef/quantize.h"
#include "runtime/device.h"
#include "text2semantic/model_config.h"
#include "text2semantic/model_weights.h"

namespace reef {

Result<ModelFolderSize> model_folder_size(const std::string& dir, Precision precision) {
    return guarded("model size", [&]() -> Result<ModelFolderSize> {
        const DualArConfig config = load_model_config(dir);
        const at::ScalarType dtype = to_scalar_type(precision);
        // as dual_ar_model.cpp's load counts it: the weights and the RoPE table (fp32)
        const uint64_t rope_bytes = uint64_t(config.max_seq_len) * uint64_t(config.head_dim) * sizeof(float);
        ModelFolderSize s;
        s.int8 = folder_says_int8(dir);
        s.bytes = model_weight_bytes(config, dtype, s.int8) + rope_bytes;
        s.int8_bytes = model_weight_bytes(config, dtype, true) + rope_bytes;
        return s;
    });
}

}  // namespace reef
