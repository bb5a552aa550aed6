// Typed algorithm figures (core figures.h): what each algorithm reports next to its schedule, the
// file keys written from them, and the rows in words the app's metrics panel shows.
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/schedule_json.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace topocast;

namespace {

Schedule buildAt(const char* algorithm, const char* topology, const Coord& source, Params params = {})
{
    const Topology topo = Topology::parse(topology);
    return buildSchedule(algorithm, topo, topo.id(source), params);
}

const FigureRow* figureRow(const std::vector<FigureRow>& rows, const std::string& key)
{
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const FigureRow& r) { return r.key == key; });
    return it == rows.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("figures: Cang-Wu paper mode on 8x8 from (2,3) is 71 against a proven best of 69 (docs/papers/mesh-tcd.md "
          "§6.2, §7.2)",
          "[figures]")
{
    Params paper;
    paper.set("mode", "paper");
    const Schedule s = buildAt("cang-wu", "mesh:8x8", {2, 3}, paper);
    REQUIRE(s.figures);
    const CangWuFigures* f = s.figures->get<CangWuFigures>();
    REQUIRE(f);
    CHECK(f->mode == "paper");
    CHECK(f->sourceTcd == 71); // 8×8 PaperLiteral table, row y = 3, column x = 2
    CHECK(computeMetrics(s).tcd == 71);
    CHECK(f->bestFromSource == 69); // 8×8 SubmeshOptimal table = ILP optimum for (2,3)
    CHECK(f->bestFromSourceProven); // §7.2: the ILP solved every 8×8 source class
    CHECK(f->optimum == 69);        // OD_3 (eq. 3)
    CHECK(f->eyes.size() == 4);
    CHECK(s.figures->get<HypercubeFigures>() == nullptr);
    const auto rows = figureRows(*s.figures);
    REQUIRE(figureRow(rows, "best_from_source"));
    CHECK(figureRow(rows, "best_from_source")->name == "Best TCD from this source (proven)");
    CHECK(std::get<double>(figureRow(rows, "best_from_source")->value) == 69);
    CHECK(figureRow(rows, "optimum")->unit == "hops");
}

TEST_CASE("figures: the 8x8x8 corner's schedule is the best known from the corner (546), 21 over OD_3 = 525",
          "[figures]")
{
    // Spec mesh-tcd §5.2: 3-D corner MD_3 = 546; §5.1: OD_3 = 525. The panel showed
    // "gap 21" as if the corner's schedule could do better; from the corner, it cannot (known).
    const Schedule s = buildAt("cang-wu", "mesh:8x8x8", {0, 0, 0});
    const CangWuFigures* f = s.figures->get<CangWuFigures>();
    REQUIRE(f);
    CHECK(f->sourceTcd == 546);
    CHECK(f->bestFromSource == 546);
    CHECK_FALSE(f->bestFromSourceProven); // 8×8×8 is past the ILP (§7.2): best known
    CHECK(f->optimum == 525);
    CHECK(figureRow(figureRows(*s.figures), "best_from_source")->name == "Best TCD from this source (best known)");
}

TEST_CASE("figures: a Cang-Wu torus schedule has OD_k from every source and says how it is made", "[figures]")
{
    const Schedule s = buildAt("cang-wu", "torus:8x8", {3, 6});
    const CangWuFigures* f = s.figures->get<CangWuFigures>();
    REQUIRE(f);
    CHECK(f->sourceTcd == 69);
    CHECK(f->bestFromSource == 69);
    REQUIRE(f->torusNote);
    CHECK(scheduleInfo(s)["torus"] == *f->torusNote);
}

TEST_CASE("figures: Tsay-Wang, hypercube and divisible-load figures are typed and written to files", "[figures]")
{
    // Tsay-Wang 7×7×7 (docs/papers/torus-allport.md §6.2 row d = 3, n = 7): LB 3, the paper's bound 4
    // (5 is Tseng & Wang's 3-D figure).
    const Schedule t = buildAt("tsay-wang", "torus:7x7x7", {0, 0, 0});
    const TsayWangFigures* tw = t.figures->get<TsayWangFigures>();
    REQUIRE(tw);
    CHECK(tw->lowerBound == scheduleInfo(t)["lower_bound"].get<std::uint32_t>());
    CHECK(tw->nPrime == 7);
    CHECK(tw->lowerBound == 3);
    CHECK(tw->paperBound == 4);

    const Schedule h = buildAt("sbt", "hypercube:4", {0, 0, 0, 0});
    const HypercubeFigures* hc = h.figures->get<HypercubeFigures>();
    REQUIRE(hc);
    CHECK(hc->graph == "SBT");
    CHECK(hc->cycles == 4);
    CHECK(hc->time == scheduleInfo(h)["time"].get<double>());
    REQUIRE(hc->height);
    CHECK(*hc->height == 4);

    // Divisible load p = 2, h = 2 on the pattern's bounding box (as test_divisible_load_schedule).
    const auto box = scatterBox(2, 2);
    std::vector<int> sides;
    Coord origin;
    for (std::size_t a = 0; a < 3; ++a) {
        sides.push_back(box[1][a] - box[0][a] + 1);
        origin.push_back(box[2][a] - box[0][a]);
    }
    const Topology cube = Topology::mesh(sides);
    const Schedule d = buildSchedule("divisible-load", cube, cube.id(origin), Params{{"p", "2"}, {"layers", "2"}});
    const DivisibleLoadFigures* dl = d.figures->get<DivisibleLoadFigures>();
    REQUIRE(dl);
    CHECK(dl->model.alpha.size() == 3);
    CHECK(dl->timeline.rows.size() == 3);
    // speedupByLayers[h−1] is the model's speedup at h layers (formula (6)).
    REQUIRE(dl->speedupByLayers.size() >= 8);
    CHECK(std::fabs(dl->speedupByLayers[1] - dl->model.speedup) <= 1e-9 * dl->model.speedup);
    CHECK(scheduleInfo(d)["alpha"].size() == 3);
    CHECK(scheduleInfo(d).contains("placement"));
}

