// The one reader of whole input files (one of each helper): schedule JSON and
// CSV, scenarios and measured times all read through readFileText.
#include "temp_dir.h"

#include "topocast/io/read_file.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

using namespace topocast;

namespace {

std::string readError(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("readFileText: the whole file, or an error naming the path", "[io][read-file]")
{
    testing::TempDir dir;
    const auto file = dir.path / "a.csv";
    std::ofstream(file) << "step,from,to\n1,0,1\n";
    ReadFileLimits limits;
    limits.kind = "CSV file";
    CHECK(readFileText(file, limits) == "step,from,to\n1,0,1\n");
    CHECK(readError([&] { (void)readFileText(dir.path, limits); }) ==
          dir.path.string() + ": is a directory, not a CSV file");
    CHECK(readError([&] { (void)readFileText(dir.path / "none.csv", limits); }) ==
          (dir.path / "none.csv").string() + ": cannot open (No such file or directory)");
}

TEST_CASE("readFileText: a regular file's size is checked before reading, a stream's while reading", "[io][read-file]")
{
    testing::TempDir dir;
    const auto file = dir.path / "big.json";
    std::ofstream(file) << std::string(1000, 'x');
    ReadFileLimits limits;
    limits.kind = "JSON file";
    std::uint64_t seen = 0;
    limits.checkSize = [&](std::uint64_t bytes) {
        seen = bytes;
        if (bytes > 100)
            throw Error("too large: " + std::to_string(bytes));
    };
    CHECK(readError([&] { (void)readFileText(file, limits); }) == "too large: 1000");
    CHECK(seen == 1000);

    // /dev/zero never ends and has no size: the limit stops it as soon as the text passes it.
    limits.maxBytes = 100000;
    seen = 0;
    bool past = false;
    limits.whenPast = [&] { past = true; };
    const std::string zeros = readFileText("/dev/zero", limits);
    CHECK(seen == 0); // not a regular file: no size to check
    CHECK(past);
    CHECK(zeros.size() > 100000);
    CHECK(zeros.size() <= 100000 + 65536);
    limits.whenPast = [] { throw Error("past the limit"); };
    CHECK(readError([&] { (void)readFileText("/dev/zero", limits); }) == "past the limit");
}
