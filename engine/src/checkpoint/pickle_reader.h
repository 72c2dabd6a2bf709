// A restricted unpickler for torch.save's data.pkl: it builds plain values (None, bool, int, float,
// str, tuple, list, dict) and tensors, and accepts only the globals a state_dict needs
// (collections.OrderedDict, torch._utils._rebuild_tensor_v2 / _rebuild_parameter, torch.*Storage).
// Any other global is refused before anything is called, so a hostile file cannot run code.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace reef::pickle {

struct Value;
using ValuePtr = std::shared_ptr<Value>;

enum class Kind { None, Bool, Int, Float, Str, Tuple, List, Dict, Global, Storage, Tensor };
const char* kind_name(Kind kind);

struct Value {
    Kind kind = Kind::None;
    bool b = false;
    int64_t i = 0;
    double f = 0.0;
    std::string s;                                      // Str; Global: "module.name"
    std::vector<ValuePtr> items;                        // Tuple, List
    std::vector<std::pair<ValuePtr, ValuePtr>> dict;    // Dict, in insertion order
    at::Tensor tensor;                                  // Tensor; Storage: a flat [numel] tensor over it
};

// Turns the persistent id tuple after BINPERSID into a value (a Storage for torch zip files).
using PersistentLoad = std::function<ValuePtr(const Value& pid)>;

// `what` names the file in error messages. Throws ReefError(CorruptModel) on a refused global,
// an unknown opcode, a truncated stream or a malformed tensor.
ValuePtr unpickle(const uint8_t* data, size_t size, const PersistentLoad& persistent_load, const std::string& what);

// Empties every container reachable from root. A hostile pickle can build reference cycles through
// the memo (d['a'] = d), which shared_ptr alone would leak; call this when done with the tree.
void release(const ValuePtr& root);

}  // namespace reef::pickle
