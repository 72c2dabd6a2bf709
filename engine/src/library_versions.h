// Versions of Reef, libtorch, CUDA and cuDNN as this build and this machine see them. The facade
// (Engine::versions) and the study's host description both read them here, so nothing below the
// facade calls back up into it.
#pragma once
#include "reef/engine_types.h"

namespace reef {

VersionInfo library_versions();

}  // namespace reef
