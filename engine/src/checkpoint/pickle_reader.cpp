// Opcode semantics follow CPython's Lib/pickle.py (protocols 2-4, the ones torch.save emits);
// the state is a value stack, a mark stack and the memo.
#include "checkpoint/pickle_reader.h"

#include <cstring>
#include <unordered_map>

#include "check.h"
#include "checkpoint/dtype_names.h"

namespace reef::pickle {

const char* kind_name(Kind kind) {
    switch (kind) {
        case Kind::None: return "None";
        case Kind::Bool: return "bool";
        case Kind::Int: return "int";
        case Kind::Float: return "float";
        case Kind::Str: return "str";
        case Kind::Tuple: return "tuple";
        case Kind::List: return "list";
        case Kind::Dict: return "dict";
        case Kind::Global: return "global";
        case Kind::Storage: return "storage";
        case Kind::Tensor: return "tensor";
    }
    return "?";
}

namespace {

ValuePtr make(Kind kind) {
    auto v = std::make_shared<Value>();
    v->kind = kind;
    return v;
}

std::string dims_str(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

bool is_allowed_global(const std::string& module, const std::string& name) {
    if (module == "collections" && name == "OrderedDict") return true;
    if (module == "torch._utils" && (name == "_rebuild_tensor_v2" || name == "_rebuild_parameter")) return true;
    return module == "torch" && dtype_from_storage_name(name).has_value();
}

class Unpickler {
public:
    Unpickler(const uint8_t* data, size_t size, const PersistentLoad& pl, const std::string& what)
        : m_data(data), m_size(size), m_persistent_load(pl), m_what(what) {}
    // A stream that failed half-way may have left memo cycles behind.
    ~Unpickler() {
        if (m_done) return;
        for (auto& [idx, v] : m_memo) release(v);
        for (auto& v : m_stack) release(v);
    }

    ValuePtr run() {
        while (true) {
            const size_t at = m_pos;
            const uint8_t op = read_u8();
            if (op == '.') break;  // STOP
            if (!step(op)) fail("unsupported pickle opcode 0x" + hex(op) + " at offset " + std::to_string(at));
        }
        if (m_stack.size() != 1) fail("pickle ends with " + std::to_string(m_stack.size()) + " values on the stack");
        m_done = true;
        return m_stack.back();
    }

private:
    [[noreturn]] void fail(const std::string& msg) const {
        throw ReefError(ErrorCode::CorruptModel, m_what + ": " + msg, "only plain state_dict checkpoints are supported");
    }
    static std::string hex(uint8_t b) {
        const char* d = "0123456789abcdef";
        return {d[b >> 4], d[b & 15]};
    }

    // --- reading the stream ---
    const uint8_t* take(size_t n) {
        if (n > m_size - m_pos) fail("truncated pickle (needs " + std::to_string(n) + " bytes at offset " +
                                     std::to_string(m_pos) + ")");
        const uint8_t* p = m_data + m_pos;
        m_pos += n;
        return p;
    }
    uint8_t read_u8() { return *take(1); }
    uint64_t read_le(size_t n) {
        const uint8_t* p = take(n);
        uint64_t v = 0;
        for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
        return v;
    }
    std::string read_bytes(uint64_t n) {
        if (n > m_size) fail("string length " + std::to_string(n) + " exceeds the pickle");
        const uint8_t* p = take(size_t(n));
        return std::string(reinterpret_cast<const char*>(p), size_t(n));
    }
    std::string read_line() {
        const void* nl = std::memchr(m_data + m_pos, '\n', m_size - m_pos);
        if (!nl) fail("truncated pickle: GLOBAL without newline");
        const size_t n = size_t(static_cast<const uint8_t*>(nl) - (m_data + m_pos));
        std::string s = read_bytes(n);
        m_pos += 1;
        return s;
    }

    // --- the stacks ---
    void push(ValuePtr v) { m_stack.push_back(std::move(v)); }
    ValuePtr pop() {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back())) fail("pickle stack underflow");
        ValuePtr v = std::move(m_stack.back());
        m_stack.pop_back();
        return v;
    }
    ValuePtr& top() {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back())) fail("pickle stack underflow");
        return m_stack.back();
    }
    // Everything above the last MARK, which is removed.
    std::vector<ValuePtr> pop_mark() {
        if (m_marks.empty()) fail("pickle pops a MARK that was never pushed");
        const size_t m = m_marks.back();
        m_marks.pop_back();
        std::vector<ValuePtr> items(m_stack.begin() + std::ptrdiff_t(m), m_stack.end());
        m_stack.resize(m);
        return items;
    }
    void memo_put(uint64_t idx) { m_memo[idx] = top(); }
    void memo_get(uint64_t idx) {
        auto it = m_memo.find(idx);
        if (it == m_memo.end()) fail("pickle reads memo slot " + std::to_string(idx) + " that was never written");
        push(it->second);
    }

    ValuePtr tuple(std::vector<ValuePtr> items) {
        auto v = make(Kind::Tuple);
        v->items = std::move(items);
        return v;
    }
    ValuePtr int_value(int64_t i) {
        auto v = make(Kind::Int);
        v->i = i;
        return v;
    }
    ValuePtr str_value(std::string s) {
        auto v = make(Kind::Str);
        v->s = std::move(s);
        return v;
    }

    void global(const std::string& module, const std::string& name) {
        if (!is_allowed_global(module, name))
            fail("refuses global '" + module + "." + name + "' (only tensors and plain containers are loaded)");
        auto v = make(Kind::Global);
        v->s = module + "." + name;
        push(v);
    }

    void set_items(Value& dict, std::vector<ValuePtr>& kv) {
        if (dict.kind != Kind::Dict) fail("SETITEM(S) on a " + std::string(kind_name(dict.kind)));
        if (kv.size() % 2 != 0) fail("SETITEMS with an odd number of values");
        for (size_t i = 0; i < kv.size(); i += 2) dict.dict.emplace_back(kv[i], kv[i + 1]);
    }
    void append_items(Value& list, std::vector<ValuePtr>& items) {
        if (list.kind != Kind::List) fail("APPEND(S) on a " + std::string(kind_name(list.kind)));
        for (auto& v : items) list.items.push_back(v);
    }

    ValuePtr reduce(const Value& fn, const Value& args);
    ValuePtr rebuild_tensor(const Value& args);
    bool step(uint8_t op);
    bool step_value(uint8_t op);
    bool step_container(uint8_t op);
    bool step_call(uint8_t op);

    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos = 0;
    const PersistentLoad& m_persistent_load;
    const std::string& m_what;
    std::vector<ValuePtr> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint64_t, ValuePtr> m_memo;
    bool m_done = false;
};

