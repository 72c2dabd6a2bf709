// The text the tokenizer harnesses encode with every tokenizer they manage to load: speaker and
// control tags written inline, a semantic token, Latin, CJK, combining marks (NFC), emoji, digits,
// runs of spaces and newlines, and a lone invalid UTF-8 byte, so a hostile vocabulary, merge list
// or special list is exercised by encode and decode, not only by the load.
#pragma once

namespace reef::fuzz {

inline constexpr const char kTokenizerSample[] =
    "<|speaker:0|>Hello, world! 12345 caf\xC3\xA9 cafe\xCC\x81 <|im_start|>user\n"
    "\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C  \t\n\n<|semantic:3|><|im_end|>"
    " \xF0\x9F\x90\x9F fish's \xFF tail<|speaker:12|>   end";

}  // namespace reef::fuzz
