#include "text2semantic/tokenizer_hf.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check.h"
#include "checkpoint/model_file.h"
#include "input_limits.h"
#include "text2semantic/tokenizer_nfc.h"
#include "text2semantic/tokenizer_utf8.h"

namespace reef {

namespace {

using json = nlohmann::json;

// GPT-2 ByteLevel's pre-tokenizer regex, used when a ByteLevel step has use_regex = true.
const char* kGpt2Pattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

constexpr size_t kCacheCapacity = 10000;  // as HF's BPE word cache

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
    throw ReefError(ErrorCode::CorruptModel, path + ": " + what);
}

std::string read_file(const std::string& path) {
    return read_model_text(path, limits::kMaxTokenizerFileBytes, "tokenizer");
}

bool is_null_or_empty_string(const json& j, const char* key) {
    if (!j.contains(key) || j[key].is_null()) return true;
    return j[key].is_string() && j[key].get<std::string>().empty();
}

}  // namespace

const std::array<char32_t, 256>& byte_level_alphabet() {
    // Printable Latin-1 bytes keep their code point; the other 68 bytes are numbered from U+0100 on.
    static const std::array<char32_t, 256> table = [] {
        std::array<char32_t, 256> t{};
        char32_t extra = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            t[b] = printable ? static_cast<char32_t>(b) : extra++;
        }
        return t;
    }();
    return table;
}

