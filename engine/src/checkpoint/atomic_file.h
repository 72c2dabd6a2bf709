// Atomic file writing for checkpoint writers: bytes go to "<path>.part", which is fsync'ed and
// renamed over <path> only on commit(), so a crash or an exception never leaves a half-written
// checkpoint under the real name.
#pragma once
#include <cstddef>
#include <string>

namespace reef {

class AtomicFileWriter {
public:
    // Creates (truncates) path + ".part". Throws ReefError(Io) naming the file.
    explicit AtomicFileWriter(std::string path);
    // Removes the ".part" file unless commit() succeeded.
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    void write(const void* data, size_t n);
    size_t bytes_written() const { return m_written; }
    // fsync, close, rename "<path>.part" -> path.
    void commit();

private:
    std::string m_path;
    std::string m_part;
    int m_fd = -1;
    size_t m_written = 0;
    bool m_committed = false;
};

}  // namespace reef
