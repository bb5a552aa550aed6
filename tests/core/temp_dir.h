#pragma once
// A fresh folder for one test, shared by the core, video and app tests.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

namespace topocast::testing {

/// A new folder under the system temp folder, removed with everything in it (write permission
/// is given back first, so a test may leave it read-only).
struct TempDir {
    TempDir()
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "topocast-test-XXXXXX").string();
        REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
        path = tmpl;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// The names of the folder's entries.
    std::set<std::string> names() const
    {
        std::set<std::string> out;
        for (const auto& e : std::filesystem::directory_iterator(path))
            out.insert(e.path().filename().string());
        return out;
    }
    /// How many entries the folder has.
    std::size_t entries() const { return names().size(); }

    std::filesystem::path path;
};

} // namespace topocast::testing
