#include "topocast/io/atomic_file.h"

#include "topocast/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

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

} // namespace

fs::path makeTemporaryBeside(const fs::path& target, TemporaryKind kind)
{
    if (kind == TemporaryKind::Folder) {
        std::string path = temporaryTemplate(target);
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
