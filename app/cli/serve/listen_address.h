// `reef-cli serve --listen HOST:PORT`, the form servers commonly take (fish-speech's own
// tools/api_server.py: --listen 0.0.0.0:8080), beside --host/--port. No Qt, no torch.
#pragma once
#include <string>
#include <variant>

namespace reef::cli {

struct ListenAddress {
    std::string host;
    int port = 0;   // 0: any free port
};

// "0.0.0.0:8080", "localhost:0", "[::1]:8080" (IPv6 in brackets, as in URLs) -> host and port;
// otherwise the reason, naming the value ("--listen '::1': write an IPv6 address as [ADDR]:PORT").
std::variant<ListenAddress, std::string> parse_listen_address(const std::string& value);

}  // namespace reef::cli