ValuePtr Unpickler::rebuild_tensor(const Value& args) {
    // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
    if (args.items.size() < 4 || args.items[0]->kind != Kind::Storage || args.items[1]->kind != Kind::Int ||
        args.items[2]->kind != Kind::Tuple || args.items[3]->kind != Kind::Tuple)
        fail("_rebuild_tensor_v2 called with malformed arguments");
    const at::Tensor& flat = args.items[0]->tensor;  // [numel] over the whole storage
    const int64_t offset = args.items[1]->i;
    std::vector<int64_t> size, stride;
    for (const auto& d : args.items[2]->items) {
        if (d->kind != Kind::Int || d->i < 0) fail("_rebuild_tensor_v2: bad size");
        size.push_back(d->i);
    }
    for (const auto& d : args.items[3]->items) {
        if (d->kind != Kind::Int || d->i < 0) fail("_rebuild_tensor_v2: bad stride");
        stride.push_back(d->i);
    }
    if (size.size() != stride.size()) fail("_rebuild_tensor_v2: size and stride ranks differ");
    const int64_t numel = flat.numel();
    // A view may not hold more elements than its storage: a stride-0 (broadcast) view of a few
    // bytes can claim terabytes, which conversion or fusing would later materialise. torch.save
    // of a state_dict never writes such views, so refusing them costs nothing real.
    int64_t view_numel = 1;
    for (int64_t s : size) {
        if (s != 0 && view_numel > numel / s)
            fail("tensor view of size " + dims_str(size) + " has more elements than its storage of " +
                 std::to_string(numel) + " (a stride-0 / broadcast view; not a plain state_dict tensor)");
        view_numel *= s;
    }
    if (offset < 0 || offset > numel)
        fail("tensor view offset " + std::to_string(offset) + " lies outside its storage of " + std::to_string(numel) +
             " elements");
    // The last element the view touches must lie inside the storage.
    int64_t last = offset;
    bool empty = view_numel == 0;
    for (size_t i = 0; i < size.size() && !empty; ++i) {
        if (stride[i] > 0 && size[i] - 1 > (numel - last) / stride[i]) {
            last = numel;  // past the end; reported below without overflowing
            break;
        }
        last += (size[i] - 1) * stride[i];
    }
    if (!empty && last >= numel)
        fail("tensor view (offset " + std::to_string(offset) + ", last element " + std::to_string(last) +
             ") reaches outside its storage of " + std::to_string(numel) + " elements");
    auto v = make(Kind::Tensor);
    v->tensor = at::empty({0}, flat.options()).set_(flat.storage(), offset, size, stride);
    return v;
}

