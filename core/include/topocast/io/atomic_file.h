#pragma once

// Writing files so that a reader sees the old contents or the new, never a part: everything is
// written to a hidden temporary in the target's folder and renamed over the target at the end.

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace topocast {

/// What makeTemporaryBeside creates.
enum class TemporaryKind : std::uint8_t {
    File,   ///< an empty file, mode 0644 (exports are for sharing; mkstemp alone gives 0600)
    Folder, ///< an empty folder, mode 0700
};

/// Creates a hidden, uniquely named temporary beside `target`: ".NAME.tmp-XXXXXX" in target's
/// folder (a folder: ".NAME.tmp-PID-XXXXXX", and first removes the temporary folders beside
/// `target` whose process has died — a killed export leaves its frames behind only until the next
/// export to the same place) (the current folder when target has none; a trailing '/' on target is ignored, so
/// "frames/" gives ".frames.tmp-…"). The caller fills it, then hands a file to
/// commitTemporary or removes it. Throws Error ("TARGET: cannot create a temporary file in
/// FOLDER (reason)"); nothing is created then.
std::filesystem::path makeTemporaryBeside(const std::filesystem::path& target, TemporaryKind kind);

/// Puts the finished temporary file `temporary` (from makeTemporaryBeside, closed) in place of
/// `target`: flushes its data to disk, renames it over `target` in one step, then flushes the
/// folder (best effort: some file systems refuse fsync on folders). On failure removes
/// `temporary`, leaves `target` as it was, and throws Error naming `target`.
void commitTemporary(const std::filesystem::path& temporary, const std::filesystem::path& target);

/// A file being written for `target` that has no name until commit(): an unnamed file in target's
/// folder (Linux O_TMPFILE), so that a crash or SIGKILL at any moment before commit() leaves
/// nothing behind and `target` as it was. Where the folder's file system has no O_TMPFILE, a hidden
/// named temporary as makeTemporaryBeside makes. Movable, not copyable; discarded unless committed.
class PendingFile {
public:
    /// Throws Error ("TARGET: cannot create a temporary file in FOLDER (reason)").
    explicit PendingFile(std::filesystem::path target);
    ~PendingFile();
    PendingFile(PendingFile&& other) noexcept;
    PendingFile& operator=(PendingFile&& other) noexcept;
    PendingFile(const PendingFile&) = delete;
    PendingFile& operator=(const PendingFile&) = delete;

    /// A path that opens this file, for libraries that open files by name (FFmpeg's avio_open):
    /// "/proc/self/fd/N" for an unnamed file.
    const std::filesystem::path& path() const { return m_path; }
    /// Whether the file has no name (O_TMPFILE) rather than a hidden one.
    bool unnamed() const { return m_fd >= 0; }
    /// Flushes the data, gives the file a hidden name beside the target and renames it over the
    /// target (commitTemporary). Throws Error naming the target; the target is then untouched and
    /// the pending file discarded.
    void commit();
    /// Drops the file (nothing stays on disk). No-op after commit().
    void discard() noexcept;

private:
    std::filesystem::path m_target;
    std::filesystem::path m_path;
    int m_fd = -1; ///< the O_TMPFILE descriptor, or −1 with a named temporary at m_path
};

/// Writes `contents` to `path` atomically: a temporary beside it, written and flushed, then
/// commitTemporary. On any failure the temporary is removed, `path` is untouched, and Error is
/// thrown naming `path` and the reason. O(contents).
void writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

} // namespace topocast
