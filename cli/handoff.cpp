#include "handoff.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace topocast::cli {

namespace fs = std::filesystem;

bool drawsWithApp(const std::string& command)
{
    return command == "render" || command == "handout" || command == "html" || command == "quiz";
}

bool plotsPng(const std::vector<std::string>& args)
{
    if (commandOf(args) != "sweep")
        return false;
    const auto png = [](const std::string& f) { return f.size() > 4 && f.ends_with(".png"); };
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--plot" && i + 1 < args.size() && png(args[i + 1]))
            return true;
        if (args[i].rfind("--plot=", 0) == 0 && png(args[i].substr(7)))
            return true;
    }
    return false;
}

namespace {
SvgToPng g_svgToPng = nullptr;
}

void registerSvgToPng(SvgToPng draw)
{
    g_svgToPng = draw;
}
SvgToPng svgToPng()
{
    return g_svgToPng;
}

std::string commandOf(const std::vector<std::string>& args)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--memory-limit") {
            ++i; // its value
            continue;
        }
        if (a.rfind("--memory-limit=", 0) == 0)
            continue;
        return a.empty() || a[0] == '-' ? std::string() : a;
    }
    return {};
}

std::optional<fs::path> findApp()
{
    const auto executable = [](const fs::path& p) {
        return !p.empty() && ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p);
    };
    if (const char* env = std::getenv("TOPOCAST_APP"); env && *env)
        return executable(env) ? std::optional<fs::path>(env) : std::nullopt;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return std::nullopt;
    for (const fs::path& candidate :
         {self.parent_path() / "topocast", self.parent_path().parent_path() / "app" / "topocast"})
        if (executable(candidate))
            return candidate;
    return std::nullopt;
}

std::string execApp(const fs::path& app, const std::vector<std::string>& args)
{
    std::vector<std::string> owned;
    owned.reserve(args.size() + 1);
    owned.push_back(app.string());
    owned.insert(owned.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : owned)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(app.c_str(), argv.data());
    return std::strerror(errno);
}

} // namespace topocast::cli
