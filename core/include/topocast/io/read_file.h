#pragma once

// Reading a whole input file (schedule JSON or CSV, scenario, measured times) with a limit that
// holds for regular files (checked before reading) and for pipes and devices (while reading).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <string_view>

namespace topocast {

/// How readFileText limits one kind of file.
struct ReadFileLimits {
    /// What the file should be, for the error on a folder: "PATH: is a directory, not a <kind>".
    std::string_view kind;
    /// Called with a regular file's size before anything is read; throws Error to refuse it.
    /// May be empty.
    std::function<void(std::uint64_t bytes)> checkSize;
    /// Reading stops as soon as the text passes this many bytes, and `whenPast` is called: it
    /// throws, or returns and the text read so far (more than maxBytes) is returned — the caller
    /// then names where the limit was passed. Empty `whenPast`: the text is returned.
    std::uint64_t maxBytes = std::numeric_limits<std::uint64_t>::max();
    std::function<void()> whenPast;
};

/// The whole contents of `path` (a regular file, pipe or device), read with `limits`. Throws
/// Error naming the path: "PATH: cannot open (reason)", "PATH: cannot read (reason)",
/// "PATH: is a directory, not a <kind>", or whatever checkSize/whenPast throw. O(file size).
std::string readFileText(const std::filesystem::path& path, const ReadFileLimits& limits);

} // namespace topocast
