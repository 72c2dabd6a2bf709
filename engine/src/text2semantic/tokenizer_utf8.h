// UTF-8 helpers for the tokenizers: code point iteration, lossy repair (as Rust's
// String::from_utf8_lossy / Python's errors="replace" do on decode), Python-style strip.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace reef::utf8 {

// Length of the valid UTF-8 sequence starting at s[i] (1..4), or 0 when it is invalid there.
int valid_sequence_length(std::string_view s, size_t i);
// Decodes the sequence at s[i] (which must be valid: see valid_sequence_length).
char32_t decode_at(std::string_view s, size_t i, int len);
void append(std::string& out, char32_t cp);
bool is_valid(std::string_view s);
// Replaces every invalid sequence by U+FFFD (one per maximal invalid prefix, like Rust's lossy decode).
std::string make_valid(std::string_view s);
// Python str.isspace() for one code point (Unicode White_Space plus the ASCII separators 0x1C..0x1F).
bool is_python_space(char32_t cp);
// Python str.strip(): removes leading and trailing whitespace code points.
std::string python_strip(std::string_view s);

}  // namespace reef::utf8
