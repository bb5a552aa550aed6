// core/ stays plain C++ (DEVELOPERS.md, STYLE.md habit 1): no file under core/ includes Qt.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

TEST_CASE("no file under core/ includes a Qt header", "[layout][no-qt]")
{
    namespace fs = std::filesystem;
    const fs::path core = fs::path(TOPOCAST_SOURCE_DIR) / "core";
    REQUIRE(fs::exists(core));
    const std::regex qtInclude(R"(^\s*#\s*include\s*[<"](Q[A-Za-z0-9]*|Qt[A-Za-z0-9]*/)[^>"]*[>"])");
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(core)) {
        if (!entry.is_regular_file())
            continue;
        ++files;
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            INFO(entry.path().string() << ":" << number << ": " << line);
            CHECK_FALSE(std::regex_search(line, qtInclude));
        }
    }
    CHECK(files > 10);
}
