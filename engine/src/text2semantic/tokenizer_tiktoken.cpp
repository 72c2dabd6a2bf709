#include "text2semantic/tokenizer_tiktoken.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check.h"
#include "checkpoint/model_file.h"
#include "input_limits.h"
#include "text2semantic/tokenizer_bpe_core.h"
#include "text2semantic/tokenizer_utf8.h"

namespace reef {

const char* const kFishTiktokenPattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|\p{P}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(\?!\S)|\s+)";

namespace {

constexpr size_t kCacheCapacity = 10000;

// Standard base64 (tiktoken files use it with padding). Returns false on a bad character.
bool base64_decode(std::string_view in, std::string& out) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    out.clear();
    uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        if (c == '=') break;
        const int v = value(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return true;
}

std::vector<std::string> read_special_list(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return fish_s1_default_special_tokens();
    const std::string text = read_model_text(path, limits::kMaxConfigFileBytes, "special tokens file");
    nlohmann::ordered_json j;  // file order matters: ids are assigned by position
    try {
        j = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw ReefError(ErrorCode::CorruptModel, path + ": not valid JSON: " + e.what());
    }
    std::vector<std::string> tokens;
    if (j.is_object()) {
        for (const auto& item : j.items()) tokens.push_back(item.key());
    } else if (j.is_array()) {
        for (const auto& t : j) {
            if (!t.is_string()) throw ReefError(ErrorCode::CorruptModel, path + ": special token " + t.dump() + " is not a string");
            tokens.push_back(t.get<std::string>());
        }
    } else {
        throw ReefError(ErrorCode::CorruptModel, path + ": expected an object {token: id} or a list of tokens");
    }
    if (tokens.size() > size_t(limits::kMaxVocab))
        throw ReefError(ErrorCode::CorruptModel, path + ": " + std::to_string(tokens.size()) +
                                                     " special tokens, more than the vocab limit of " +
                                                     std::to_string(limits::kMaxVocab));
    return tokens;
}

}  // namespace

std::vector<std::string> fish_s1_default_special_tokens() {
    std::vector<std::string> t = {"<|begin_of_text|>", "<|end_of_text|>", "<|pad|>", "<|im_start|>", "<|im_end|>",
                                  "<|phoneme_start|>", "<|phoneme_end|>", "<|tool_call_start|>", "<|tool_call_end|>",
                                  "<|text|>", "<|voice|>", "<|interleave|>", "<|audio_start|>", "<|audio_end|>",
                                  "<|audio|>"};
    for (int i = 0; i < 4096; ++i) t.push_back("<|semantic:" + std::to_string(i) + "|>");
    return t;
}

