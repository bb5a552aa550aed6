// libFuzzer target: `topocast-cli render`'s option parsing and checks (cli/render_options.h),
// which need no Qt, so they are fuzzed without the app. Input: the arguments after "render",
// separated by NUL bytes or newlines ("--scenario\ns.json\n--out\na.mp4\n--width\n201").
// Whatever passes must be what the renderer may use; a refusal is one line.
#include "fuzz_common.h"

#include "render_options.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    topocast::fuzz::initLimits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace topocast;
    using namespace topocast::cli;
    using fuzz::require;
    std::vector<std::string> args;
    std::string cur;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\0' || c == '\n') {
            args.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    args.push_back(std::move(cur));
    if (args.size() > 64)
        return 0;
    RenderOptions o;
    try {
        o = parseRenderOptions(args);
    } catch (const CLI::ParseError&) {
        return 0; // --help, a missing or unknown option, a value out of CLI11's ranges
    } catch (const Error& e) {
        const std::string what = e.what();
        require(!what.empty() && what.find('\n') == std::string::npos);
        return 0;
    }
    require(o.width >= 16 && o.width <= 8192 && o.height >= 16 && o.height <= 8192);
    require(o.fps >= 1 && o.fps <= 240);
    require(o.framesPerStep == -1 || (o.framesPerStep >= 1 && o.framesPerStep <= 1000));
    require(o.holdFrames == -1 || (o.holdFrames >= 0 && o.holdFrames <= 100000));
    require(o.crf >= 0 && o.crf <= 51);
    require(o.zoom > 0.01f && o.zoom < 100.0f);
    require(o.videoFormat != RenderFormat::Mp4 || (o.width % 2 == 0 && o.height % 2 == 0));
    std::string mode = o.mode;
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto& modes = renderModeNames();
    // (Empty: not given, the scenario's own mode.)
    require(mode.empty() || std::find(modes.begin(), modes.end(), mode) != modes.end());
    require((o.heat == "cumulative" && o.cumulativeHeat) || (o.heat == "step" && !o.cumulativeHeat));
    // --steps against schedules of a few lengths: a range inside, or a one-line refusal.
    for (std::uint32_t steps : {1u, 4u, 1000u}) {
        try {
            const auto [first, last] = renderStepRange(o, steps);
            require(first >= 1 && first <= last && last <= steps);
        } catch (const Error& e) {
            require(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
    return 0;
}
