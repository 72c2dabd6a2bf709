#include "npy.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "reef/bench_report.h"

namespace reef::cli {
namespace {

EngineError bad(const std::string& path, const std::string& why) {
    return EngineError{ErrorCode::InvalidArgument, path + ": " + why, "expected a (10, T) integer array from np.save"};
}

}  // namespace

Result<Codes> read_codes_npy(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return EngineError{ErrorCode::Io, "cannot open " + path, {}};
    char magic[8];
    if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) return bad(path, "not a .npy file");
    const int major = magic[6];
    uint32_t header_len = 0;
    if (major == 1) {
        uint16_t h;
        in.read(reinterpret_cast<char*>(&h), 2);
        header_len = h;
    } else {
        in.read(reinterpret_cast<char*>(&header_len), 4);
    }
    if (!in || header_len > 65536) return bad(path, "truncated header");
    std::string header(header_len, '\0');
    in.read(header.data(), header_len);
    std::smatch m;
    if (!std::regex_search(header, m, std::regex("'descr':\\s*'([<|>]?)([iu])(\\d)'")))
        return bad(path, "dtype is not an integer type (header " + header + ")");
    if (m[1] == ">") return bad(path, "big-endian arrays are not supported");
    const int itemsize = std::stoi(m[3]);
    const bool is_unsigned = m[2] == "u";
    if (header.find("'fortran_order': True") != std::string::npos) return bad(path, "Fortran-order arrays are not supported");
    if (!std::regex_search(header, m, std::regex("'shape':\\s*\\((\\d+),\\s*(\\d+),?\\s*\\)")))
        return bad(path, "shape is not 2-D (header " + header + ")");
    Codes c;
    c.n_codebooks = std::stoi(m[1]);
    c.n_frames = std::stoi(m[2]);
    const size_t n = size_t(c.n_codebooks) * size_t(c.n_frames);
    std::vector<char> raw(n * size_t(itemsize));
    if (!in.read(raw.data(), std::streamsize(raw.size()))) return bad(path, "truncated data");
    c.data.resize(n);
    for (size_t i = 0; i < n; ++i) {
        int64_t v = 0;
        const char* p = raw.data() + i * size_t(itemsize);
        switch (itemsize) {
        case 1: v = is_unsigned ? int64_t(uint8_t(*p)) : int64_t(int8_t(*p)); break;
        case 2: { int16_t x; std::memcpy(&x, p, 2); v = is_unsigned ? int64_t(uint16_t(x)) : x; break; }
        case 4: { int32_t x; std::memcpy(&x, p, 4); v = is_unsigned ? int64_t(uint32_t(x)) : x; break; }
        case 8: std::memcpy(&v, p, 8); break;
        default: return bad(path, "unsupported item size " + std::to_string(itemsize));
        }
        if (v < INT32_MIN || v > INT32_MAX) return bad(path, "code value out of range: " + std::to_string(v));
        c.data[i] = int32_t(v);
    }
    return c;
}

Status write_codes_npy(const std::string& path, const Codes& codes) {
    std::string header = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + std::to_string(codes.n_codebooks) +
                         ", " + std::to_string(codes.n_frames) + "), }";
    // Pad so that magic(6)+version(2)+len(2)+header is a multiple of 64, ending in '\n'.
    const size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out = std::string("\x93NUMPY\x01\x00", 8);
    const uint16_t len = uint16_t(header.size());
    out.append(reinterpret_cast<const char*>(&len), 2);
    out += header;
    for (int32_t v : codes.data) {
        const int64_t w = v;
        out.append(reinterpret_cast<const char*>(&w), 8);
    }
    return write_text_file_atomic(path, out);
}

}  // namespace reef::cli