std::unique_ptr<HfBpeTokenizer> HfBpeTokenizer::load_file(const std::string& path) {
    const std::string text = read_file(path);
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        corrupt(path, std::string("not valid JSON: ") + e.what());
    }
    std::unique_ptr<HfBpeTokenizer> tok(new HfBpeTokenizer());
    tok->m_path = path;
    try {
        const json& model = root.at("model");
        if (model.contains("type") && model["type"] != "BPE")
            corrupt(path, "model.type is " + model["type"].dump() + ", only BPE is supported");
        if (!is_null_or_empty_string(model, "continuing_subword_prefix") ||
            !is_null_or_empty_string(model, "end_of_word_suffix"))
            corrupt(path, "model.continuing_subword_prefix / end_of_word_suffix are not supported");
        tok->m_ignore_merges = model.value("ignore_merges", false);

        int32_t max_id = -1;
        for (const auto& [token, id] : model.at("vocab").items()) {
            // Ids index tables sized max id + 1, so they are bounded before anything is sized by them.
            if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= limits::kMaxVocab)
                corrupt(path, "model.vocab: id " + id.dump() + " of " + token + " is out of range (0 to " +
                                  std::to_string(limits::kMaxVocab - 1) + ")");
            const int32_t v = id.get<int32_t>();
            tok->m_vocab[token] = v;
            max_id = std::max(max_id, v);
        }
        const json& merges = model.at("merges");
        for (size_t rank = 0; rank < merges.size(); ++rank) {
            std::string a, b;
            const json& m = merges[rank];
            if (m.is_string()) {
                const std::string s = m.get<std::string>();
                const size_t sp = s.find(' ');
                if (sp == std::string::npos || s.find(' ', sp + 1) != std::string::npos)
                    corrupt(path, "model.merges[" + std::to_string(rank) + "] is not \"a b\": " + s);
                a = s.substr(0, sp);
                b = s.substr(sp + 1);
            } else {
                if (!m.is_array() || m.size() != 2)
                    corrupt(path, "model.merges[" + std::to_string(rank) + "] is not a pair");
                a = m[0].get<std::string>();
                b = m[1].get<std::string>();
            }
            const auto ia = tok->m_vocab.find(a), ib = tok->m_vocab.find(b), iab = tok->m_vocab.find(a + b);
            if (ia == tok->m_vocab.end() || ib == tok->m_vocab.end() || iab == tok->m_vocab.end())
                corrupt(path, "model.merges[" + std::to_string(rank) + "] (" + a + " " + b + ") uses a token not in model.vocab");
            const uint64_t key = (uint64_t(uint32_t(ia->second)) << 32) | uint32_t(ib->second);
            tok->m_merges.emplace(key, BpeMerge{static_cast<uint32_t>(rank), iab->second});
        }

        // Added tokens: HF ignores the "id" field and keeps the vocab id when the content is in
        // model.vocab, else appends after the model (huggingface/tokenizers: added_vocabulary.rs).
        int32_t max_added = -1;
        const int32_t model_size = static_cast<int32_t>(tok->m_vocab.size());
        if (root.contains("added_tokens") && root["added_tokens"].is_array()) {
            if (root["added_tokens"].size() > size_t(limits::kMaxVocab))
                corrupt(path, "added_tokens: more than " + std::to_string(limits::kMaxVocab) + " entries");
            for (const json& at : root["added_tokens"]) {
                const std::string content = at.at("content").get<std::string>();
                int32_t id;
                if (auto it = tok->m_added.find(content); it != tok->m_added.end()) {
                    id = it->second;
                } else if (auto iv = tok->m_vocab.find(content); iv != tok->m_vocab.end()) {
                    id = iv->second;
                } else if (max_added < 0) {
                    id = model_size;
                } else {
                    id = max_added >= model_size ? max_added + 1 : model_size;
                }
                tok->m_added[content] = id;
                tok->m_specials.add(content, id);
                max_added = std::max(max_added, id);
                max_id = std::max(max_id, id);
            }
        }

        tok->m_id_to_token.assign(static_cast<size_t>(max_id + 1), std::string());
        tok->m_id_is_added.assign(static_cast<size_t>(max_id + 1), 0);
        for (const auto& [token, id] : tok->m_vocab) tok->m_id_to_token[id] = token;
        for (const auto& [token, id] : tok->m_added) {
            tok->m_id_to_token[id] = token;
            tok->m_id_is_added[id] = 1;
        }

        // Byte-level alphabet: vocab id of each byte's char, and the reverse table for decode.
        const auto& alphabet = byte_level_alphabet();
        tok->m_char_to_byte.fill(-1);
        for (int b = 0; b < 256; ++b) {
            std::string ch;
            utf8::append(ch, alphabet[b]);
            auto it = tok->m_vocab.find(ch);
            tok->m_byte_id[b] = it == tok->m_vocab.end() ? -1 : it->second;  // absent: dropped, as HF without unk
            tok->m_char_to_byte[alphabet[b]] = static_cast<int16_t>(b);
        }
        if (model.contains("unk_token") && model["unk_token"].is_string()) {
            auto it = tok->m_vocab.find(model["unk_token"].get<std::string>());
            if (it != tok->m_vocab.end())
                for (auto& id : tok->m_byte_id)
                    if (id < 0) id = it->second;
        }

        // Normalizer: none or NFC (alone or in a Sequence).
        const json norm = root.value("normalizer", json());
        auto check_norm = [&](const json& n) {
            const std::string type = n.at("type").get<std::string>();
            if (type != "NFC") corrupt(path, "normalizer type " + type + " is not supported (only NFC)");
            tok->m_nfc = true;
        };
        if (!norm.is_null()) {
            if (norm.at("type") == "Sequence") {
                for (const json& n : norm.at("normalizers")) check_norm(n);
            } else {
                check_norm(norm);
            }
        }

        // Pre-tokenizer: Split(regex, Isolated) and a ByteLevel step, in this order.
        const json pre = root.value("pre_tokenizer", json());
        std::vector<json> steps;
        if (!pre.is_null()) {
            if (pre.at("type") == "Sequence") {
                for (const json& p : pre.at("pretokenizers")) steps.push_back(p);
            } else {
                steps.push_back(pre);
            }
        }
        bool byte_level = false;
        std::string pattern;
        for (const json& p : steps) {
            const std::string type = p.at("type").get<std::string>();
            if (type == "Split") {
                if (byte_level || !pattern.empty()) corrupt(path, "pre_tokenizer: only one Split before ByteLevel is supported");
                if (p.value("behavior", std::string()) != "Isolated" || p.value("invert", false))
                    corrupt(path, "pre_tokenizer Split: only behavior Isolated, invert false is supported");
                const json& pat = p.at("pattern");
                if (pat.contains("Regex")) {
                    pattern = pat["Regex"].get<std::string>();
                } else {
                    pattern = "\\Q" + pat.at("String").get<std::string>() + "\\E";
                }
            } else if (type == "ByteLevel") {
                if (p.value("add_prefix_space", false)) corrupt(path, "pre_tokenizer ByteLevel add_prefix_space=true is not supported");
                if (p.value("use_regex", true)) {
                    if (!pattern.empty()) corrupt(path, "pre_tokenizer: Split followed by ByteLevel use_regex=true is not supported");
                    pattern = kGpt2Pattern;
                }
                byte_level = true;
            } else {
                corrupt(path, "pre_tokenizer type " + type + " is not supported");
            }
        }
        if (!byte_level) corrupt(path, "not a byte-level BPE: pre_tokenizer has no ByteLevel step");
        if (!pattern.empty()) tok->m_split = std::make_unique<Pcre2Regex>(pattern, path);
    } catch (const json::exception& e) {
        corrupt(path, std::string("malformed tokenizer.json: ") + e.what());
    }
    tok->init_special_ids();
    return tok;
}

