// Each hand-written CPU kernel family (nn/gemv, nn/row_kernels) can be switched off for A/B runs
// or a suspected bug: NAME=0 in the environment sends its work back to ATen.
#pragma once
#include <cstdlib>
#include <string_view>

namespace reef {

// False only when the environment sets `env_name` to "0". Callers read it once per process.
inline bool kernel_switched_on(const char* env_name) {
    const char* v = std::getenv(env_name);
    return !(v && std::string_view(v) == "0");
}

}  // namespace reef