std::unique_ptr<TiktokenTokenizer> TiktokenTokenizer::load_files(const std::string& ranks_path,
                                                                 const std::string& special_tokens_path) {
    std::istringstream in(read_model_text(ranks_path, limits::kMaxTokenizerFileBytes, "tokenizer"));
    std::unique_ptr<TiktokenTokenizer> tok(new TiktokenTokenizer());
    std::string line, bytes;
    size_t line_no = 0;
    int32_t max_rank = -1;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string b64, rank_str, extra;
        if (!(ls >> b64 >> rank_str) || (ls >> extra))
            throw ReefError(ErrorCode::CorruptModel, ranks_path + ":" + std::to_string(line_no) + ": expected \"<base64> <rank>\"");
        if (b64 == "=") continue;  // the empty token, skipped as fish-speech does
        int32_t rank = 0;
        try {
            size_t used = 0;
            rank = std::stoi(rank_str, &used);
            if (used != rank_str.size() || rank < 0) throw std::invalid_argument(rank_str);
            // Ids index a table sized max id + 1: a rank of 2^31 - 1 would ask for 48 GB.
            if (rank >= limits::kMaxVocab)
                throw ReefError(ErrorCode::CorruptModel, ranks_path + ":" + std::to_string(line_no) + ": rank " +
                                                             rank_str + " is out of range (the vocab limit is " +
                                                             std::to_string(limits::kMaxVocab) + " ids)");
        } catch (const ReefError&) {
            throw;
        } catch (const std::exception&) {
            throw ReefError(ErrorCode::CorruptModel, ranks_path + ":" + std::to_string(line_no) + ": bad rank " + rank_str);
        }
        if (!base64_decode(b64, bytes) || bytes.empty())
            throw ReefError(ErrorCode::CorruptModel, ranks_path + ":" + std::to_string(line_no) + ": bad base64 " + b64);
        tok->m_ranks[bytes] = rank;
        max_rank = std::max(max_rank, rank);
    }
    if (tok->m_ranks.empty()) throw ReefError(ErrorCode::CorruptModel, ranks_path + ": no ranks");
    if (tok->m_ranks.size() > size_t(limits::kMaxVocab))
        throw ReefError(ErrorCode::CorruptModel, ranks_path + ": " + std::to_string(tok->m_ranks.size()) +
                                                     " ranks, more than the vocab limit of " + std::to_string(limits::kMaxVocab));
    // tiktoken's Rust BPE panics on a missing single byte; refuse the file instead.
    for (int b = 0; b < 256; ++b)
        if (!tok->m_ranks.count(std::string(1, static_cast<char>(b))))
            throw ReefError(ErrorCode::CorruptModel, ranks_path + ": single byte " + std::to_string(b) + " has no rank");

    const std::vector<std::string> specials = read_special_list(special_tokens_path);
    const int32_t begin = static_cast<int32_t>(tok->m_ranks.size());
    int32_t max_id = max_rank;
    for (size_t i = 0; i < specials.size(); ++i) {
        const int32_t id = begin + static_cast<int32_t>(i);
        tok->m_special[specials[i]] = id;
        tok->m_specials.add(specials[i], id);
        max_id = std::max(max_id, id);
    }
    tok->m_id_to_bytes.assign(static_cast<size_t>(max_id + 1), std::string());
    for (const auto& [b, r] : tok->m_ranks) tok->m_id_to_bytes[r] = b;
    for (const auto& [s, id] : tok->m_special) tok->m_id_to_bytes[id] = s;
    tok->m_regex = std::make_unique<Pcre2Regex>(kFishTiktokenPattern, ranks_path);
    tok->init_special_ids();
    return tok;
}

void TiktokenTokenizer::encode_piece(std::string_view piece, std::vector<int32_t>& out) const {
    const std::string key(piece);
    if (auto it = m_ranks.find(key); it != m_ranks.end()) {
        out.push_back(it->second);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_cache_mutex);
        if (auto it = m_cache.find(key); it != m_cache.end()) {
            out.insert(out.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    std::vector<BpeSymbol> syms;
    syms.reserve(piece.size());
    for (size_t i = 0; i < piece.size(); ++i)
        syms.push_back({m_ranks.at(std::string(1, piece[i])), uint32_t(i), uint32_t(i + 1)});
    std::string scratch;
    std::vector<int32_t> ids = bpe_merge(std::move(syms), [&](const BpeSymbol& a, const BpeSymbol& b) -> std::optional<BpeMerge> {
        scratch.assign(piece.data() + a.begin, b.end - a.begin);
        auto it = m_ranks.find(scratch);
        if (it == m_ranks.end()) return std::nullopt;
        return BpeMerge{static_cast<uint32_t>(it->second), it->second};
    });
    out.insert(out.end(), ids.begin(), ids.end());
    std::lock_guard<std::mutex> lock(m_cache_mutex);
    if (m_cache.size() < kCacheCapacity) m_cache.emplace(key, std::move(ids));
}

std::vector<int32_t> TiktokenTokenizer::encode(const std::string& text) const {
    std::vector<int32_t> out;
    out.reserve(text.size() / 3 + 4);
    m_specials.split(
        text,
        [&](size_t b, size_t e) {
            const std::string_view stretch(text.data() + b, e - b);
            // The pattern covers every character, so isolated gaps only ever hold invalid UTF-8.
            m_regex->split_isolated(stretch, [&](size_t pb, size_t pe) { encode_piece(stretch.substr(pb, pe - pb), out); });
        },
        [&](int32_t id) { out.push_back(id); });
    return out;
}

std::string TiktokenTokenizer::decode(const std::vector<int32_t>& ids) const {
    std::string bytes;
    for (int32_t id : ids)
        if (id >= 0 && static_cast<size_t>(id) < m_id_to_bytes.size()) bytes += m_id_to_bytes[id];
    return utf8::make_valid(bytes);
}

int32_t TiktokenTokenizer::token_id(const std::string& token) const {
    if (auto it = m_special.find(token); it != m_special.end()) return it->second;
    if (auto it = m_ranks.find(token); it != m_ranks.end()) return it->second;
    return -1;
}

}  // namespace reef
