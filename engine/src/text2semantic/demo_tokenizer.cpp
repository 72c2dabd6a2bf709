#include "text2semantic/demo_tokenizer.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

#include "check.h"
#include "text2semantic/demo_tokenizer_text.h"
#include "text2semantic/tokenizer_hf.h"
#include "text2semantic/tokenizer_regex.h"
#include "text2semantic/tokenizer_tiktoken.h"
#include "text2semantic/tokenizer_utf8.h"

namespace reef {

namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

// Qwen2's pre-tokenizer regex (what S2-Pro's tokenizer.json carries).
const char* kQwen2Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

constexpr int kTinyMerges = 256;  // 256 bytes + 256 merges = 512 = the tiny preset's first special id

// S2-Pro's special tokens relative to <|endoftext|> (fish-speech fish_speech/tokenizer.py; s2-pro config.json).
const std::vector<std::pair<std::string, int32_t>>& s2_control_specials() {
    static const std::vector<std::pair<std::string, int32_t>> v = {
        {"<|endoftext|>", 0},     {"<|im_start|>", 1},  {"<|im_end|>", 2},       {"<|pad|>", 26},
        {"<|phoneme_start|>", 27}, {"<|phoneme_end|>", 28}, {"<|text|>", 29},     {"<|voice|>", 30},
        {"<|interleave|>", 31},   {"<|audio_start|>", 32}, {"<|audio_end|>", 33}, {"<|audio_pad|>", 34},
    };
    return v;
}
constexpr int32_t kS2SemanticOffset = 35;
constexpr int32_t kS1SemanticOffset = 15;
constexpr int32_t kS1ImEndOffset = 4;

std::string to_byte_level(const std::string& bytes) {
    std::string s;
    for (unsigned char c : bytes) utf8::append(s, byte_level_alphabet()[c]);
    return s;
}

void write_atomic(const fs::path& path, const std::string& content) {
    const fs::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw ReefError(ErrorCode::Io, "cannot write " + tmp.string());
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        if (!out.flush()) throw ReefError(ErrorCode::Io, "cannot write " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw ReefError(ErrorCode::Io, "cannot rename " + tmp.string() + " to " + path.string());
    }
}

void write_s2(const fs::path& dir, const DemoBpe& bpe, int32_t first) {
    ojson vocab = ojson::object();
    for (size_t i = 0; i < bpe.tokens.size(); ++i) vocab[to_byte_level(bpe.tokens[i])] = static_cast<int32_t>(i);
    std::vector<std::pair<std::string, int32_t>> specials;
    for (const auto& [tok, off] : s2_control_specials()) specials.emplace_back(tok, first + off);
    for (int i = 0; i < 4096; ++i)
        specials.emplace_back("<|semantic:" + std::to_string(i) + "|>", first + kS2SemanticOffset + i);
    ojson added = ojson::array();
    for (const auto& [tok, id] : specials) {
        vocab[tok] = id;
        added.push_back({{"id", id}, {"content", tok}, {"single_word", false}, {"lstrip", false},
                         {"rstrip", false}, {"normalized", false}, {"special", true}});
    }
    ojson merges = ojson::array();
    for (const auto& [a, b] : bpe.merges) merges.push_back({to_byte_level(a), to_byte_level(b)});

    ojson root;
    root["version"] = "1.0";
    root["truncation"] = nullptr;
    root["padding"] = nullptr;
    root["added_tokens"] = added;
    root["normalizer"] = {{"type", "NFC"}};
    root["pre_tokenizer"] = {
        {"type", "Sequence"},
        {"pretokenizers",
         {{{"type", "Split"}, {"pattern", {{"Regex", kQwen2Pattern}}}, {"behavior", "Isolated"}, {"invert", false}},
          {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", false}, {"use_regex", false}}}}};
    root["post_processor"] = nullptr;
    root["decoder"] = {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", true}, {"use_regex", true}};
    root["model"] = {{"type", "BPE"},           {"dropout", nullptr},      {"unk_token", nullptr},
                     {"continuing_subword_prefix", ""}, {"end_of_word_suffix", ""}, {"fuse_unk", false},
                     {"byte_fallback", false},  {"ignore_merges", false}, {"vocab", vocab},
                     {"merges", merges}};
    write_atomic(dir / "tokenizer.json", root.dump());

    // PreTrainedTokenizerFast: no default specials injected (reference-run §4.1).
    const ojson config = {{"tokenizer_class", "PreTrainedTokenizerFast"}, {"eos_token", "<|im_end|>"},
                          {"pad_token", "<|pad|>"}, {"clean_up_tokenization_spaces", false},
                          {"model_max_length", 32768}};
    write_atomic(dir / "tokenizer_config.json", config.dump(2));
    ojson extra = ojson::array();
    for (const auto& [tok, id] : specials)
        if (tok != "<|im_end|>" && tok != "<|pad|>") extra.push_back(tok);
    const ojson map = {{"eos_token", "<|im_end|>"}, {"pad_token", "<|pad|>"}, {"additional_special_tokens", extra}};
    write_atomic(dir / "special_tokens_map.json", map.dump());
}

std::string base64_encode(const std::string& in) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
        out += abc[v >> 18];
        out += abc[(v >> 12) & 63];
        out += abc[(v >> 6) & 63];
        out += abc[v & 63];
    }
    if (i + 1 == in.size()) {
        const uint32_t v = uint8_t(in[i]) << 16;
        out += abc[v >> 18];
        out += abc[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == in.size()) {
        const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
        out += abc[v >> 18];
        out += abc[(v >> 12) & 63];
        out += abc[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

void write_s1(const fs::path& dir, const DemoBpe& bpe, int32_t first) {
    std::string ranks;
    ranks.reserve(static_cast<size_t>(first) * 18);
    for (size_t i = 0; i < bpe.tokens.size(); ++i)
        ranks += base64_encode(bpe.tokens[i]) + " " + std::to_string(i) + "\n";
    // Specials start at the number of ranks, so ranks are padded up to `first` with fillers that no
    // text can reach: 0xFF never occurs in UTF-8, and no shorter token starts with it.
    for (int32_t r = static_cast<int32_t>(bpe.tokens.size()), k = 0; r < first; ++r, ++k) {
        const std::string filler = {char(0xFF), char((k >> 16) & 0xFF), char((k >> 8) & 0xFF), char(k & 0xFF)};
        ranks += base64_encode(filler) + " " + std::to_string(r) + "\n";
    }
    write_atomic(dir / "tokenizer.tiktoken", ranks);
    ojson specials = ojson::object();
    const auto names = fish_s1_default_special_tokens();
    for (size_t i = 0; i < names.size(); ++i) specials[names[i]] = first + static_cast<int32_t>(i);
    write_atomic(dir / "special_tokens.json", specials.dump(2));
}

}  // namespace

DemoBpe train_demo_bpe(int num_merges) {
    DemoBpe bpe;
    for (int b = 0; b < 256; ++b) bpe.tokens.emplace_back(1, static_cast<char>(b));
    std::set<std::string> known(bpe.tokens.begin(), bpe.tokens.end());

    // Unique pre-tokenized words with their counts; each word as a list of token ids.
    std::map<std::string, int64_t> counts;
    const std::string text = kDemoBpeSampleText;
    Pcre2Regex(kQwen2Pattern, "demo BPE").split_isolated(text, [&](size_t b, size_t e) { ++counts[text.substr(b, e - b)]; });
    std::vector<std::pair<std::vector<int32_t>, int64_t>> words;
    for (const auto& [w, c] : counts) {
        std::vector<int32_t> ids;
        for (unsigned char ch : w) ids.push_back(ch);
        words.emplace_back(std::move(ids), c);
    }

    while (static_cast<int>(bpe.merges.size()) < num_merges) {
        std::map<std::pair<int32_t, int32_t>, int64_t> pairs;
        for (const auto& [ids, c] : words)
            for (size_t i = 0; i + 1 < ids.size(); ++i) pairs[{ids[i], ids[i + 1]}] += c;
        // Most frequent pair whose result is new; ties go to the smaller (left, right) byte strings.
        const std::pair<int32_t, int32_t>* best = nullptr;
        int64_t best_count = 0;
        for (const auto& [p, c] : pairs) {
            if (c < best_count || known.count(bpe.tokens[p.first] + bpe.tokens[p.second])) continue;
            if (best && c == best_count &&
                std::tie(bpe.tokens[p.first], bpe.tokens[p.second]) >= std::tie(bpe.tokens[best->first], bpe.tokens[best->second]))
                continue;
            best = &p;
            best_count = c;
        }
        if (!best) break;  // nothing left to merge (pairs seen once still count: 256 merges need them)
        const auto [l, r] = *best;
        const int32_t id = static_cast<int32_t>(bpe.tokens.size());
        bpe.tokens.push_back(bpe.tokens[l] + bpe.tokens[r]);
        known.insert(bpe.tokens.back());
        bpe.merges.emplace_back(bpe.tokens[l], bpe.tokens[r]);
        for (auto& [ids, c] : words) {
            std::vector<int32_t> merged;
            for (size_t i = 0; i < ids.size(); ++i) {
                if (i + 1 < ids.size() && ids[i] == l && ids[i + 1] == r) {
                    merged.push_back(id);
                    ++i;
                } else {
                    merged.push_back(ids[i]);
                }
            }
            ids = std::move(merged);
        }
    }
    return bpe;
}

DemoTokenizerInfo write_demo_tokenizer(const std::string& dir, const std::string& layout, const std::string& preset) {
    if (layout != "s1" && layout != "s2")
        throw ReefError(ErrorCode::InvalidArgument, "demo tokenizer: unknown layout '" + layout + "' (s1 or s2)");
    int32_t first = 0;
    if (preset == "tiny") {
        first = 512;
    } else if (preset == "s1-mini" || preset == "s2-pro") {
        first = 151643;
    } else {
        throw ReefError(ErrorCode::InvalidArgument, "demo tokenizer: unknown preset '" + preset + "' (tiny, s1-mini, s2-pro)");
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) throw ReefError(ErrorCode::Io, "cannot create folder " + dir);
    const DemoBpe bpe = train_demo_bpe(kTinyMerges);
    REEF_CHECK(static_cast<int32_t>(bpe.tokens.size()) <= first, "demo BPE larger than the first special id");

    DemoTokenizerInfo info{};
    const bool s2 = layout == "s2";
    const int32_t semantic_offset = s2 ? kS2SemanticOffset : kS1SemanticOffset;
    info.semantic_begin = first + semantic_offset;
    info.semantic_end = info.semantic_begin + 4095;
    info.im_end = first + (s2 ? 2 : kS1ImEndOffset);
    info.vocab_size = preset == "tiny" ? int64_t(info.semantic_end) + 1 + 2 : 155776;
    if (s2)
        write_s2(dir, bpe, first);
    else
        write_s1(dir, bpe, first);
    return info;
}

}  // namespace reef
