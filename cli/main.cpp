#include "commands.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    topocast::cli::Io io{std::cout, std::cerr};
    return topocast::cli::run(args, io);
}
