#include "checkpoint/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "check.h"

namespace reef {

namespace {

[[noreturn]] void fail_io(const std::string& what, const std::string& file) {
    throw ReefError(ErrorCode::Io, what + " '" + file + "': " + std::strerror(errno));
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path) : m_path(std::move(path)), m_part(m_path + ".part") {
    m_fd = ::open(m_part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) fail_io("cannot create", m_part);
}

AtomicFileWriter::~AtomicFileWriter() {
    if (m_fd >= 0) ::close(m_fd);
    if (!m_committed) ::unlink(m_part.c_str());
}

void AtomicFileWriter::write(const void* data, size_t n) {
    REEF_CHECK(m_fd >= 0, "AtomicFileWriter::write after commit");
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t k = ::write(m_fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            fail_io("cannot write", m_part);
        }
        p += k;
        n -= size_t(k);
        m_written += size_t(k);
    }
}

void AtomicFileWriter::commit() {
    REEF_CHECK(m_fd >= 0, "AtomicFileWriter::commit twice");
    if (::fsync(m_fd) != 0) fail_io("cannot fsync", m_part);
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0) fail_io("cannot close", m_part);
    if (std::rename(m_part.c_str(), m_path.c_str()) != 0) fail_io("cannot rename to", m_path);
    m_committed = true;
}

}  // namespace reef