TEST_CASE("figures: baselines have none, and a schedule read back keeps the file's keys", "[figures]")
{
    const Schedule b = buildAt("binomial", "mesh:4x4", {0, 0});
    CHECK_FALSE(b.figures);
    CHECK(scheduleInfo(b).empty());

    const Schedule s = buildAt("cang-wu", "mesh:4x4", {1, 0});
    const Schedule back = scheduleFromJson(toJson(s, computeMetrics(s)));
    CHECK_FALSE(back.figures);
    const auto written = scheduleInfo(s);
    for (const auto& [key, text] : back.fileInfo) // "mode" is a schedule field, not an info key
        if (key != "figures")                     // what each key is, written beside them and kept as read
            CHECK(written[key].dump() == text);
    CHECK(back.fileInfo.size() == written.size());
    const auto figures =
        nlohmann::json::parse(std::find_if(back.fileInfo.begin(), back.fileInfo.end(), [](const auto& kv) {
                                  return kv.first == "figures";
                              })->second);
    CHECK(figures["source_tcd"]["unit"] == "hops");
    for (const auto& [key, value] : written.items())
        CHECK((key == "mode" || figures.contains(key))); // every key the algorithm writes is named
    CHECK(scheduleInfo(back)["source_tcd"] == 16);       // spec §6.1: MD(1,0) = 16 (the papers print 17)
    // A schedule read from a file writes its keys back as they were read.
    CHECK(scheduleInfo(scheduleFromJson(toJson(back, computeMetrics(back)))).dump() == scheduleInfo(back).dump());
}

TEST_CASE("figures: every row of every algorithm family is named in words, with its unit where it has one",
          "[figures][words]")
{
    const auto box = scatterBox(2, 2); // the divisible-load scatter box of p = 2, two layers
    std::vector<int> sides;
    Coord origin;
    for (std::size_t a = 0; a < 3; ++a) {
        sides.push_back(box[1][a] - box[0][a] + 1);
        origin.push_back(box[2][a] - box[0][a]);
    }
    const Topology cube = Topology::mesh(sides);
    const std::vector<Schedule> schedules = {
        buildAt("cang-wu", "mesh:8x8", {2, 3}),
        buildAt("tsay-wang", "torus:5x5", {0, 0}),
        buildAt("sbt", "hypercube:4", {0, 0, 0, 0}),
        buildSchedule("divisible-load", cube, cube.id(origin), Params{{"p", "2"}, {"layers", "2"}}),
    };
    for (const Schedule& s : schedules) {
        REQUIRE(s.figures);
        for (const FigureRow& r : figureRows(*s.figures)) {
            CAPTURE(s.algorithm, r.key, r.name, r.unit);
            CHECK(r.name != r.key);
            CHECK(r.name.find('_') == std::string::npos); // no file keys ("eye_side") or subscripts ("a_k")
            CHECK(r.name.size() >= 4);
            CHECK(std::isupper(static_cast<unsigned char>(r.name[0])));
            CHECK((r.unit.find('_') == std::string::npos || r.unit.find("t_c") != std::string::npos));
        }
    }
    // Figures that have a unit say it.
    const auto unitOf = [&](std::size_t i, const std::string& key) {
        return figureRow(figureRows(*schedules[i].figures), key)->unit;
    };
    CHECK(unitOf(0, "eye_side") == "hops");
    CHECK(unitOf(1, "n_prime") == "nodes");
    CHECK(unitOf(2, "time") == "τ, t_c units");
    CHECK(unitOf(2, "startups") == "messages");
    CHECK(unitOf(3, "finish_time") == "s");
    CHECK(unitOf(3, "speedup") == "×");
}
