#include "checkpoint/verify.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <sstream>

#include "check.h"

namespace reef {

namespace {

constexpr size_t kMaxListed = 8;  // problems named in the message; the rest are counted

std::string shape_str(at::IntArrayRef s) {
    std::ostringstream o;
    o << '[';
    for (size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
    o << ']';
    return o.str();
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// The last path component ("layers.0.attention_norm.weight" -> "weight").
std::string leaf(const std::string& key) {
    const size_t dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

// The module owning a parameter ("layers.0.attention_norm.weight" -> "attention_norm").
std::string owner(const std::string& key) {
    const size_t dot = key.rfind('.');
    return dot == std::string::npos ? std::string() : leaf(key.substr(0, dot));
}

}  // namespace

void verify_state_dict(const TensorMap& tensors, const ExpectedShapes& expected, const std::string& what) {
    std::vector<std::string> missing, wrong;
    for (const auto& [key, shape] : expected) {
        auto it = tensors.find(key);
        if (it == tensors.end()) {
            missing.push_back(key);
        } else if (it->second.sizes() != at::IntArrayRef(shape)) {
            wrong.push_back(key + " is " + shape_str(it->second.sizes()) + ", expected " + shape_str(shape));
        }
    }
    if (missing.empty() && wrong.empty()) return;
    size_t extra = 0;
    for (const auto& [key, t] : tensors) extra += expected.count(key) ? 0 : 1;

    std::ostringstream msg;
    msg << what << ": " << missing.size() << " missing, " << wrong.size() << " with the wrong shape";
    if (extra) msg << ", " << extra << " unexpected";
    msg << ':';
    size_t listed = 0;
    for (const auto& k : missing)
        if (listed++ < kMaxListed) msg << (listed > 1 ? "; " : " ") << "missing " << k;
    for (const auto& w : wrong)
        if (listed++ < kMaxListed) msg << (listed > 1 ? "; " : " ") << w;
    if (listed > kMaxListed) msg << "; and " << (listed - kMaxListed) << " more";
    throw ReefError(ErrorCode::ShapeMismatch, msg.str(),
                    "the weights do not match the model config; check that config.json belongs to these weights");
}

uint64_t expected_bytes(const ExpectedShapes& expected, at::ScalarType dtype) {
    constexpr uint64_t kMax = ~uint64_t(0);
    uint64_t total = 0;
    for (const auto& [key, shape] : expected) {
        uint64_t n = uint64_t(c10::elementSize(dtype));
        for (int64_t d : shape) n = (d > 0 && n > kMax / uint64_t(d)) ? kMax : n * uint64_t(std::max<int64_t>(d, 0));
        total = total > kMax - n ? kMax : total + n;
    }
    return total;
}

TensorMap make_random_weights(const ExpectedShapes& shapes, uint64_t seed) {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    TensorMap out;
    // std::map iterates in key order, so the draws are the same for the same set of shapes.
    for (const auto& [key, shape] : shapes) {
        const std::string name = leaf(key);
        at::Tensor t;
        if (name == "bias" || contains(name, "bias")) {
            t = at::zeros(shape);
        } else if ((name == "weight" && contains(owner(key), "norm")) || contains(name, "gamma") || name == "alpha" || name == "scale") {
            // normalisation scales, LayerScale gammas and Snake alphas start at 1, as the models init them
            t = at::ones(shape);
        } else {
            int64_t fan_in = 1;
            for (size_t i = 1; i < shape.size(); ++i) fan_in *= shape[i];
            t = at::empty(shape).normal_(0.0, 1.0 / std::sqrt(double(std::max<int64_t>(fan_in, 1))), gen);
        }
        out.emplace(key, std::move(t));
    }
    return out;
}

}  // namespace reef
