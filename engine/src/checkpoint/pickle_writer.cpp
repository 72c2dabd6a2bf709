#include "checkpoint/pickle_writer.h"

#include <cstdint>

#include "check.h"
#include "checkpoint/dtype_names.h"

namespace reef::pickle {

namespace {

class Pickler {
public:
    std::string& bytes() { return m_out; }
    void op(char c) { m_out.push_back(c); }
    void u8(uint8_t b) { m_out.push_back(char(b)); }
    void le(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) u8(uint8_t(v >> (8 * i)));
    }
    void str(const std::string& s) {  // BINUNICODE
        op('X');
        le(s.size(), 4);
        m_out += s;
    }
    void integer(int64_t v) {
        if (v >= 0 && v < 256) {
            op('K');
            u8(uint8_t(v));
        } else if (v >= 0 && v < 65536) {
            op('M');
            le(uint64_t(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            op('J');
            le(uint64_t(uint32_t(int32_t(v))), 4);
        } else {  // LONG1, 8 bytes two's complement
            u8(0x8a);
            u8(8);
            le(uint64_t(v), 8);
        }
    }
    void global(const char* module, const std::string& name) {
        op('c');
        m_out += module;
        m_out += '\n';
        m_out += name;
        m_out += '\n';
    }
    void int_tuple(at::IntArrayRef xs) {
        op('(');
        for (int64_t x : xs) integer(x);
        op('t');
    }
    void empty_ordered_dict() {
        global("collections", "OrderedDict");
        op(')');
        op('R');
    }

private:
    std::string m_out;
};

}  // namespace

std::string pickle_state_dict(const std::vector<std::pair<std::string, at::Tensor>>& tensors) {
    Pickler p;
    p.u8(0x80);  // PROTO 2
    p.u8(2);
    p.empty_ordered_dict();
    if (!tensors.empty()) p.op('(');
    for (size_t i = 0; i < tensors.size(); ++i) {
        const auto& [name, t] = tensors[i];
        REEF_CHECK(t.is_contiguous() && t.device().is_cpu(), "pickle_state_dict needs contiguous CPU tensors");
        p.str(name);
        p.global("torch._utils", "_rebuild_tensor_v2");
        p.op('(');
        // persistent id ('storage', torch.<Type>Storage, key, location, numel)
        p.op('(');
        p.str("storage");
        p.global("torch", dtype_to_storage_name(t.scalar_type()));
        p.str(std::to_string(i));
        p.str("cpu");
        p.integer(t.numel());
        p.op('t');
        p.op('Q');        // BINPERSID
        p.integer(0);     // storage_offset
        p.int_tuple(t.sizes());
        p.int_tuple(t.strides());
        p.u8(0x89);       // requires_grad = False
        p.empty_ordered_dict();  // backward_hooks
        p.op('t');
        p.op('R');
    }
    if (!tensors.empty()) p.op('u');  // SETITEMS
    p.op('.');
    return std::move(p.bytes());
}

}  // namespace reef::pickle