void HfBpeTokenizer::encode_word(std::string_view piece, std::vector<int32_t>& out) const {
    const std::string key(piece);
    {
        std::lock_guard<std::mutex> lock(m_cache_mutex);
        if (auto it = m_cache.find(key); it != m_cache.end()) {
            out.insert(out.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    std::vector<int32_t> ids;
    bool whole = false;
    if (m_ignore_merges) {
        // ignore_merges: a word that is itself in the vocab is taken as is.
        std::string mapped;
        for (unsigned char c : piece) utf8::append(mapped, byte_level_alphabet()[c]);
        if (auto it = m_vocab.find(mapped); it != m_vocab.end()) {
            ids.push_back(it->second);
            whole = true;
        }
    }
    if (!whole) {
        std::vector<BpeSymbol> syms;
        syms.reserve(piece.size());
        for (size_t i = 0; i < piece.size(); ++i) {
            const int32_t id = m_byte_id[static_cast<unsigned char>(piece[i])];
            if (id >= 0) syms.push_back({id, uint32_t(i), uint32_t(i + 1)});
        }
        ids = bpe_merge(std::move(syms), [this](const BpeSymbol& a, const BpeSymbol& b) -> std::optional<BpeMerge> {
            auto it = m_merges.find((uint64_t(uint32_t(a.id)) << 32) | uint32_t(b.id));
            if (it == m_merges.end()) return std::nullopt;
            return it->second;
        });
    }
    out.insert(out.end(), ids.begin(), ids.end());
    std::lock_guard<std::mutex> lock(m_cache_mutex);
    if (m_cache.size() < kCacheCapacity) m_cache.emplace(key, std::move(ids));
}

std::vector<int32_t> HfBpeTokenizer::encode(const std::string& text) const {
    std::vector<int32_t> out;
    out.reserve(text.size() / 3 + 4);
    m_specials.split(
        text,
        [&](size_t b, size_t e) {
            std::string_view stretch(text.data() + b, e - b);
            std::string normalized;
            if (m_nfc) {
                normalized = nfc_normalize(stretch);
                stretch = normalized;
            }
            if (!m_split) {
                encode_word(stretch, out);
                return;
            }
            m_split->split_isolated(stretch, [&](size_t pb, size_t pe) { encode_word(stretch.substr(pb, pe - pb), out); });
        },
        [&](int32_t id) { out.push_back(id); });
    return out;
}

std::string HfBpeTokenizer::decode(const std::vector<int32_t>& ids) const {
    std::string bytes;
    for (int32_t id : ids) {
        if (id < 0 || static_cast<size_t>(id) >= m_id_to_token.size()) continue;  // unknown ids: skipped, as HF
        const std::string& tok = m_id_to_token[id];
        if (tok.empty()) continue;  // a gap in the vocab
        if (m_id_is_added[id]) {
            bytes += tok;
            continue;
        }
        // ByteLevel decoder: every char back to its byte; a token with a foreign char stays as is.
        std::string mapped;
        bool ok = true;
        for (size_t i = 0; i < tok.size();) {
            const int len = utf8::valid_sequence_length(tok, i);
            const char32_t cp = len > 0 ? utf8::decode_at(tok, i, len) : 0xFFFF;
            if (len == 0 || cp >= m_char_to_byte.size() || m_char_to_byte[cp] < 0) {
                ok = false;
                break;
            }
            mapped += static_cast<char>(m_char_to_byte[cp]);
            i += len;
        }
        bytes += ok ? mapped : tok;
    }
    return utf8::make_valid(bytes);
}

int32_t HfBpeTokenizer::token_id(const std::string& token) const {
    if (auto it = m_added.find(token); it != m_added.end()) return it->second;
    if (auto it = m_vocab.find(token); it != m_vocab.end()) return it->second;
    return -1;
}

}  // namespace reef
