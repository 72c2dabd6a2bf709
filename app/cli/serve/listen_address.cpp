#include "serve/listen_address.h"

#include <charconv>

namespace reef::cli {

std::variant<ListenAddress, std::string> parse_listen_address(const std::string& value) {
    const std::string said = "--listen '" + value + "': ";
    std::string host, port;
    if (!value.empty() && value.front() == '[') {   // [IPv6]:PORT
        const size_t close = value.find(']');
        if (close == std::string::npos) return said + "an IPv6 address in brackets needs its ']'";
        host = value.substr(1, close - 1);
        if (close + 1 >= value.size() || value[close + 1] != ':') return said + "expected [ADDR]:PORT";
        port = value.substr(close + 2);
    } else {
        const size_t colon = value.rfind(':');
        if (colon == std::string::npos) return said + "expected HOST:PORT, e.g. 0.0.0.0:8080";
        if (value.find(':') != colon) return said + "write an IPv6 address as [ADDR]:PORT";
        host = value.substr(0, colon);
        port = value.substr(colon + 1);
    }
    if (host.empty()) return said + "the host is missing (0.0.0.0 for every network, 127.0.0.1 for this machine)";
    int p = -1;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || p < 0 || p > 65535)
        return said + "the port must be a number from 0 to 65535 (0: any free one)";
    return ListenAddress{host, p};
}

}  // namespace reef::cli
