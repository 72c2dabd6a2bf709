// Reader of the fixtures written by tests/parity/dump_reference.py (format "reef-parity-v1"):
// <dir>/manifest.json (meta, inputs, per-tensor dtype/shape/offset) + <dir>/tensors.bin (raw
// little-endian, C order), plus the comparison helpers the parity tests print with.
#pragma once
#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace parity {

class Fixtures {
public:
    explicit Fixtures(const std::filesystem::path& dir) : m_dir(dir) {
        std::ifstream mf(dir / "manifest.json", std::ios::binary);
        if (!mf) throw std::runtime_error("parity fixtures: cannot read " + (dir / "manifest.json").string());
        m_manifest = nlohmann::json::parse(mf);
        if (m_manifest.value("format", "") != "reef-parity-v1")
            throw std::runtime_error("parity fixtures: " + dir.string() + " is not reef-parity-v1");
        std::ifstream bf(dir / "tensors.bin", std::ios::binary);
        if (!bf) throw std::runtime_error("parity fixtures: cannot read " + (dir / "tensors.bin").string());
        std::ostringstream ss;
        ss << bf.rdbuf();
        m_blob = ss.str();
    }

    const nlohmann::json& meta() const { return m_manifest.at("meta"); }
    const nlohmann::json& inputs() const { return m_manifest.at("inputs"); }
    bool has(const std::string& name) const { return m_manifest.at("tensors").contains(name); }

    // A CPU copy: float32 or int64, in the stored shape.
    at::Tensor get(const std::string& name) const {
        const auto& tensors = m_manifest.at("tensors");
        if (!tensors.contains(name)) throw std::runtime_error("parity fixtures: no tensor '" + name + "' in " + m_dir.string());
        const auto& t = tensors.at(name);
        const std::vector<int64_t> shape = t.at("shape").get<std::vector<int64_t>>();
        const auto dtype = t.at("dtype").get<std::string>() == "f32" ? at::kFloat : at::kLong;
        const size_t offset = t.at("offset").get<size_t>();
        const size_t numel = t.at("numel").get<size_t>();
        const size_t bytes = numel * (dtype == at::kFloat ? 4 : 8);
        if (offset + bytes > m_blob.size()) throw std::runtime_error("parity fixtures: '" + name + "' runs past tensors.bin");
        at::Tensor out = at::empty(shape, at::TensorOptions().dtype(dtype));
        std::memcpy(out.data_ptr(), m_blob.data() + offset, bytes);
        return out;
    }

private:
    std::filesystem::path m_dir;
    nlohmann::json m_manifest;
    std::string m_blob;
};

inline std::string shape_str(const at::Tensor& t) {
    std::string s = "[";
    for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
    return s + "]";
}

// max |a - b| over equal shapes (infinity when the shapes differ); prints one line per tensor.
inline double max_abs_diff(const std::string& what, const at::Tensor& a, const at::Tensor& b) {
    const at::Tensor x = a.detach().cpu().to(at::kDouble).contiguous();
    const at::Tensor y = b.detach().cpu().to(at::kDouble).contiguous();
    if (x.sizes() != y.sizes()) {
        std::printf("  %-28s shape mismatch: reef %s vs fish-speech %s\n", what.c_str(), shape_str(x).c_str(),
                    shape_str(y).c_str());
        return INFINITY;
    }
    if (x.numel() == 0) return 0.0;
    const at::Tensor d = (x - y).abs();
    const int64_t arg = d.reshape({-1}).argmax().item<int64_t>();
    const double m = d.reshape({-1})[arg].item<double>();
    std::printf("  %-28s %s max|diff| = %.3g (at flat index %lld: reef %.9g, fish-speech %.9g)\n", what.c_str(),
                shape_str(x).c_str(), m, static_cast<long long>(arg), x.reshape({-1})[arg].item<double>(),
                y.reshape({-1})[arg].item<double>());
    return m;
}

// Exact comparison of integer tensors [rows, frames] (codes): prints the first divergence as
// (frame, row) with row naming the main token (row 0 of a column set) or the codebook.
// `row_names`: "main" for row 0 when the rows include the main token.
inline bool codes_equal(const std::string& what, const at::Tensor& reef, const at::Tensor& ref, bool has_main_row) {
    const at::Tensor a = reef.cpu().to(at::kLong).contiguous();
    const at::Tensor b = ref.cpu().to(at::kLong).contiguous();
    if (a.dim() != 2 || b.dim() != 2 || a.size(0) != b.size(0)) {
        std::printf("  %-28s shape mismatch: reef %s vs fish-speech %s\n", what.c_str(), shape_str(a).c_str(),
                    shape_str(b).c_str());
        return false;
    }
    const int64_t frames = std::min(a.size(1), b.size(1));
    auto pa = a.accessor<int64_t, 2>();
    auto pb = b.accessor<int64_t, 2>();
    for (int64_t f = 0; f < frames; ++f) {
        for (int64_t r = 0; r < a.size(0); ++r) {
            if (pa[r][f] == pb[r][f]) continue;
            const std::string row = has_main_row ? (r == 0 ? "main token" : "codebook " + std::to_string(r - 1))
                                                 : "codebook " + std::to_string(r);
            std::printf("  %-28s DIVERGE at frame %lld, %s: reef %lld vs fish-speech %lld (%lld frames agree)\n",
                        what.c_str(), static_cast<long long>(f), row.c_str(), static_cast<long long>(pa[r][f]),
                        static_cast<long long>(pb[r][f]), static_cast<long long>(f));
            return false;
        }
    }
    if (a.size(1) != b.size(1)) {
        std::printf("  %-28s frame count differs: reef %lld vs fish-speech %lld (first %lld agree)\n", what.c_str(),
                    static_cast<long long>(a.size(1)), static_cast<long long>(b.size(1)),
                    static_cast<long long>(frames));
        return false;
    }
    std::printf("  %-28s %s identical (%lld columns)\n", what.c_str(), shape_str(a).c_str(),
                static_cast<long long>(frames));
    return true;
}

}  // namespace parity
