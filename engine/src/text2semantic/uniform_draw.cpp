#include "text2semantic/uniform_draw.h"

#include <algorithm>
#include <array>

namespace reef {
namespace {

constexpr int kN = 624, kM = 397;  // MT19937's state words and its middle offset
constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;

uint32_t twist(uint32_t u, uint32_t v) { return (((u & kUpper) | (v & kLower)) >> 1) ^ ((v & 1u) ? kMatrixA : 0u); }

// The state's next 624 words, in the generator's order (a word is replaced from the next one and the
// one 397 on, the last from the first's new value): what at::mt19937 does when its draws run out.
void next_state(std::array<uint32_t, kN>& s) {
    for (int i = 0; i < kN - kM; ++i) s[size_t(i)] = s[size_t(i + kM)] ^ twist(s[size_t(i)], s[size_t(i + 1)]);
    for (int i = kN - kM; i < kN - 1; ++i)
        s[size_t(i)] = s[size_t(i + kM - kN)] ^ twist(s[size_t(i)], s[size_t(i + 1)]);
    s[kN - 1] = s[kM - 1] ^ twist(s[kN - 1], s[0]);
}

float temper_to_uniform(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return float(y & 0xFFFFFFu) * (1.0f / 16777216.0f);
}

}  // namespace

void uniform_into(at::CPUGeneratorImpl* cpu, int64_t n, float* out) {
    // at::mt19937's call: left_ counts down first, at 0 the state is renewed (left_ = 624, next_ = 0);
    // then word next_++ is tempered. So left_ - 1 calls read words in a row before the next renewal,
    // and those run here as one loop the compiler vectorizes.
    at::mt19937_data_pod d = cpu->engine().data();
    int64_t i = 0;
    while (i < n) {
        if (d.left_ <= 1) {
            next_state(d.state_);
            d.left_ = kN, d.next_ = 0;
            out[i++] = temper_to_uniform(d.state_[d.next_++]);
            continue;
        }
        const int64_t k = std::min<int64_t>(d.left_ - 1, n - i);
        const uint32_t* words = d.state_.data() + d.next_;
        for (int64_t j = 0; j < k; ++j) out[i + j] = temper_to_uniform(words[j]);
        i += k, d.next_ += uint32_t(k), d.left_ -= int(k);
    }
    at::mt19937 engine;
    engine.set_data(d);
    cpu->set_engine(engine);
}

}  // namespace reef
