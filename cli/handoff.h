#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace topocast::cli {

/// The commands that draw (Qt3D) and so live in the app program, `topocast render …` and
/// `topocast handout …`: topocast-cli itself loads no Qt library and hands them over.
bool drawsWithApp(const std::string& command);

/// Whether `args` ask for a chart drawn as PNG (`sweep --plot FILE.png`): the app program draws
/// it (Qt SVG), as it draws render and handout.
bool plotsPng(const std::vector<std::string>& args);

/// Draws an SVG document into a PNG file at `path` (atomically). The app program registers one
/// (Qt SVG); topocast-cli has none and hands the command over. Throws topocast::Error.
using SvgToPng = void (*)(const std::string& svg, const std::string& path);
void registerSvgToPng(SvgToPng draw);
/// The registered one, or null.
SvgToPng svgToPng();

/// The subcommand named by `args` (topocast-cli's arguments without the program name): the first
/// argument that is not a global option (--memory-limit N) — empty if none.
std::string commandOf(const std::vector<std::string>& args);

/// Where the app program is: $TOPOCAST_APP if set, else `topocast` beside this executable (an
/// install), else `../app/topocast` beside it (the build tree). Empty if none is executable.
std::optional<std::filesystem::path> findApp();

/// Replaces this process with `app` run on `args` (the same arguments, so the same options and
/// messages). Returns only if the exec failed, with errno's text.
std::string execApp(const std::filesystem::path& app, const std::vector<std::string>& args);

} // namespace topocast::cli
