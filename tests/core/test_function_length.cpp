// No function in core/, app/ or cli/ is over 120 lines. Measured here with a
// small brace-counting scanner rather than ctags (CI installs no ctags; scripts/install-deps.sh):
// comments, string and character literals (raw strings included) and preprocessor lines are
// blanked, then every '{' whose head — the text since the previous ';', '{' or '}' — ends in ')'
// (optionally followed by const, noexcept, override, final, mutable or a trailing return type)
// and that no other function body encloses opens a function body. Namespaces, classes and enums
// are looked into, so member functions defined in a class body count too; lambdas and control
// statements inside a function belong to it. Good enough for this code base's style; the scanner
// checks itself by ending every file at brace depth 0.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kMaxFunctionLines = 120;

struct FunctionSpan {
    std::string head;  ///< the signature's last line, trimmed (for messages)
    int firstLine = 0; ///< 1-based line where the signature starts
    int lastLine = 0;  ///< line of the closing brace
    int lines() const { return lastLine - firstLine + 1; }
};

/// `source` with comments, literals and preprocessor lines replaced by spaces (newlines kept).
std::string blanked(const std::string& source)
{
    std::string out = source;
    std::size_t i = 0;
    bool lineStart = true;
    auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to && k < out.size(); ++k)
            if (out[k] != '\n')
                out[k] = ' ';
    };
    while (i < source.size()) {
        const char c = source[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // a preprocessor line, with its continuations
            std::size_t end = i;
            while (end < source.size() && source[end] != '\n')
                end = (source[end] == '\\' && end + 1 < source.size()) ? end + 2 : end + 1;
            blank(i, end);
            i = end;
            continue;
        }
        if (c != ' ' && c != '\t')
            lineStart = false;
        if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
            const std::size_t end = std::min(source.find('\n', i), source.size());
            blank(i, end);
            i = end;
        } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
            const std::size_t close = source.find("*/", i + 2);
            const std::size_t end = close == std::string::npos ? source.size() : close + 2;
            blank(i, end);
            i = end;
        } else if (c == 'R' && i + 1 < source.size() && source[i + 1] == '"' &&
                   (i == 0 || !(std::isalnum(static_cast<unsigned char>(source[i - 1])) || source[i - 1] == '_'))) {
            const std::size_t open = source.find('(', i + 2);
            const std::string closing = ")" + source.substr(i + 2, open - (i + 2)) + "\"";
            const std::size_t close = source.find(closing, open);
            const std::size_t end = close == std::string::npos ? source.size() : close + closing.size();
            blank(i, end);
            i = end;
        } else if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1]))))) {
            // A string or character literal (a ' after a hex digit is a digit separator: 1'000).
            std::size_t end = i + 1;
            while (end < source.size() && source[end] != c && source[end] != '\n')
                end += source[end] == '\\' ? 2 : 1;
            blank(i, end + 1);
            i = end + 1;
        } else {
            ++i;
        }
    }
    return out;
}

