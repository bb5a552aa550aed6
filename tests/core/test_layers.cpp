// Core's folders are its layers, so the tree reads like the architecture (docs/ARCHITECTURE.md):
// text (numbers and durations for people) and model (the network, routes, schedules, ids) at the
// bottom, then the algorithms, the analyses of schedules, the drawing maths, the scenario (what a
// user asks for, and what follows from it without a file), and io (files in and out) on top. A file includes only its
// own layer and the layers below; the one exception is named here with its reason, so a new one is a decision, not an
// accident.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// Each layer and the layers it may include.
const std::map<std::string, std::set<std::string>>& allowedLayers()
{
    static const std::map<std::string, std::set<std::string>> allowed = {
        {"text", {"text"}},
        {"model", {"text", "model"}},
        {"algorithms", {"text", "model", "algorithms"}},
        {"analysis", {"text", "model", "algorithms", "analysis"}},
        {"drawing", {"text", "model", "algorithms", "analysis", "drawing"}},
        {"scenario", {"text", "model", "algorithms", "analysis", "drawing", "scenario"}},
        {"io", {"text", "model", "algorithms", "analysis", "drawing", "scenario", "io"}},
    };
    return allowed;
}

/// Includes that run against the layers, each with why it stays.
const std::map<std::string, std::string>& knownExceptions()
{
    static const std::map<std::string, std::string> exceptions = {
        // The scatter reports how much its routes contend, counted by the one metrics code rather
        // than by a second count inside the algorithm.
        {"core/src/algorithms/divisible_load_schedule.cpp -> topocast/analysis/metrics.h", "contention figures"},
    };
    return exceptions;
}

} // namespace

TEST_CASE("core's folders are layers: each includes only its own and the ones below", "[suite][layers]")
{
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    const std::regex include(R"re(^\s*#\s*include\s*[<"]topocast/([a-z_]+)/)re");
    std::size_t files = 0, includes = 0;
    std::set<std::string> exceptionsSeen;
    for (const fs::path& base : {root / "core" / "src", root / "core" / "include" / "topocast"}) {
        for (const auto& entry : fs::recursive_directory_iterator(base)) {
            if (!entry.is_regular_file())
                continue;
            const fs::path relative = fs::relative(entry.path(), base);
            const std::string layer = relative.begin()->string();
            INFO(fs::relative(entry.path(), root).string());
            if (std::distance(relative.begin(), relative.end()) == 1) {
                // Only the generated version header's template sits above the layers.
                CHECK(relative.string() == "version.h.in");
                continue;
            }
            REQUIRE(allowedLayers().count(layer) == 1); // every file lives in a layer
            ++files;
            std::ifstream in(entry.path());
            for (std::string line; std::getline(in, line);) {
                std::smatch m;
                if (!std::regex_search(line, m, include))
                    continue;
                ++includes;
                const std::string target = m[1].str();
                if (target == "version.h" || allowedLayers().at(layer).count(target))
                    continue;
                const std::string path = fs::relative(entry.path(), root).generic_string();
                const std::string key =
                    path + " -> " + line.substr(line.find("topocast/"), line.rfind(".h") + 2 - line.find("topocast/"));
                INFO("layer " << layer << " includes " << target << ": " << line);
                CHECK(knownExceptions().count(key) == 1);
                exceptionsSeen.insert(key);
            }
        }
    }
    CHECK(files > 100);
    CHECK(includes > 250);
    // An exception that no longer happens is taken off the list.
    CHECK(exceptionsSeen.size() == knownExceptions().size());
}

namespace {

/// The C++ files below `dir` (whose first folder below it is not `skipFolder`) that mention
/// nlohmann, as "path:line: text"; `seen` counts the files read.
std::vector<std::string> mentionsOfNlohmann(const std::filesystem::path& dir, const std::string& skipFolder,
                                            std::size_t& seen)
{
    namespace fs = std::filesystem;
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h") ||
            fs::relative(entry.path(), dir).begin()->string() == skipFolder)
            continue;
        ++seen;
        std::ifstream in(entry.path());
        int number = 0;
        for (std::string line; std::getline(in, line);)
            if (++number; line.find("nlohmann") != std::string::npos)
                found.push_back(fs::relative(entry.path(), dir).generic_string() + ":" + std::to_string(number) + ": " +
                                line);
    }
    return found;
}

} // namespace

