#pragma once
// Short names for the hypercube tests' tables of patterns and port models (one definition, so
// the test files can share a unity-build batch).

#include "topocast/algorithms/hypercube_cost.h"
#include "topocast/model/schedule.h"

inline constexpr topocast::Pattern Bc = topocast::Pattern::Broadcast, Sc = topocast::Pattern::Scatter,
                                   Ag = topocast::Pattern::Allgather, Aa = topocast::Pattern::Alltoall;
inline constexpr topocast::hypercube::Ports One = topocast::hypercube::Ports::One,
                                            SR = topocast::hypercube::Ports::SendRecv,
                                            Half = topocast::hypercube::Ports::Half, NP = topocast::hypercube::Ports::N;
