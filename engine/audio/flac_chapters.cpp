#include "audio/flac_chapters.h"

#include <FLAC/metadata.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "audio/audio_error.h"

namespace reef::audio {
namespace {

struct ChainDeleter {
    void operator()(FLAC__Metadata_Chain* c) const { FLAC__metadata_chain_delete(c); }
};
struct IteratorDeleter {
    void operator()(FLAC__Metadata_Iterator* i) const { FLAC__metadata_iterator_delete(i); }
};
using Chain = std::unique_ptr<FLAC__Metadata_Chain, ChainDeleter>;
using Iterator = std::unique_ptr<FLAC__Metadata_Iterator, IteratorDeleter>;

Chain read_chain(const std::string& path) {
    Chain chain(FLAC__metadata_chain_new());
    if (!chain) throw AudioError("chapters: out of memory");
    if (!FLAC__metadata_chain_read(chain.get(), path.c_str()))
        throw AudioError("cannot read the FLAC metadata of " + path + ": " +
                         FLAC__Metadata_ChainStatusString[FLAC__metadata_chain_status(chain.get())]);
    return chain;
}

// The chain's VORBIS_COMMENT block; nullptr when it has none.
FLAC__StreamMetadata* find_comments(FLAC__Metadata_Chain* chain, Iterator& it) {
    it.reset(FLAC__metadata_iterator_new());
    if (!it) throw AudioError("chapters: out of memory");
    FLAC__metadata_iterator_init(it.get(), chain);
    do {
        if (FLAC__metadata_iterator_get_block_type(it.get()) == FLAC__METADATA_TYPE_VORBIS_COMMENT)
            return FLAC__metadata_iterator_get_block(it.get());
    } while (FLAC__metadata_iterator_next(it.get()));
    return nullptr;
}

void append(FLAC__StreamMetadata* block, const std::string& name, const std::string& value) {
    FLAC__StreamMetadata_VorbisComment_Entry entry;
    if (!FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, name.c_str(), value.c_str()) ||
        !FLAC__metadata_object_vorbiscomment_append_comment(block, entry, /*copy=*/false))
        throw AudioError("chapters: cannot add the comment " + name);
}

}  // namespace

std::string chapter_timestamp(double seconds) {
    const long long ms = std::llround(std::max(0.0, seconds) * 1000.0);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%03lld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
                  ms % 1000);
    return buf;
}

void add_flac_chapters(const std::string& path, const std::vector<ChapterMark>& chapters) {
    if (chapters.empty()) return;
    if (chapters.size() > 999) throw AudioError("chapters: " + std::to_string(chapters.size()) + " marks; at most 999");
    Chain chain = read_chain(path);
    Iterator it;
    FLAC__StreamMetadata* block = find_comments(chain.get(), it);
    if (!block) {   // after the last block
        block = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT);
        while (FLAC__metadata_iterator_next(it.get())) {}
        if (!block || !FLAC__metadata_iterator_insert_block_after(it.get(), block)) {
            if (block) FLAC__metadata_object_delete(block);
            throw AudioError("chapters: cannot add a comment block to " + path);
        }
    }
    for (size_t k = 0; k < chapters.size(); ++k) {
        char key[32];
        std::snprintf(key, sizeof key, "CHAPTER%03zu", k + 1);
        append(block, key, chapter_timestamp(chapters[k].start_seconds));
        append(block, std::string(key) + "NAME", chapters[k].title);
    }
    // Padding absorbs the growth where it can; otherwise the file is rewritten (a temp file there).
    FLAC__metadata_chain_sort_padding(chain.get());
    if (!FLAC__metadata_chain_write(chain.get(), /*use_padding=*/true, /*preserve_file_stats=*/false))
        throw AudioError("cannot write the chapter marks into " + path + ": " +
                         FLAC__Metadata_ChainStatusString[FLAC__metadata_chain_status(chain.get())]);
}

std::vector<ChapterMark> read_flac_chapters(const std::string& path) {
    Chain chain = read_chain(path);
    Iterator it;
    const FLAC__StreamMetadata* block = find_comments(chain.get(), it);
    if (!block) return {};
    std::map<int, ChapterMark> by_number;
    const auto& vc = block->data.vorbis_comment;
    for (FLAC__uint32 i = 0; i < vc.num_comments; ++i) {
        const std::string c(reinterpret_cast<const char*>(vc.comments[i].entry), vc.comments[i].length);
        int n = 0, hh = 0, mm = 0, ss = 0, frac = 0, used = 0;
        if (std::sscanf(c.c_str(), "CHAPTER%3dNAME=%n", &n, &used) == 1 && used > 0) {
            by_number[n].title = c.substr(size_t(used));
        } else if (std::sscanf(c.c_str(), "CHAPTER%3d=%d:%d:%d.%d", &n, &hh, &mm, &ss, &frac) == 5) {
            by_number[n].start_seconds = hh * 3600.0 + mm * 60.0 + ss + frac / 1000.0;
        }
    }
    std::vector<ChapterMark> out;
    for (auto& [n, mark] : by_number) out.push_back(std::move(mark));
    return out;
}

}  // namespace reef::audio