TEST_CASE("core's public headers include nlohmann only in io/", "[suite][layers]")
{
    std::size_t seen = 0;
    CHECK(mentionsOfNlohmann(std::filesystem::path(TOPOCAST_SOURCE_DIR) / "core" / "include" / "topocast", "io",
                             seen) == std::vector<std::string>{});
    CHECK(seen > 40);
}

TEST_CASE("the app includes no JSON library: files are read and written in core's io/", "[suite][layers]")
{
    std::size_t seen = 0;
    CHECK(mentionsOfNlohmann(std::filesystem::path(TOPOCAST_SOURCE_DIR) / "app", "", seen) ==
          std::vector<std::string>{});
    CHECK(seen > 100);
}

namespace {

/// Whether `file` includes nlohmann, directly or through the project's own headers (core's public
/// headers, the app's and the command line's, each from its folder's root or beside the file).
bool reachesNlohmann(const std::filesystem::path& file, const std::filesystem::path& root,
                     std::map<std::string, bool>& seen)
{
    namespace fs = std::filesystem;
    const std::string key = fs::weakly_canonical(file).string();
    if (const auto it = seen.find(key); it != seen.end())
        return it->second;
    seen[key] = false; // an include cycle ends here
    static const std::regex include(R"re(^\s*#\s*include\s*[<"]([^>"]+)[>"])re");
    std::ifstream in(file);
    bool found = false;
    for (std::string line; !found && std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, include))
            continue;
        const std::string target = m[1].str();
        found = target.rfind("nlohmann/", 0) == 0;
        for (const fs::path& candidate : {root / "core" / "include" / target, root / "app" / target,
                                          root / "cli" / target, file.parent_path() / target})
            if (!found && fs::is_regular_file(candidate)) {
                found = reachesNlohmann(candidate, root, seen);
                break;
            }
    }
    seen[key] = found;
    return found;
}

} // namespace

TEST_CASE("no app source compiles a JSON library, not even through core's headers", "[suite][layers]")
{
    // The scenario and its pipeline are core's (scenario/), its file io/'s: a scenario file is
    // read and written in core (io/scenario_file.h has no JSON in it), so the app needs none.
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    std::map<std::string, bool> seen;
    std::vector<std::string> reaching;
    std::size_t sources = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root / "app")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpp")
            continue;
        ++sources;
        if (reachesNlohmann(entry.path(), root, seen))
            reaching.push_back(fs::relative(entry.path(), root).generic_string());
    }
    CHECK(reaching == std::vector<std::string>{});
    CHECK(sources > 60);
}

TEST_CASE("the app's folders are layers too: each includes only its own and the folders below, Qt3D only in scene/ "
          "and the main window only in the root",
          "[suite][layers]")
{
    // From the bottom: the bridge to core and the files it writes (session/), the colour rules,
    // legends and glyphs (style/), the words (words/: narration, titles, status lines), then the
    // widgets and views, the exports, the window's helpers, start-up (launch/), the app's own
    // commands (cli/) and the root (main.cpp, mainwindow.*). video/ is a target of its own.
    namespace fs = std::filesystem;
    const std::vector<std::string> folders = {"session",  "style",  "words",  "timeline", "scene", "panels", "compare",
                                              "practice", "export", "window", "launch",   "cli",   ""};
    const fs::path app = fs::path(TOPOCAST_SOURCE_DIR) / "app";
    const std::regex include(R"re(^\s*#\s*include\s*"([a-z]+)/[^"]+")re");
    std::vector<std::string> upward, qt3d;
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(app)) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
            continue;
        const fs::path relative = fs::relative(entry.path(), app);
        const std::string folder =
            std::distance(relative.begin(), relative.end()) == 1 ? std::string() : relative.begin()->string();
        const auto at = std::find(folders.begin(), folders.end(), folder);
        if (at == folders.end())
            continue; // video/, tools/
        ++files;
        std::ifstream in(entry.path());
        int number = 0;
        for (std::string line; std::getline(in, line);) {
            ++number;
            std::smatch m;
            const auto target = std::regex_search(line, m, include)
                                    ? std::find(folders.begin(), folders.end(), m[1].str())
                                    : folders.end();
            if (target != folders.end() && target > at)
                upward.push_back(relative.generic_string() + ":" + std::to_string(number) + ": " + line);
            if (folder != "scene" && line.find("Qt3D") != std::string::npos &&
                line.find("#include") != std::string::npos)
                qt3d.push_back(relative.generic_string() + ":" + std::to_string(number) + ": " + line);
            // The window's helpers reach its parts (window/windowparts.h) and the workspace says
            // what is shown: none includes the main window or asks whether it compares.
            if ((!folder.empty() && line.find("mainwindow.h") != std::string::npos) ||
                line.find("compareMode") != std::string::npos)
                upward.push_back(relative.generic_string() + ":" + std::to_string(number) + ": " + line);
        }
    }
    CHECK(upward == std::vector<std::string>{});
    CHECK(qt3d == std::vector<std::string>{});
    CHECK(files > 120);
}