ValuePtr Unpickler::reduce(const Value& fn, const Value& args) {
    if (fn.kind != Kind::Global) fail("REDUCE calls a " + std::string(kind_name(fn.kind)) + ", not an allowed global");
    if (args.kind != Kind::Tuple) fail("REDUCE arguments are not a tuple");
    if (fn.s == "collections.OrderedDict") {
        if (!args.items.empty()) fail("OrderedDict(...) with arguments is not supported");
        return make(Kind::Dict);
    }
    if (fn.s == "torch._utils._rebuild_tensor_v2") return rebuild_tensor(args);
    if (fn.s == "torch._utils._rebuild_parameter") {
        // _rebuild_parameter(data, requires_grad, backward_hooks): a Parameter is its data here.
        if (args.items.empty() || args.items[0]->kind != Kind::Tensor) fail("_rebuild_parameter without a tensor");
        return args.items[0];
    }
    fail("refuses to call '" + fn.s + "'");
}

bool Unpickler::step(uint8_t op) { return step_value(op) || step_container(op) || step_call(op); }

// Opcodes that push a literal (or only frame the stream).
bool Unpickler::step_value(uint8_t op) {
    switch (op) {
        case 0x80: read_u8(); return true;          // PROTO
        case 0x95: read_le(8); return true;         // FRAME: framing is only a read-ahead hint
        case 'N': push(make(Kind::None)); return true;
        case 0x88: case 0x89: {                     // NEWTRUE, NEWFALSE
            auto v = make(Kind::Bool);
            v->b = op == 0x88;
            push(v);
            return true;
        }
        case 'J': push(int_value(int32_t(uint32_t(read_le(4))))); return true;  // BININT
        case 'K': push(int_value(read_u8())); return true;                     // BININT1
        case 'M': push(int_value(int64_t(read_le(2)))); return true;           // BININT2
        case 0x8a: {                                                           // LONG1
            const size_t n = read_u8();
            if (n > 8) fail("integer wider than 64 bits");
            uint64_t u = n ? read_le(n) : 0;
            if (n > 0 && n < 8 && (u >> (8 * n - 1)) & 1) u |= ~uint64_t(0) << (8 * n);  // sign-extend
            push(int_value(int64_t(u)));
            return true;
        }
        case 'G': {                                                            // BINFLOAT (big-endian)
            const uint8_t* p = take(8);
            uint64_t u = 0;
            for (int i = 0; i < 8; ++i) u = (u << 8) | p[i];
            auto v = make(Kind::Float);
            std::memcpy(&v->f, &u, 8);
            push(v);
            return true;
        }
        case 'X': case 'T': case 'B': push(str_value(read_bytes(read_le(4)))); return true;  // BINUNICODE, BINSTRING, BINBYTES
        case 0x8c: case 'U': case 'C': push(str_value(read_bytes(read_u8()))); return true;  // SHORT_BINUNICODE/STRING/BYTES
        case 0x8d: push(str_value(read_bytes(read_le(8)))); return true;                     // BINUNICODE8
        default: return false;
    }
}

