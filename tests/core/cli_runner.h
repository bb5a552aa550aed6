#pragma once
// Runs topocast-cli in-process for the CLI tests: exit status and what it wrote.

#include "commands.h"

#include <sstream>
#include <string>
#include <vector>

namespace topocast::testing {

struct CliRun {
    int status = 0;
    std::string out;
    std::string err;
};

inline CliRun runCli(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    cli::Io io{out, err};
    CliRun r;
    r.status = cli::run(args, io);
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace topocast::testing