namespace {

/// The data members each class or struct of `source` declares directly (nested types count on
/// their own), by a line scanner fit for this code base's style: one declaration per line, comments
/// and string literals not containing braces or semicolons that matter.
std::map<std::string, int> dataMembersPerClass(const std::string& source)
{
    static const std::regex opens(R"(^\s*(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(?:\[\[\w+\]\]\s*)?(\w+)[^;]*$)");
    static const std::regex notData(
        R"(^\s*(?:using|friend|static|typedef|enum|struct|class|template|return|Q_OBJECT|Q_PROPERTY|public|private|protected|signals|explicit|virtual|~|//|/\*|\*))");
    std::map<std::string, int> counts;
    struct Open {
        std::string name; // empty: a brace that is not a class body
        int depth;
    };
    std::vector<Open> stack;
    int depth = 0;
    std::string pendingName;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) {
        const std::string code = line.substr(0, line.find("//"));
        std::smatch m;
        if (std::regex_search(code, m, opens))
            pendingName = m[1].str();
        const bool inClassBody = !stack.empty() && !stack.back().name.empty() && depth == stack.back().depth + 1;
        const std::size_t first = code.find_first_not_of(" \t");
        const bool closes = first != std::string::npos && code[first] == '}';
        if (inClassBody && pendingName.empty() && !closes && code.find(';') != std::string::npos &&
            !std::regex_search(code, notData)) {
            const std::string head = code.substr(0, code.find_first_of("={;"));
            if (head.find('(') == std::string::npos && head.find("operator") == std::string::npos) {
                // Declarators: commas outside <…>, (…) and {…} up to the ';' ("int a = 0, b = 1;").
                int nesting = 0, declarators = 1;
                for (char c : code.substr(0, code.find(';'))) {
                    nesting += (c == '<' || c == '(' || c == '{') ? 1 : (c == '>' || c == ')' || c == '}') ? -1 : 0;
                    declarators += c == ',' && nesting == 0;
                }
                counts[stack.back().name] += declarators;
            }
        }
        for (char c : code) {
            if (c == '{') {
                stack.push_back({pendingName, depth});
                if (!pendingName.empty())
                    counts.emplace(pendingName, 0);
                pendingName.clear();
                ++depth;
            } else if (c == '}') {
                --depth;
                if (!stack.empty())
                    stack.pop_back();
            } else if (c == ';') {
                pendingName.clear(); // a forward declaration
            }
        }
    }
    return counts;
}

} // namespace

TEST_CASE("the data-member scanner counts what a class holds", "[suite][layers]")
{
    const auto counts = dataMembersPerClass(R"(
class Widget : public QObject {
    Q_OBJECT
public:
    explicit Widget(QObject* parent = nullptr);
    int size() const { return m_size; }
    struct Part {
        int a = 0, b = 1;
        std::map<int, int> c;
    };
signals:
    void changed();
private:
    int m_size = 0;
    std::vector<Part> m_parts;  // the parts; see size()
    QPoint m_press, m_last;
    static constexpr int kMax = 3;
    friend class Other;
};
class Forward;
)");
    CHECK(counts.at("Widget") == 4);
    CHECK(counts.at("Part") == 3);
    CHECK(counts.count("Forward") == 0);
}

