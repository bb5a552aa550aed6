// libFuzzer target: topocast-cli's argument parsing and commands, run in-process.
// Input: the arguments, separated by NUL bytes or newlines ("schedule\n-t\nmesh:4x4\n-a\nbfs").
//
// The commands run in a scratch directory made at start-up that holds one valid schedule
// ("s.json") and one valid scenario ("c.json") to name. Arguments containing '/' are skipped,
// so the fuzzer can read and write only inside that directory (never /dev/stdin, /dev/zero or
// the source tree).
#include "fuzz_common.h"

#include "commands.h"
#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace {

std::filesystem::path g_scratch;

void removeScratch()
{
    std::error_code ec;
    if (!g_scratch.empty())
        std::filesystem::remove_all(g_scratch, ec);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    topocast::fuzz::initLimits();
    std::string tmpl = (std::filesystem::temp_directory_path() / "topocast-fuzz-cli-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        std::abort();
    g_scratch = tmpl;
    std::filesystem::current_path(g_scratch);
    std::atexit(removeScratch);
    topocast::Scenario sc;
    sc.topology = topocast::Topology::mesh({4, 4});
    sc.algorithm = "binomial";
    topocast::saveScenario(sc, "c.json");
    std::ostringstream out, err;
    topocast::cli::Io io{out, err};
    if (topocast::cli::run({"schedule", "-t", "mesh:4x4", "-a", "bfs", "--out", "s.json"}, io) != 0)
        std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
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
    for (const std::string& a : args)
        if (a.find('/') != std::string::npos || a.rfind("--memory-limit", 0) == 0)
            return -1; // could name files outside the scratch directory or lift the fuzzers' memory limit
    std::ostringstream out, err;
    topocast::cli::Io io{out, err};
    const int rc = topocast::cli::run(args, io);
    topocast::fuzz::require(rc >= 0 && rc <= 2);
    // Bad input is answered with exactly one line on stderr.
    if (rc == 2) {
        const std::string e = err.str();
        topocast::fuzz::require(!e.empty() && e.find('\n') == e.size() - 1);
    }
    // Anything written to the scratch directory stays small; start afresh when it grows.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(".", ec)) {
        const auto name = entry.path().filename().string();
        if (name != "c.json" && name != "s.json")
            std::filesystem::remove_all(entry.path(), ec);
    }
    return 0;
}
