// Standard base64 (RFC 4648, with padding) for the audio inside JSON and SSE events.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace reef::remote {

std::string base64_encode(std::string_view bytes);
// nullopt on a character outside the alphabet or a bad length; whitespace is skipped.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace reef::remote
