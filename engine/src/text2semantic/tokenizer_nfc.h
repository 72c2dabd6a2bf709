// Unicode NFC (canonical decomposition, canonical ordering, canonical composition) for the HF
// "NFC" normalizer step. Tables come from tokenizer_nfc_data.inc (generated from Python's
// unicodedata by tokenizer_nfc_gen.py); Hangul is algorithmic. Text that is not valid UTF-8 is
// returned unchanged.
#pragma once
#include <string>
#include <string_view>

namespace reef {

std::string nfc_normalize(std::string_view text);

}  // namespace reef
