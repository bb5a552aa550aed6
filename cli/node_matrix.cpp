#include "node_matrix.h"

#include <algorithm>
#include <ostream>

namespace topocast::cli {

namespace {

/// Prints one matrix: rows = `rowDim`, columns = x, with the other coordinates fixed as in `base`.
void printPlane(std::ostream& out, const Topology& topo, const std::vector<std::string>& cells, Coord base, int rowDim,
                std::size_t width)
{
    const int cols = topo.side(0);
    const int rows = rowDim < 0 ? 1 : topo.side(rowDim);
    for (int r = 0; r < rows; ++r) {
        if (rowDim >= 0)
            base[static_cast<std::size_t>(rowDim)] = r;
        for (int x = 0; x < cols; ++x) {
            base[0] = x;
            const std::string& v = cells[topo.idUnchecked(base)];
            out << std::string(width + 1 - std::min(width, v.size()), ' ') << v;
        }
        out << '\n';
    }
}

} // namespace

void printNodeMatrices(std::ostream& out, const Topology& topo, const std::vector<std::string>& cells)
{
    const int d = topo.dims();
    std::size_t width = 1;
    for (const std::string& v : cells)
        width = std::max(width, v.size());
    Coord base(static_cast<std::size_t>(d), 0);
    if (d == 1) {
        out << "columns = x\n";
        printPlane(out, topo, cells, base, -1, width);
        return;
    }
    if (d == 2) {
        out << "rows = y, columns = x\n";
        printPlane(out, topo, cells, base, 1, width);
        return;
    }
    if (d == 3) {
        // The papers' Fig. 5 layout: one plane per y, rows = z, columns = x.
        for (int y = 0; y < topo.side(1); ++y) {
            out << "plane y = " << y << " (rows = z, columns = x)\n";
            base[1] = y;
            printPlane(out, topo, cells, base, 2, width);
        }
        return;
    }
    // d ≥ 4: one plane per combination of coordinates 2..d−1, rows = y, columns = x.
    const std::uint32_t planes = topo.nodeCount() / static_cast<std::uint32_t>(topo.side(0) * topo.side(1));
    for (std::uint32_t p = 0; p < planes; ++p) {
        std::uint32_t rest = p;
        out << "plane";
        for (int i = 2; i < d; ++i) {
            base[static_cast<std::size_t>(i)] = static_cast<int>(rest % static_cast<std::uint32_t>(topo.side(i)));
            rest /= static_cast<std::uint32_t>(topo.side(i));
            out << (i == 2 ? " " : ", ") << "x" << i << " = " << base[static_cast<std::size_t>(i)];
        }
        out << " (rows = y, columns = x)\n";
        printPlane(out, topo, cells, base, 1, width);
    }
}

} // namespace topocast::cli
