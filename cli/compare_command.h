#pragma once
// What `topocast-cli compare` was asked, shared by its two tables: the hypercube graphs
// (cmd_compare.cpp) and the reductions and all-gathers of any network (compare_collectives.cpp).

#include "commands.h"
#include "network_options.h"

#include "topocast/model/schedule.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace topocast::cli {

struct CompareCommand {
    NetworkOptions network;
    std::string topology = "hypercube:4";
    std::string pattern = "broadcast";
    std::string ports; // empty: every port model that serves the pattern
    long long message = 1;
    long long packet = 0; // 0: = message
    double tau = 1.0;
    double tc = 1.0;
    std::string model = "loggp"; ///< what ranks the reductions: loggp (the engine) or simgrid (simulated)
    bool json = false;
};

/// a and b equal but for rounding (a tie has no winner).
bool nearlyEqual(double a, double b);

/// A time on the network model, to the picosecond; null where there is none.
nlohmann::ordered_json nsValue(std::optional<double> ns);

/// Reduce, reduce-scatter, allreduce and gather on any network, allgather beyond the hypercube:
/// every algorithm with α–β figures that serves `pattern`, ranked by its time on the network model.
int runCollectiveCompare(const CompareCommand& o, const Topology& topo, Pattern pattern, Io& io);

} // namespace topocast::cli
