// topocast-cli layout: where the app draws a network (core drawingPositions: a 3-D mesh or torus
// as its planes side by side in a 16:9 view, as the app opens it, or — --layout tower, or any
// --explode — as the tower with explode): --json the envelope, {"layout", "explode", "unit",
// "node_radius", "nodes": [[x, y, z], …] (node-id order),
// "edges": [{"from", "to", "points"}, …]} (from/to in node notation: coordinate arrays, addresses
// on a hypercube)
// with one edge per link as the polyline the app draws along its centre (straight links: two
// points; torus wrap-around links: the arc's kArcSegments + 1 points, core wrapArcBulge; planes
// side by side leave out the links between planes, which the app draws only while in use).

#include "commands.h"

#include "envelope.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/drawing.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/layout_edges.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace topocast::cli {

namespace {

struct LayoutCommand {
    std::string topology;
    std::optional<float> explode;
    std::string layout;
    bool json = false;
};

/// A float as the shortest decimal that reads back as it (0.16, not 0.1599999964237213).
double shortest(float f)
{
    return std::stod(fmt::format("{}", f));
}

nlohmann::ordered_json point(const Vec3& p)
{
    return nlohmann::ordered_json::array({shortest(p[0]), shortest(p[1]), shortest(p[2])});
}

int runLayout(const LayoutCommand& opt, Io& io)
{
    const Topology topo = Topology::parse(opt.topology);
    DrawingSettings drawing = defaultDrawing(topo);
    if (opt.explode) {
        if (!(*opt.explode >= 0.0f && *opt.explode <= kMaxExplode))
            throw Error(fmt::format("--explode {:g} is out of range; it must be between 0 and {:g}", *opt.explode,
                                    kMaxExplode));
        drawing.explode = *opt.explode;
        drawing.grid = GridDrawing::Tower; // an explode is the tower's
    }
    if (!opt.layout.empty()) {
        const auto grid = parseGridDrawing(opt.layout);
        if (!grid || !canDrawPlanes(topo))
            throw Error(fmt::format("--layout {}: {}", opt.layout,
                                    canDrawPlanes(topo) ? "expected tower or planes"
                                                        : "tower and planes are drawings of 3-D meshes and tori; the " +
                                                              topo.displayName() + " has one layout"));
        if (*grid == GridDrawing::Planes && opt.explode)
            throw Error("--layout planes with --explode: planes side by side have no explode");
        drawing.grid = *grid;
    }
    const bool planes = drawsPlanes(topo, drawing);
    const float explode = explodes(topo, drawing) ? drawing.explode : 0.0f;
    const std::vector<Vec3> pos = drawingPositions(topo, drawing, 16.0f / 9.0f);
    const auto bounds = layoutBounds(pos);
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (const Vec3& p : pos)
        nodes.push_back(point(p));
    nlohmann::ordered_json edges = nlohmann::ordered_json::array();
    std::size_t arcs = 0;
    for (const DrawnLink& link : drawnLinks(topo, pos, planes)) {
        arcs += link.wrap;
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (const Vec3& q : link.points)
            points.push_back(point(q));
        edges.push_back(
            {{"from", nodeToJson(topo, link.from)}, {"to", nodeToJson(topo, link.to)}, {"points", std::move(points)}});
    }
    if (opt.json) {
        nlohmann::ordered_json doc = envelope("topocast-layout", topo);
        doc["layout"] = canDrawPlanes(topo) ? gridDrawingName(drawing.grid) : std::string_view("default");
        doc["explode"] = shortest(explode);
        doc["unit"] = "world units (neighbouring mesh nodes are 1 apart)";
        doc["node_radius"] = shortest(drawingNodeRadius(topo, drawing));
        doc["nodes"] = std::move(nodes);
        doc["edges"] = std::move(edges);
        io.out << doc.dump() << '\n';
        return 0;
    }
    const auto& [lo, hi] = bounds;
    io.out << fmt::format("{}: {} nodes, {} links ({} drawn as arcs){}, explode {:g}\n", topo.displayName(), pos.size(),
                          edges.size(), arcs,
                          planes                ? ", planes side by side in a 16:9 view (links between planes left out)"
                          : canDrawPlanes(topo) ? ", the tower"
                                                : "",
                          explode);
    io.out << fmt::format("bounds x {:.2f}..{:.2f}, y {:.2f}..{:.2f}, z {:.2f}..{:.2f}; node radius {:g}\n", lo[0],
                          hi[0], lo[1], hi[1], lo[2], hi[2], drawingNodeRadius(topo, drawing));
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "layout",
    .help = "where the app draws each node and link (positions, arcs), with an optional explode",
    .setup =
        [](CLI::App& sub) {
            auto opt = std::make_shared<LayoutCommand>();
            sub.add_option("--topology", opt->topology, "mesh:8x8x8, torus:7x7x7, hypercube:6, …")->required();
            sub.add_option(
                "--explode", opt->explode,
                "extra gap between the planes of a 3-D network drawn as the tower (0..10; default: the default "
                "for its size)");
            sub.add_option(
                "--layout", opt->layout,
                "a 3-D mesh or torus: planes (side by side in a 16:9 view, as the app opens it; the default) "
                "or tower (the default with --explode)");
            sub.add_flag(
                "--json", opt->json,
                "write {format, version, topology, layout, explode, unit, \"node_radius\", \"nodes\": [[x, y, z], …], "
                "\"edges\": [{\"from\", \"to\", \"points\"}, …]} (from/to: coordinate arrays, addresses on a "
                "hypercube)");
            return [opt](Io& io) { return runLayout(*opt, io); };
        },
}};

} // namespace

} // namespace topocast::cli
