#pragma once

// What an algorithm reports next to its schedule, as typed fields. The app and the commands read
// these fields; the schedule file's top-level algorithm keys (the JSON "info") are written from
// them by io/figures_json.h and nowhere else.

#include "topocast/algorithms/divisible_load.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace topocast {

/// Cang & Wu minimum-TCD broadcast.
struct CangWuFigures {
    std::string mode;            ///< "optimal", "eye-best" or "paper"
    std::uint64_t optimum = 0;   ///< OD_k: the least TCD over every source (at the eyes, §5.1)
    std::uint64_t sourceTcd = 0; ///< this schedule's TCD by the closed form / table of its mode
    /// The least TCD known from this schedule's source: the submesh-optimal value (§3.4) on a mesh,
    /// OD_k on a torus (every source is an eye there).
    std::uint64_t bestFromSource = 0;
    /// True where bestFromSource is the proven minimum over every time-optimal schedule (spec §7.2:
    /// paths up to 16 nodes, 2×2, 4×4, 8×8, 2×2×2, 4×4×4); otherwise the best value known.
    bool bestFromSourceProven = false;
    std::optional<std::string> torusNote; ///< on a torus: how the schedule is made
    std::vector<Coord> eyes;              ///< the eyes, where OD_k is reached
    std::int64_t eyeSide = 0;             ///< a_k
    int sourceEyeLevel = 0;               ///< the level at which the source is an eye
    int levels = 0;                       ///< k
};

/// Tsay & Wang all-port torus broadcast.
struct TsayWangFigures {
    std::string variant;          ///< "paper" or "direct"
    long long nPrime = 0;         ///< n (odd) or n − 1 (even)
    std::uint32_t r = 0;          ///< ⌈log_{2d+1} n'⌉
    std::uint32_t lowerBound = 0; ///< ⌈d·log_{2d+1} n⌉ steps (Lemma 1)
    std::uint32_t paperBound = 0; ///< the paper's stated bound
    std::uint32_t specSteps = 0;  ///< the steps this variant takes by the spec's count
};

/// Johnsson & Ho hypercube communication (the cost model of their §1–§2).
struct HypercubeFigures {
    std::string graph;                        ///< spanning graph ("sbt", "nesbt", …)
    std::string ports;                        ///< "one", "n", …
    std::string discipline;                   ///< how packets are ordered
    long long message = 1;                    ///< M (elements)
    long long packet = 1;                     ///< B (elements)
    double tau = 1;                           ///< start-up time τ
    double tc = 1;                            ///< time per element t_c
    std::string formula;                      ///< where startups/transfer come from
    std::optional<std::string> formulaNote;   ///< when the closed form's assumptions do not hold
    double startups = 0;                      ///< start-ups (closed form where the paper has one)
    double transfer = 0;                      ///< elements transferred in sequence
    std::string startupsExact, transferExact; ///< the same as exact fractions
    double time = 0;                          ///< startups·τ + transfer·t_c
    double lowerBound = 0;                    ///< the paper's lower bound on time
    double lowerBoundStartups = 0, lowerBoundTransfer = 0;
    double ratio = 1;                                                 ///< time / lowerBound
    std::uint64_t cycles = 0;                                         ///< routing cycles of the schedule
    double countedStartups = 0, countedTransfer = 0, countedTime = 0; ///< counted from the schedule
    double packetOpt = 0;                                             ///< the best packet size B
    double timeMin = 0;                                               ///< the time at that packet size
    /// Spanning trees only (not BRG/nRBRG): sizes of the root's subtrees and of each level (members
    /// weighted, so a size may be a fraction), height.
    std::vector<double> subtreeSizes, levelSizes;
    std::optional<int> height;
};

/// Where a SCATTER(p) put its layers on the mesh (spec §1.5).
struct ScatterPlacementFigures {
    std::string rule; ///< how the originator and the mirrors are chosen
    std::array<int, 3> originator{}, mirror{}, boxMin{}, boxMax{};
    std::uint64_t processors = 0, unusedNodes = 0;
};

/// What kind of routes a SCATTER(p) gets and how much they contend, per move.
struct ScatterRouteFigures {
    std::string kind;
    std::uint64_t contentionUses = 0;
    std::uint32_t maxStepLoad = 0;
    std::vector<std::uint64_t> contentionUsesPerMove, contendedChannelsPerMove;
};

/// Drozdowski & Głazek divisible-load scattering.
struct DivisibleLoadFigures {
    DivisibleLoadModel model;
    DivisibleLoadTimeline timeline;
    /// Speedup s_h for h = 1, 2, … up to max(h, 8) layers, while finite (formula (6)).
    std::vector<double> speedupByLayers;
    std::string layersChosen; ///< "given" or how the automatic choice went
    /// Placement of the layers on the mesh, per-move routes and warnings, for files only.
    ScatterPlacementFigures placement;
    ScatterRouteFigures routes;
    std::vector<std::string> warnings;
};

/// Ring all-gather / reduce-scatter / all-reduce and the binomial reduce and gather
/// (algorithms/collectives.h): the α–β cost for a message of M, and its lower bounds.
struct CollectiveFigures {
    std::string algorithm;      ///< "ring", "binomial"
    std::string pattern;        ///< "allreduce", …
    double message = 1;         ///< M (the unit of data)
    double alpha = 1, beta = 1; ///< start-up time α and time per unit of data β
    double startups = 0;        ///< messages in sequence
    double data = 0;            ///< data the busiest node receives, in units of M
    double time = 0;            ///< α·startups + β·data·M
    double lowerBoundStartups = 0, lowerBoundData = 0, lowerBoundTime = 0;
    std::string formula; ///< the closed form in words
};

/// One algorithm's figures; Schedule::figures points to one (null for baselines and files).
struct AlgorithmFigures {
    std::variant<CangWuFigures, TsayWangFigures, HypercubeFigures, DivisibleLoadFigures, CollectiveFigures> of;

    template <class T> const T* get() const { return std::get_if<T>(&of); }
};

/// One figure for people: a name in words, its value and unit, and a sentence of help.
struct FigureRow {
    std::string key;  ///< the file's key, for tests and exports ("source_tcd")
    std::string name; ///< "TCD of this schedule (formula)"
    std::variant<double, std::string> value;
    std::string unit; ///< "hops", "steps", "s", "" …
    std::string help;
};

/// The figures worth showing in a panel, in reading order, named in words.
std::vector<FigureRow> figureRows(const AlgorithmFigures& figures);

/// Speedup s_h of the divisible-load model for h = 1 … max(params.layers, 8), stopping at the
/// first non-finite value (formula (6)). O(h).
std::vector<double> divisibleLoadSpeedupByLayers(DivisibleLoadParams params);

} // namespace topocast
