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
/// folder (the current folder when target has none; a trailing '/' on target is ignored, so
/// "frames/" gives ".frames.tmp-…"). The caller fills it, then hands a file to
/// commitTemporary or removes it. Throws Error ("TARGET: cannot create a temporary file in
/// FOLDER (reason)"); nothing is created then.
std::filesystem::path makeTemporaryBeside(const std::filesystem::path& target, TemporaryKind kind);

/// Puts the finished temporary file `temporary` (from makeTemporaryBeside, closed) in place of
/// `target`: flushes its data to disk, renames it over `target` in one step, then flushes the
/// folder (best effort: some file systems refuse fsync on folders). On failure removes
/// `temporary`, leaves `target` as it was, and throws Error naming `target`.
void commitTemporary(const std::filesystem::path& temporary, const std::filesystem::path& target);

/// Writes `contents` to `path` atomically: a temporary beside it, written and flushed, then
/// commitTemporary. On any failure the temporary is removed, `path` is untouched, and Error is
/// thrown naming `path` and the reason. O(contents).
void writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

} // namespace topocast
