#include "topocast/io/atomic_file.h"

#include "topocast/model/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <csignal>
#include <random>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topocast {

namespace fs = std::filesystem;

namespace {

std::string reason(int err)
{
    return std::string(" (") + std::strerror(err) + ")";
}

fs::path folderOf(const fs::path& target)
{
    return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

/// "frames/" → "frames": the name a temporary is made from.
fs::path withoutTrailingSlash(const fs::path& target)
{
    return target.has_filename() ? target : target.parent_path();
}

/// The mkstemp / mkdtemp template beside `target`.
std::string temporaryTemplate(const fs::path& target)
{
    const fs::path clean = withoutTrailingSlash(target);
    std::string name = "."; // appended, not "." + …: GCC 12 -O3 warns falsely (-Wrestrict) on the latter
    name += clean.filename().string();
    name += ".tmp-XXXXXX";
    return (folderOf(clean) / name).string();
}

[[noreturn]] void cannotCreate(const fs::path& target, const char* what, int err)
{
    throw Error(target.string() + ": cannot create a temporary " + what + " in " +
                folderOf(withoutTrailingSlash(target)).string() + reason(err));
}

/// A new temporary file beside `target`, open for writing (mode 0644). Throws Error.
int createTemporaryFile(const fs::path& target, std::string& path)
{
    path = temporaryTemplate(target);
    const int fd = ::mkstemp(path.data());
    if (fd < 0)
        cannotCreate(target, "file", errno);
    ::fchmod(fd, 0644);
    return fd;
}

/// Writes all of `contents` to `fd`; false (errno set) on failure.
bool writeAll(int fd, std::string_view contents)
{
    const char* p = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

/// Renames the written, flushed, closed `temporary` over `target`, then makes the rename itself
/// durable (best effort: some file systems refuse fsync on folders). Throws Error.
void renameIntoPlace(const fs::path& temporary, const fs::path& target)
{
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(temporary.c_str());
        throw Error(target.string() + ": cannot replace the file" + reason(err) + "; the existing file is untouched");
    }
    const int fd = ::open(folderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

/// Removes ".NAME.tmp-PID-XXXXXX" folders beside `target` whose process PID no longer runs.
void removeAbandonedFolders(const fs::path& target)
{
    const fs::path clean = withoutTrailingSlash(target);
    const std::string prefix = "." + clean.filename().string() + ".tmp-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folderOf(clean), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec))
            continue;
        const std::string rest = name.substr(prefix.size());
        const std::size_t dash = rest.find('-');
        if (dash == std::string::npos || dash == 0)
            continue;
        const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            fs::remove_all(entry.path(), ec);
    }
}

} // namespace

PendingFile::PendingFile(fs::path target) : m_target(std::move(target))
{
#ifdef O_TMPFILE
    m_fd = ::open(folderOf(withoutTrailingSlash(m_target)).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#endif
    if (m_fd >= 0) {
        ::fchmod(m_fd, 0644);
        m_path = "/proc/self/fd/" + std::to_string(m_fd);
        return;
    }
    m_path = makeTemporaryBeside(m_target, TemporaryKind::File);
}

PendingFile::~PendingFile()
{
    discard();
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : m_target(std::move(other.m_target)), m_path(std::move(other.m_path)), m_fd(std::exchange(other.m_fd, -1))
{
    other.m_path.clear();
}

PendingFile& PendingFile::operator=(PendingFile&& other) noexcept
{
    if (this != &other) {
        discard();
        m_target = std::move(other.m_target);
        m_path = std::move(other.m_path);
        m_fd = std::exchange(other.m_fd, -1);
        other.m_path.clear();
    }
    return *this;
}

void PendingFile::discard() noexcept
{
    if (m_fd >= 0)
        ::close(m_fd); // an unnamed file vanishes with its last descriptor
    else if (!m_path.empty())
        ::unlink(m_path.c_str());
    m_fd = -1;
    m_path.clear();
}

void PendingFile::commit()
{
    if (m_path.empty())
        throw Error(m_target.string() + ": nothing to commit (the file was already committed or discarded)");
    if (m_fd < 0) {
        const fs::path named = std::exchange(m_path, {});
        commitTemporary(named, m_target);
        return;
    }
    // Give the unnamed file a hidden name (linkat through /proc needs no privilege, unlike
    // AT_EMPTY_PATH), then rename that over the target as for any temporary.
    const int fd = std::exchange(m_fd, -1);
    m_path.clear();
    ::fsync(fd);
    std::string named;
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
        named = temporaryTemplate(m_target);
        // mkstemp's XXXXXX without creating the file: linkat must create the name itself.
        static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        for (std::size_t i = named.size() - 6; i < named.size(); ++i)
            named[i] = letters[random() % (sizeof(letters) - 1)];
        const std::string proc = "/proc/self/fd/" + std::to_string(fd);
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named.c_str(), AT_SYMLINK_FOLLOW) == 0)
            break;
        if (errno != EEXIST) {
            const int err = errno;
            ::close(fd);
            throw Error(m_target.string() + ": cannot name the finished file" + reason(err) +
                        "; the existing file is untouched");
        }
        named.clear();
    }
    ::close(fd);
    if (named.empty())
        throw Error(m_target.string() +
                    ": cannot name the finished file (no free temporary name); the existing file is untouched");
    renameIntoPlace(named, m_target);
}

fs::path makeTemporaryBeside(const fs::path& target, TemporaryKind kind)
{
    if (kind == TemporaryKind::Folder) {
        removeAbandonedFolders(target);
        std::string path = temporaryTemplate(target);
        path.insert(path.size() - 6, std::to_string(::getpid()) + "-");
        if (!::mkdtemp(path.data()))
            cannotCreate(target, "folder", errno);
        return path;
    }
    std::string path;
    ::close(createTemporaryFile(target, path));
    return path;
}

void commitTemporary(const fs::path& temporary, const fs::path& target)
{
    // The data must be on disk before the rename makes it visible.
    const int fd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
    renameIntoPlace(temporary, target);
}

void writeFileAtomic(const fs::path& path, std::string_view contents)
{
    if (!path.has_filename())
        throw Error("cannot write '" + path.string() + "': it names no file");
    std::string temporary;
    const int fd = createTemporaryFile(path, temporary);
    auto fail = [&](const char* what, int err) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw Error(path.string() + ": " + what + reason(err) + "; the existing file is untouched");
    };
    if (!writeAll(fd, contents))
        fail("write failed", errno);
    if (::fsync(fd) != 0)
        fail("fsync failed", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temporary.c_str());
        throw Error(path.string() + ": close failed" + reason(err));
    }
    renameIntoPlace(temporary, path);
}

} // namespace topocast
