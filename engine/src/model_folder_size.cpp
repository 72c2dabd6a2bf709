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
        ModelFolderSize s;   // as load_dual_ar_model's memory check counts it
        const WeightFormat format = folder_weight_format(dir);
        s.int8 = format.bits == 8;
        s.format = format.name();
        s.bytes = model_load_bytes(config, dtype, format);
        s.int8_bytes = model_load_bytes(config, dtype, WeightFormat::int8());
        s.int4_bytes = model_load_bytes(config, dtype, WeightFormat::int4(128));
        return s;
    });
}

}  // namespace reef