int lineOf(const std::string& text, std::size_t pos)
{
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

/// Does the text before a '{' (since the previous ';', '{' or '}') end a function's signature?
bool opensFunction(const std::string& head)
{
    static const std::regex signature(
        R"(\)\s*(?:(?:const|noexcept|override|final|mutable)\b\s*)*(?:->\s*[\w:<>,\s*&]+)?\s*$)");
    // A constructor's member initializers end in ')' or '}': Thing(int b) : m_a(0), m_b{b}
    static const std::regex constructor(R"(\)\s*:[^;]*[)}]\s*$)");
    return head.find('(') != std::string::npos &&
           (std::regex_search(head, signature) || std::regex_search(head, constructor));
}

/// Is the '{' after `head` one inside an expression (a default argument `= {}`) or a
/// constructor's member initializer (`: m_a(a), m_b{b}`)? Its '}' does not end the head.
bool initializerBrace(const std::string& head)
{
    static const std::regex memberInit(R"(\)\s*:[^;]*\w\s*$)");
    return std::count(head.begin(), head.end(), '(') > std::count(head.begin(), head.end(), ')') ||
           std::regex_search(head, memberInit);
}

/// Where the signature in `head` starts: past blanks, access specifiers and Q_OBJECT.
std::size_t signatureStart(const std::string& head)
{
    static const std::regex prefix(
        R"(^\s*(?:(?:(?:public|private|protected)(?:\s+(?:slots|Q_SLOTS))?|signals|Q_SIGNALS)\s*:|Q_OBJECT\b))");
    std::size_t at = 0;
    std::smatch m;
    std::string rest = head;
    while (std::regex_search(rest, m, prefix) && m.length(0) > 0) {
        at += static_cast<std::size_t>(m.length(0));
        rest = head.substr(at);
    }
    const std::size_t first = head.find_first_not_of(" \t\n\r", at);
    return first == std::string::npos ? at : first;
}

/// The function bodies in `source` that no other function body encloses. `error` is set when the
/// braces do not balance (the scanner lost its way).
std::vector<FunctionSpan> functionSpans(const std::string& source, std::string& error)
{
    enum class Brace { Container, Function, Initializer };
    struct Open {
        Brace kind;
        std::size_t headStart; // restored when an initializer brace closes
    };
    const std::string code = blanked(source);
    std::vector<FunctionSpan> spans;
    std::vector<Open> stack;
    bool inFunction = false;
    std::size_t headStart = 0;
    FunctionSpan current;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (c == ';') {
            headStart = i + 1;
        } else if (c == '{') {
            const std::string head = code.substr(headStart, i - headStart);
            Brace kind = Brace::Container;
            if (!inFunction && initializerBrace(head))
                kind = Brace::Initializer;
            else if (!inFunction && opensFunction(head))
                kind = Brace::Function;
            stack.push_back(Open{kind, headStart});
            if (kind == Brace::Initializer)
                continue;
            if (kind == Brace::Function) {
                const std::size_t start = headStart + signatureStart(head);
                current = FunctionSpan{};
                current.firstLine = lineOf(code, start);
                const std::size_t lastNl = code.find_last_of('\n', code.find_last_not_of(" \t\n\r", i - 1));
                const std::size_t from = lastNl == std::string::npos || lastNl < start ? start : lastNl + 1;
                std::string last = source.substr(from, i - from);
                last.erase(0, last.find_first_not_of(" \t"));
                last.erase(last.find_last_not_of(" \t\n\r") + 1);
                current.head = last.substr(0, 100);
                inFunction = true;
            }
            headStart = i + 1;
        } else if (c == '}') {
            if (stack.empty()) {
                error = "a '}' at line " + std::to_string(lineOf(code, i)) + " closes nothing";
                return spans;
            }
            const Open open = stack.back();
            stack.pop_back();
            if (open.kind == Brace::Initializer) {
                headStart = open.headStart;
                continue;
            }
            if (open.kind == Brace::Function) {
                current.lastLine = lineOf(code, i);
                spans.push_back(current);
                inFunction = false;
            }
            headStart = i + 1;
        }
    }
    if (!stack.empty())
        error = std::to_string(stack.size()) + " '{' never closed";
    return spans;
}

