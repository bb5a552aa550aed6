#include "topocast/io/atomic_file.h"

#include "temp_dir.h"

#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace topocast;
using topocast::testing::TempDir;
namespace fs = std::filesystem;

namespace {

std::string contentsOf(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Lowers RLIMIT_FSIZE for one scope (SIGXFSZ ignored, so a write past it fails with EFBIG):
/// a write failure that root cannot override.
struct FileSizeLimit {
    explicit FileSizeLimit(rlim_t bytes)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_saved);
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit lower = m_saved;
        lower.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &lower);
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    struct rlimit m_saved {};
    void (*m_handler)(int) = SIG_DFL;
};

} // namespace

TEST_CASE("writeFileAtomic writes a new file, mode 0644, and leaves nothing else", "[atomic][io]")
{
    TempDir folder;
    const fs::path file = folder.path / "out.txt";
    writeFileAtomic(file, "hello\n");
    CHECK(contentsOf(file) == "hello\n");
    CHECK(folder.names() == std::set<std::string>{"out.txt"});
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0644);
    writeFileAtomic(folder.path / "empty.txt", "");
    CHECK(fs::file_size(folder.path / "empty.txt") == 0);
}

TEST_CASE("writeFileAtomic replaces an existing file in one rename", "[atomic][io]")
{
    GIVEN("an existing file that a reader holds open")
    {
        TempDir folder;
        const fs::path file = folder.path / "schedule.json";
        writeFileAtomic(file, "old contents");
        std::ifstream reader(file, std::ios::binary);
        REQUIRE(reader.good());
        struct stat before {};
        REQUIRE(::stat(file.c_str(), &before) == 0);

        WHEN("new contents are written over it")
        {
            writeFileAtomic(file, "new contents, longer than the old");

            THEN("the path shows the new file and the reader still reads the old one whole")
            {
                CHECK(contentsOf(file) == "new contents, longer than the old");
                std::ostringstream held;
                held << reader.rdbuf();
                CHECK(held.str() == "old contents");
                struct stat after {};
                REQUIRE(::stat(file.c_str(), &after) == 0);
                CHECK(after.st_ino != before.st_ino); // a new file renamed in, not the old one rewritten
                CHECK(folder.names() == std::set<std::string>{"schedule.json"});
            }
        }
    }
}

TEST_CASE("writeFileAtomic that fails leaves the old file and no temporary", "[atomic][io]")
{
    TempDir folder;
    const fs::path file = folder.path / "old.json";
    writeFileAtomic(file, "old");

    SECTION("a folder the process cannot write")
    {
        ::chmod(folder.path.c_str(), 0555);
        if (::access(folder.path.c_str(), W_OK) == 0) {
            WARN("running as root: chmod 0555 does not stop writes; the other sections fail the write in ways root "
                 "cannot override");
        } else {
            CHECK_THROWS_WITH(writeFileAtomic(file, "new"), file.string() + ": cannot create a temporary file in " +
                                                                folder.path.string() + " (Permission denied)");
        }
        ::chmod(folder.path.c_str(), 0755);
        CHECK(contentsOf(file) == "old");
    }
    SECTION("a write that fails half-way")
    {
        std::string message;
        {
            const FileSizeLimit limit(1024);
            try {
                writeFileAtomic(file, std::string(64 * 1024, 'x'));
            } catch (const Error& e) {
                message = e.what();
            }
        }
        CHECK(message == file.string() + ": write failed (File too large); the existing file is untouched");
        CHECK(contentsOf(file) == "old");
    }
    SECTION("a folder in the way of the rename")
    {
        fs::create_directories(folder.path / "taken" / "inside");
        CHECK_THROWS_WITH(writeFileAtomic(folder.path / "taken", "new"),
                          Catch::StartsWith((folder.path / "taken").string() + ": cannot replace the file (") &&
                              Catch::EndsWith("); the existing file is untouched"));
        CHECK(fs::is_directory(folder.path / "taken" / "inside"));
        fs::remove_all(folder.path / "taken");
    }
    CHECK(folder.names() == std::set<std::string>{"old.json"});
}

TEST_CASE("makeTemporaryBeside: hidden, unique, in the target's folder", "[atomic][io]")
{
    TempDir folder;
    const fs::path target = folder.path / "anim.mp4";

    const fs::path a = makeTemporaryBeside(target, TemporaryKind::File);
    const fs::path b = makeTemporaryBeside(target, TemporaryKind::File);
    CHECK(a != b);
    CHECK(a.parent_path() == folder.path);
    CHECK(a.filename().string().rfind(".anim.mp4.tmp-", 0) == 0);
    CHECK(fs::is_regular_file(a));
    CHECK(fs::file_size(a) == 0);

    // A trailing '/' names the folder itself: ".frames.tmp-…" beside it.
    const fs::path dir = makeTemporaryBeside(folder.path / "frames/", TemporaryKind::Folder);
    CHECK(fs::is_directory(dir));
    CHECK(dir.parent_path() == folder.path);
    CHECK(dir.filename().string().rfind(".frames.tmp-", 0) == 0);

    CHECK_THROWS_WITH(makeTemporaryBeside(folder.path / "missing" / "x.gif", TemporaryKind::File),
                      (folder.path / "missing" / "x.gif").string() + ": cannot create a temporary file in " +
                          (folder.path / "missing").string() + " (No such file or directory)");
    CHECK_THROWS_WITH(makeTemporaryBeside(folder.path / "missing" / "frames", TemporaryKind::Folder),
                      Catch::Contains("cannot create a temporary folder in " + (folder.path / "missing").string()));
    CHECK(folder.names().size() == 3);
}

TEST_CASE("commitTemporary puts a finished temporary in place or removes it", "[atomic][io]")
{
    TempDir folder;
    const fs::path target = folder.path / "anim.gif";
    writeFileAtomic(target, "old");

    SECTION("success: the target has the temporary's contents, the temporary is gone")
    {
        const fs::path tmp = makeTemporaryBeside(target, TemporaryKind::File);
        std::ofstream(tmp, std::ios::binary) << "GIF89a";
        commitTemporary(tmp, target);
        CHECK(contentsOf(target) == "GIF89a");
        CHECK(folder.names() == std::set<std::string>{"anim.gif"});
    }
    SECTION("failure: the temporary is removed and the target is left as it was")
    {
        const fs::path blocked = folder.path / "blocked";
        fs::create_directories(blocked / "inside");
        const fs::path tmp = makeTemporaryBeside(blocked, TemporaryKind::File);
        CHECK_THROWS_WITH(commitTemporary(tmp, blocked), Catch::StartsWith(blocked.string() + ": cannot replace"));
        CHECK(!fs::exists(tmp));
        CHECK(fs::is_directory(blocked / "inside"));
        fs::remove_all(blocked);
        CHECK(contentsOf(target) == "old");
        CHECK(folder.names() == std::set<std::string>{"anim.gif"});
    }
}
