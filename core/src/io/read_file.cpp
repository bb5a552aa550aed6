#include "topocast/io/read_file.h"

#include "topocast/model/error.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topocast {

std::string readFileText(const std::filesystem::path& path, const ReadFileLimits& limits)
{
    const std::string name = path.string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(name + ": cannot open (" + std::strerror(errno) + ")");
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw Error(name + ": cannot read (" + std::strerror(errno) + ")");
    if (S_ISDIR(st.st_mode))
        throw Error(name + ": is a directory, not a " + std::string(limits.kind));
    std::string text;
    if (S_ISREG(st.st_mode)) {
        const auto size = static_cast<std::uint64_t>(st.st_size);
        if (limits.checkSize)
            limits.checkSize(size);
        if (size <= limits.maxBytes)
            text.reserve(static_cast<std::size_t>(size));
    }
    char buf[65536];
    while (true) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            throw Error(name + ": cannot read (" + std::strerror(errno) + ")");
        }
        if (got == 0)
            break;
        text.append(buf, static_cast<std::size_t>(got));
        if (text.size() > limits.maxBytes) {
            if (limits.whenPast)
                limits.whenPast();
            break;
        }
    }
    return text;
}

} // namespace topocast