std::string sourceText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("the function-length scanner finds function bodies and only those", "[suite][function-length]")
{
    const std::string source = R"src(#include <string>
// a comment { with a brace
namespace ns {

namespace {
int helper(int x)
{
    const char* s = "}{";
    char c = '{';
    auto f = [&](int y) { return y + x; };
    if (x > 0) {
        return f(1);
    }
    return c + s[0];
}
} // namespace

class Thing {
public:
    Thing(int a, int b) : m_a(a), m_b{b} {}
    int sum() const
    {
        return m_a + m_b; /* } */
    }
    auto twice() const -> int { return 2 * sum(); }

private:
    int m_a = 0;
    int m_b{0};
};

enum Colour { Red, Green };
const std::string raw = R"x(a raw string with { and "quotes")x";

template <class F>
void apply(F&& f,
           int times)
{
#define OPEN {
    for (int i = 0; i < times; ++i) { f(i); }
}

} // namespace ns
)src";
    std::string error;
    const std::vector<FunctionSpan> spans = functionSpans(source, error);
    CHECK(error.empty());
    for (const FunctionSpan& f : spans)
        UNSCOPED_INFO(f.firstLine << "-" << f.lastLine << ": " << f.head);
    REQUIRE(spans.size() == 5);
    CHECK(spans[0].firstLine == 6); // int helper(int x)
    CHECK(spans[0].lastLine == 15);
    CHECK(spans[0].head == "int helper(int x)");
    CHECK(spans[1].firstLine == 20); // Thing(int a, int b) : m_a(a), m_b{b} {}
    CHECK(spans[1].lastLine == 20);
    CHECK(spans[1].head == "Thing(int a, int b) : m_a(a), m_b{b}");
    CHECK(spans[2].firstLine == 21); // int sum() const
    CHECK(spans[2].lastLine == 24);
    CHECK(spans[3].firstLine == 25); // auto twice() const -> int
    CHECK(spans[3].lastLine == 25);
    CHECK(spans[4].firstLine == 35); // template <class F> void apply(…): from the template line
    CHECK(spans[4].lastLine == 41);
    CHECK(spans[4].lines() == 7);
    CHECK(spans[4].head == "int times)");

    std::string defaults;
    const auto withDefault =
        functionSpans("struct O {};\nint g(O o = {}, int n = int{2})\n{\n    return n;\n}\n", defaults);
    CHECK(defaults.empty());
    REQUIRE(withDefault.size() == 1);
    CHECK(withDefault[0].firstLine == 2);
    CHECK(withDefault[0].lastLine == 5);

    std::string unbalanced;
    functionSpans("void f()\n{\n", unbalanced);
    CHECK(unbalanced == "1 '{' never closed");
}

TEST_CASE("no function in core/, app/, cli/ or mpi/ is over 120 lines", "[suite][function-length]")
{
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    std::size_t files = 0, functions = 0;
    for (const char* dir : {"core", "app", "cli", "mpi"}) {
        REQUIRE(fs::exists(root / dir));
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            ++files;
            const std::string rel = fs::relative(entry.path(), root).generic_string();
            std::string error;
            for (const FunctionSpan& f : functionSpans(sourceText(entry.path()), error)) {
                ++functions;
                INFO(rel << ":" << f.firstLine << "-" << f.lastLine << ": " << f.head << " is " << f.lines()
                         << " lines; split it into well-named functions of at most " << kMaxFunctionLines);
                CHECK(f.lines() <= kMaxFunctionLines);
            }
            INFO(rel << ": the function-length scanner lost its way: " << error);
            CHECK(error.empty());
        }
    }
    CHECK(files > 100);
    CHECK(functions > 1000);
}

TEST_CASE("the main window stays a thin frame: mainwindow.cpp at most 400 lines", "[suite][function-length]")
{
    // Its rooms (menus, status corner, view controls, presentation, scenario memory, compare,
    // files, hover tips) live in app/window/; a new feature gets a room there, not lines here.
    const std::string text = sourceText(std::filesystem::path(TOPOCAST_SOURCE_DIR) / "app" / "mainwindow.cpp");
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    INFO("app/mainwindow.cpp is " << lines << " lines");
    CHECK(lines > 100);
    CHECK(lines <= 400);
}

TEST_CASE("no product source file in core/, app/, cli/ or mpi/ is over 600 lines", "[suite][function-length]")
{
    // A file past 600 lines holds two subjects; split it where they part (hypercube_bits.cpp from
    // hypercube_graphs.cpp, export_trace.cpp from export.cpp, csv_fields.cpp from schedule_csv.cpp).
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    std::size_t files = 0;
    for (const char* dir : {"core", "app", "cli", "mpi"}) {
        REQUIRE(fs::exists(root / dir));
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            ++files;
            const std::string text = sourceText(entry.path());
            const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
            INFO(fs::relative(entry.path(), root).generic_string() << " is " << lines << " lines");
            CHECK(lines <= 600);
        }
    }
    CHECK(files > 200);
}
