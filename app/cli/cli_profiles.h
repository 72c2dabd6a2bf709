// --server NAME: a server profile saved in the studio (Settings → Speech from a server), read from
// the studio's settings file (~/.config/Reef/Reef.conf, or REEF_SETTINGS=FILE). Its key is not
// there: give it with --api-key or REEF_API_KEY.
#pragma once
#include <string>

#include "reef/remote.h"

namespace reef::cli {

// A URL as it is, or the saved profile of that name; fails (exits) with the names there are.
ServerProfile resolve_server(const std::string& url_or_profile);

}  // namespace reef::cli