TEST_CASE("no class in core/, app/, cli/ or mpi/ holds more than 30 data members", "[suite][layers]")
{
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    std::size_t classes = 0;
    for (const char* dir : {"core", "app", "cli", "mpi"})
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp"))
                continue;
            std::ifstream in(entry.path());
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            for (const auto& [name, members] : dataMembersPerClass(text)) {
                ++classes;
                INFO(fs::relative(entry.path(), root).generic_string()
                     << ": " << name << " holds " << members << " data members; group them into values");
                CHECK(members <= 30);
            }
        }
    CHECK(classes > 200);
}

namespace {

/// The public members a class declares in `header` (its public:, public slots: and signals:
/// sections; one per declaration line at the class's own indentation; nested types and their
/// members not counted).
std::vector<std::string> publicMembers(const std::string& header, const std::string& name)
{
    std::vector<std::string> members;
    const std::size_t at = header.find("class " + name + " ");
    if (at == std::string::npos)
        return members;
    std::istringstream in(header.substr(at));
    std::string line;
    std::getline(in, line); // the class line
    bool pub = false;
    const std::regex decl(R"(^    (?:static\s+|explicit\s+|virtual\s+|using\s+)?.*?\b(~?\w+)\s*(\(|=|;))");
    while (std::getline(in, line)) {
        if (line.rfind("};", 0) == 0)
            break;
        const std::string t = line.substr(std::min(line.find_first_not_of(' '), line.size()));
        if (t.rfind("public:", 0) == 0 || t.rfind("public slots:", 0) == 0 || t.rfind("signals:", 0) == 0) {
            pub = true;
            continue;
        }
        if (t.rfind("private", 0) == 0 || t.rfind("protected", 0) == 0) {
            pub = false;
            continue;
        }
        std::smatch m;
        if (pub && t.rfind("//", 0) != 0 && t.rfind("}", 0) != 0 && t.rfind("return", 0) != 0 &&
            line.rfind("        ", 0) != 0 && std::regex_search(line, m, decl))
            members.push_back(m[1]);
    }
    return members;
}

} // namespace

TEST_CASE("the 3-D view is one class in two files with at most 30 public members", "[suite][layers]")
{
    // SceneView draws a frame and hands its concerns to its parts (camera, shape, labels,
    // messages, input, capture), each a class of its own: the view's own code stays in
    // sceneview.h and sceneview.cpp, and its public face small enough to read in one sitting.
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    std::ifstream header(root / "app/scene/sceneview.h");
    const std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
    const std::vector<std::string> members = publicMembers(text, "SceneView");
    INFO("SceneView's public members: " << members.size());
    CHECK(members.size() >= 20); // the scanner still finds them
    CHECK(members.size() <= 30);

    std::set<std::string> files;
    const std::regex definition(R"(^[\w:<>,*& ]*\bSceneView::~?\w+\()");
    for (const auto& entry : fs::recursive_directory_iterator(root / "app")) {
        if (!entry.is_regular_file())
            continue;
        std::ifstream in(entry.path());
        for (std::string line; std::getline(in, line);)
            if (std::regex_search(line, definition))
                files.insert(fs::relative(entry.path(), root).generic_string());
    }
    std::string where;
    for (const std::string& f : files)
        where += f + " ";
    INFO("SceneView's code in " << where);
    CHECK(files == std::set<std::string>{"app/scene/sceneview.cpp"});
}

TEST_CASE("the public-member scanner counts declarations and not nested ones", "[suite][layers]")
{
    const auto members = publicMembers(R"(
class View : public QObject {
    Q_OBJECT
public:
    explicit View(QObject* parent = nullptr);
    int size() const { return m_size; }
    /// A comment.
    void setSize(int size,
                 bool animate);
public slots:
    void reset();
signals:
    void changed();
private:
    void helper();
    int m_size = 0;
};
)",
                                       "View");
    CHECK(members == std::vector<std::string>{"View", "size", "setSize", "reset", "changed"});
}