// Opcodes that build containers, move values between stack and memo, or mark the stack.
bool Unpickler::step_container(uint8_t op) {
    switch (op) {
        case '(': m_marks.push_back(m_stack.size()); return true;  // MARK
        case '}': push(make(Kind::Dict)); return true;
        case ']': push(make(Kind::List)); return true;
        case ')': push(tuple({})); return true;
        case 0x85: case 0x86: case 0x87: {                                     // TUPLE1..3
            std::vector<ValuePtr> items(size_t(op - 0x84));
            for (size_t i = items.size(); i-- > 0;) items[i] = pop();
            push(tuple(std::move(items)));
            return true;
        }
        case 't': push(tuple(pop_mark())); return true;                        // TUPLE
        case 'q': memo_put(read_u8()); return true;                            // BINPUT
        case 'r': memo_put(read_le(4)); return true;                           // LONG_BINPUT
        case 0x94: memo_put(m_memo.size()); return true;                       // MEMOIZE
        case 'h': memo_get(read_u8()); return true;                            // BINGET
        case 'j': memo_get(read_le(4)); return true;                           // LONG_BINGET
        case '0': pop(); return true;                                          // POP
        case '1': pop_mark(); return true;                                     // POP_MARK
        case '2': push(top()); return true;                                    // DUP
        case 's': {                                                            // SETITEM
            std::vector<ValuePtr> kv(2);
            kv[1] = pop();
            kv[0] = pop();
            set_items(*top(), kv);
            return true;
        }
        case 'u': { auto kv = pop_mark(); set_items(*top(), kv); return true; }          // SETITEMS
        case 'a': { std::vector<ValuePtr> it{pop()}; append_items(*top(), it); return true; }  // APPEND
        case 'e': { auto it = pop_mark(); append_items(*top(), it); return true; }        // APPENDS
        default: return false;
    }
}

// Opcodes that name or call globals, or load persistent ids: the only way to code, so allow-listed.
bool Unpickler::step_call(uint8_t op) {
    switch (op) {
        case 'c': {                                                            // GLOBAL
            const std::string module = read_line();
            global(module, read_line());
            return true;
        }
        case 0x93: {                                                           // STACK_GLOBAL
            const ValuePtr name = pop();
            const ValuePtr module = pop();
            if (module->kind != Kind::Str || name->kind != Kind::Str) fail("STACK_GLOBAL without two strings");
            global(module->s, name->s);
            return true;
        }
        case 'R': {                                                            // REDUCE
            const ValuePtr args = pop();
            const ValuePtr fn = pop();
            push(reduce(*fn, *args));
            return true;
        }
        case 'b': {  // BUILD: OrderedDict's _metadata and tensor state carry nothing we use.
            pop();
            const Kind k = top()->kind;
            if (k != Kind::Dict && k != Kind::Tensor) fail("BUILD on a " + std::string(kind_name(k)));
            return true;
        }
        case 'Q': {                                                            // BINPERSID
            const ValuePtr pid = pop();
            if (!m_persistent_load) fail("persistent id without a loader");
            push(m_persistent_load(*pid));
            return true;
        }
        default: return false;
    }
}

}  // namespace

ValuePtr unpickle(const uint8_t* data, size_t size, const PersistentLoad& persistent_load, const std::string& what) {
    return Unpickler(data, size, persistent_load, what).run();
}

void release(const ValuePtr& root) {
    std::vector<ValuePtr> todo{root};
    while (!todo.empty()) {
        ValuePtr v = std::move(todo.back());
        todo.pop_back();
        if (!v) continue;
        for (auto& item : v->items) todo.push_back(std::move(item));
        for (auto& [k, val] : v->dict) {
            todo.push_back(std::move(k));
            todo.push_back(std::move(val));
        }
        v->items.clear();
        v->dict.clear();
    }
}

}  // namespace reef::pickle
