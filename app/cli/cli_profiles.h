// --server NAME: a server profile saved in the studio (Settings → Speech from a server), read from
// the studio's settings file (~/.config/Reef/Reef.conf, or REEF_SETTINGS=FILE). Its key is not
// there: give it with --api-key or REEF_API_KEY.
#pragma once
#include <string>

#include "reef/remote.h"

namespace reef::cli {

// A URL as it is, or the saved profile of that name; fails (exits) with the names there are.
ServerProfile resolve_server(const std::string& url_or_profile);

// What --server, --flavour, --api-key, --server-model and --voice say, together: the profile (or
// URL), with the flags given on the command line winning over the profile's fields.
ServerProfile server_from_flags(const std::string& server, const std::string& flavour, const std::string& api_key,
                                const std::string& model, const std::string& voice = {});

}  // namespace reef::cli
