#define PCRE2_CODE_UNIT_WIDTH 8
#include "text2semantic/tokenizer_regex.h"

#include <pcre2.h>

#include "check.h"
#include "input_limits.h"

namespace reef {

struct Pcre2Regex::Impl {
    pcre2_code* code = nullptr;
    // Match, depth and heap limits (limits.h): the pattern may come from a downloaded
    // tokenizer.json, and catastrophic backtracking must end in an error, not a hang. Read-only
    // after construction, so shared by concurrent encodes.
    pcre2_match_context* context = nullptr;
    std::string origin;
    // One match-data block per call: encode() is const and may run on several threads.
};

Pcre2Regex::Pcre2Regex(const std::string& pattern, const std::string& origin) : m_impl(std::make_unique<Impl>()) {
    int err = 0;
    PCRE2_SIZE err_offset = 0;
    const uint32_t options = PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
    m_impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &err,
                                 &err_offset, nullptr);
    if (!m_impl->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        throw ReefError(ErrorCode::CorruptModel, origin + ": pre-tokenizer regex does not compile at offset " +
                                                     std::to_string(err_offset) + ": " +
                                                     reinterpret_cast<const char*>(msg));
    }
    // JIT is an optimisation only: keep the interpreter when the platform has no JIT.
    (void)pcre2_jit_compile(m_impl->code, PCRE2_JIT_COMPLETE);
    m_impl->origin = origin;
    m_impl->context = pcre2_match_context_create(nullptr);
    REEF_CHECK(m_impl->context != nullptr, "pcre2_match_context_create failed");
    pcre2_set_match_limit(m_impl->context, limits::kRegexMatchLimit);
    pcre2_set_depth_limit(m_impl->context, limits::kRegexDepthLimit);
    pcre2_set_heap_limit(m_impl->context, limits::kRegexHeapLimitKiB);
}

Pcre2Regex::~Pcre2Regex() {
    if (m_impl && m_impl->context) pcre2_match_context_free(m_impl->context);
    if (m_impl && m_impl->code) pcre2_code_free(m_impl->code);
}

void Pcre2Regex::for_each_match(std::string_view text, const std::function<void(size_t, size_t)>& on_match) const {
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(m_impl->code, nullptr);
    REEF_CHECK(md != nullptr, "pcre2_match_data_create_from_pattern failed");
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    size_t pos = 0;
    while (pos <= text.size()) {
        const int rc = pcre2_match(m_impl->code, subject, text.size(), pos, 0, md, m_impl->context);
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) {
            pcre2_match_data_free(md);
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            const bool limit = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
                               rc == PCRE2_ERROR_JIT_STACKLIMIT;
            if (limit)
                throw ReefError(ErrorCode::CorruptModel,
                                m_impl->origin + ": the pre-tokenizer regex hit its match limit at byte " +
                                    std::to_string(pos) + " of the text (" + reinterpret_cast<const char*>(msg) +
                                    "); the pattern backtracks catastrophically",
                                "the tokenizer file is not a fish-speech tokenizer; re-download it");
            throw ReefError(ErrorCode::Internal, m_impl->origin + ": pcre2_match failed: " + reinterpret_cast<const char*>(msg));
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
        const size_t b = ov[0], e = ov[1];
        if (e > b) {
            on_match(b, e);
            pos = e;
        } else {
            // Empty match: step over one whole UTF-8 character (or one invalid byte).
            pos = b + 1;
            while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
        }
    }
    pcre2_match_data_free(md);
}

void Pcre2Regex::split_isolated(std::string_view text, const std::function<void(size_t, size_t)>& on_piece) const {
    size_t last = 0;
    for_each_match(text, [&](size_t b, size_t e) {
        if (b > last) on_piece(last, b);
        on_piece(b, e);
        last = e;
    });
    if (last < text.size()) on_piece(last, text.size());
}

}  // namespace reef
