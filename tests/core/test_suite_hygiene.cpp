// The test suite itself: every test case that ctest registers must be one that runs.
// catch_discover_tests (CMake 3.25) splits a test name at ';' into two ctest entries whose specs
// match nothing; before `-w NoTests` those passed with zero tests run, so 18 core test cases had
// never run in ctest. No test name may contain ';' again. And every fuzz target is fuzzed by
// scripts/fuzz.sh and its corpus replayed in the normal build.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

TEST_CASE("no test case name contains a semicolon (ctest would split it into specs that match nothing)", "[suite]")
{
    namespace fs = std::filesystem;
    const fs::path tests = fs::path(TOPOCAST_SOURCE_DIR) / "tests";
    REQUIRE(fs::exists(tests));
    // TEST_CASE( followed by one or more adjacent string literals: the name.
    const std::regex name(R"re(TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+))re");
    std::size_t cases = 0;
    for (const auto& entry : fs::recursive_directory_iterator(tests)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpp")
            continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        for (std::sregex_iterator it(source.begin(), source.end(), name), end; it != end; ++it) {
            ++cases;
            INFO(entry.path().filename().string() << ": " << (*it)[1].str());
            CHECK((*it)[1].str().find(';') == std::string::npos);
        }
    }
    CHECK(cases > 250);
}

TEST_CASE("every fuzz target is built, fuzzed by scripts/fuzz.sh and replayed, with a seed corpus and a dictionary",
          "[suite][fuzz]")
{
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    auto read = [](const fs::path& p) {
        std::ifstream in(p);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    auto names = [](const std::string& text) {
        std::set<std::string> out;
        const std::regex word(R"(fuzz_[a-z_]+)");
        for (std::sregex_iterator it(text.begin(), text.end(), word), end; it != end; ++it)
            out.insert(it->str());
        return out;
    };
    std::set<std::string> sources;
    for (const auto& entry : fs::directory_iterator(root / "tests/fuzz"))
        if (entry.path().extension() == ".cpp" && entry.path().stem().string().rfind("fuzz_", 0) == 0)
            sources.insert(entry.path().stem().string());
    CHECK(sources.size() >= 6);
    // targets.cmake's list (the fuzz build and the corpus replay) and fuzz.sh's.
    const std::string cmake = read(root / "tests/fuzz/targets.cmake");
    const auto listStart = cmake.find("set(TOPOCAST_FUZZ_TARGETS");
    REQUIRE(listStart != std::string::npos);
    CHECK(names(cmake.substr(listStart, cmake.find(')', listStart) - listStart)) == sources);
    const std::string script = read(root / "scripts/fuzz.sh");
    std::smatch m;
    REQUIRE(std::regex_search(script, m, std::regex(R"(all_targets=\(([^)]*)\))")));
    CHECK(names(m[1].str()) == sources);
    for (const std::string& name : sources) {
        INFO(name);
        CHECK(fs::exists(root / "tests/fuzz/dict" / (name + ".dict")));
        const fs::path corpus = root / "tests/fuzz/corpus" / name;
        REQUIRE(fs::is_directory(corpus));
        CHECK(std::distance(fs::directory_iterator(corpus), fs::directory_iterator()) >= 5);
    }
}

TEST_CASE("no two test files of one program define a file-scope name twice (they share unity-build batches)",
          "[suite][unity]")
{
    // tests/CMakeLists.txt compiles each test program's files in unity batches: one file's
    // helper `build` or `errorOf` would clash with another's, or — with other parameter types —
    // quietly become an overload that the other file's calls might pick. Names of functions,
    // variables and types defined at the start of a line (outside raw strings) must be unique
    // per program.
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    const std::regex definition(R"(^(?:[\w:<>,*& ]+?)[ *&]+(\w+) ?(?:\(|=|\{|\[|;))");
    const std::regex type(R"(^(?:struct|class|enum class|enum) +(\w+))");
    const std::set<std::string> notNames{"if", "for", "while", "switch", "return", "operator", "sizeof"};
    for (const char* program : {"tests/core", "tests/app"}) {
        std::map<std::string, std::string> firstFile;
        std::size_t names = 0;
        for (const auto& entry : fs::directory_iterator(root / program)) {
            if (entry.path().extension() != ".cpp")
                continue;
            std::ifstream in(entry.path());
            bool inRawString = false;
            for (std::string line; std::getline(in, line);) {
                const auto opens = line.find("R\"");
                if (!inRawString && opens != std::string::npos && line.find(")\"", opens) == std::string::npos) {
                    inRawString = true;
                    continue;
                }
                if (inRawString) {
                    inRawString = line.find(")\"") == std::string::npos && line.find(")src\"") == std::string::npos;
                    continue;
                }
                if (line.empty() || std::string(" \t#/{}").find(line[0]) != std::string::npos ||
                    line.rfind("TEST_CASE", 0) == 0 || line.rfind("using", 0) == 0 || line.rfind("namespace", 0) == 0 ||
                    line.rfind("template", 0) == 0)
                    continue;
                std::smatch m;
                if (!std::regex_search(line, m, type) && !std::regex_search(line, m, definition))
                    continue;
                if (notNames.count(m[1].str()))
                    continue;
                ++names;
                const std::string file = entry.path().filename().string();
                const auto [it, added] = firstFile.emplace(m[1].str(), file);
                INFO(program << ": `" << m[1].str() << "` in " << it->second << " and " << file);
                CHECK((added || it->second == file));
            }
        }
        INFO(program);
        CHECK(names > 20); // the scan sees the helpers at all
    }
}

TEST_CASE("code and tests say why in their comments and names, not which issue asked for it", "[suite]")
{
    // An issue number means nothing to the next engineer once the issue is closed; the reason does.
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    const std::regex cite(R"(issues? #[0-9]+)", std::regex::icase);
    std::size_t files = 0;
    for (const char* dir : {"core", "app", "cli", "mpi", "shaders", "bench", "tests", "scripts"})
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() ||
                (ext != ".cpp" && ext != ".h" && ext != ".vert" && ext != ".frag" && ext != ".sh" && ext != ".cmake" &&
                 entry.path().filename() != "CMakeLists.txt"))
                continue;
            ++files;
            std::ifstream in(entry.path());
            int line = 0;
            for (std::string text; std::getline(in, text);) {
                ++line;
                INFO(fs::relative(entry.path(), root).string() << ":" << line << ": " << text);
                CHECK_FALSE(std::regex_search(text, cite));
            }
        }
    CHECK(files > 300);
}
