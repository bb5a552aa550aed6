// `topocast-cli bounds --dims D --side N [--json]`: the all-port torus broadcast bounds of
// Tsay & Wang §2 and the prior results they compare with (lower bound, Tsay & Wang's bound,
// this implementation's step counts, Tseng 2-D, Tseng & Wang 3-D, Park & Choi).
#include "commands.h"

#include "envelope.h"

#include "topocast/algorithms/tsay_wang.h"
#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace topocast::cli {

namespace {

/// Parses "5", "3,5,7" or "3..30" (and mixtures "3..9,25") into a list of whole numbers.
std::vector<long long> parseNumberList(const std::string& text, const std::string& what, long long lo, long long hi)
{
    std::vector<long long> out;
    std::stringstream ss(text);
    std::string part;
    auto number = [&](const std::string& s) {
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != s.size())
            throw Error(what + " must be a whole number, a list a,b,c or a range a..b; got '" + text + "'");
        if (v < lo || v > hi)
            throw Error(what + " " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." +
                        std::to_string(hi));
        return v;
    };
    while (std::getline(ss, part, ',')) {
        const auto dots = part.find("..");
        if (dots == std::string::npos) {
            out.push_back(number(part));
            continue;
        }
        const long long a = number(part.substr(0, dots));
        const long long b = number(part.substr(dots + 2));
        if (b < a || b - a > 100000)
            throw Error(what + " range '" + part + "' must go upward and hold at most 100001 values");
        for (long long v = a; v <= b; ++v)
            out.push_back(v);
    }
    if (out.empty())
        throw Error(what + " is empty");
    return out;
}

std::string cell(const std::optional<std::uint32_t>& v)
{
    return v ? std::to_string(*v) : "–";
}

nlohmann::ordered_json boundsJson(const TorusBroadcastBounds& b)
{
    auto opt = [](const std::optional<std::uint32_t>& v) {
        return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
    };
    nlohmann::ordered_json j = {{"d", b.d},
                                {"n", b.n},
                                {"n_prime", b.nPrime},
                                {"r", b.r},
                                {"lower_bound", b.lowerBound},
                                {"paper_bound", b.paperBound},
                                {"tsay_wang_paper", opt(b.paperVariantSteps)},
                                {"tsay_wang_direct", opt(b.directVariantSteps)},
                                {"tseng_2d", opt(b.tseng2d)},
                                {"tseng_wang_3d", opt(b.tsengWang3d)},
                                {"park_choi", opt(b.parkChoi)}};
    if (!b.note.empty())
        j["note"] = b.note;
    return j;
}

/// The envelope ("topology": the torus when there is one row of at most 6 dimensions, else null:
/// the rows name d and n), "unit", then the rows.
nlohmann::ordered_json boundsDocument(const std::vector<TorusBroadcastBounds>& rows)
{
    nlohmann::ordered_json doc = envelope("topocast-bounds");
    if (rows.size() == 1 && rows.front().d <= 6) {
        std::string spec = "torus:";
        for (int i = 0; i < rows.front().d; ++i)
            spec += (i ? "x" : "") + std::to_string(rows.front().n);
        doc["topology"] = spec;
    }
    doc["pattern"] = "broadcast";
    doc["port_model"] = "all-port";
    doc["unit"] = "steps";
    auto list = nlohmann::ordered_json::array();
    for (const auto& b : rows)
        list.push_back(boundsJson(b));
    doc["rows"] = std::move(list);
    return doc;
}

void printTable(std::ostream& out, const std::vector<TorusBroadcastBounds>& rows)
{
    out << "All-port broadcast on the d-dimensional n×…×n torus, steps (Tsay & Wang §2; docs/glossary.md)\n";
    const std::vector<std::string> head = {"d",    "n",      "r(n')",     "LB",      "paper",
                                           "ours", "direct", "Tseng 2-D", "T&W 3-D", "Park-Choi"};
    const std::vector<int> width = {3, 6, 6, 4, 6, 5, 7, 10, 8, 10};
    for (std::size_t i = 0; i < head.size(); ++i)
        out << std::setw(width[i]) << head[i];
    out << '\n';
    std::vector<std::string> notes;
    for (const auto& b : rows) {
        const std::vector<std::string> cells = {std::to_string(b.d),          std::to_string(b.n),
                                                std::to_string(b.r),          std::to_string(b.lowerBound),
                                                std::to_string(b.paperBound), cell(b.paperVariantSteps),
                                                cell(b.directVariantSteps),   cell(b.tseng2d),
                                                cell(b.tsengWang3d),          cell(b.parkChoi)};
        for (std::size_t i = 0; i < cells.size(); ++i) {
            // "–" is 3 bytes but one column wide: pad by display width.
            const int shown = cells[i] == "–" ? 1 : static_cast<int>(cells[i].size());
            out << std::string(static_cast<std::size_t>(std::max(0, width[i] - shown)), ' ') << cells[i];
        }
        out << '\n';
        if (!b.note.empty())
            notes.push_back("d=" + std::to_string(b.d) + ", n=" + std::to_string(b.n) + ": " + b.note);
    }
    out << "r(n') = ⌈log_{2d+1} n'⌉, n' = n for odd n, n − 1 for even n;\n"
           "LB = ⌈d·log_{2d+1} n⌉ (exact integers); paper = Tsay & Wang's bound (odd n: d·r(n)+1, even n: "
           "d·r(n−1)+⌈d/2⌉+1);\n"
           "ours = tsay-wang --variant paper; direct = --variant direct (n' = (2d+1)^r only); Tseng 2-D = "
           "2⌈log_5 n⌉;\nT&W 3-D = 3⌈log_7 n⌉+2; Park-Choi = d·r, n = (2d+1)^r only. – = does not apply.\n";
    for (const auto& note : notes)
        out << "note: " << note << '\n';
}

struct BoundsOptions {
    std::string dims;
    std::string side;
    bool json = false;
};

CommandRegistrar reg{Command{
    .name = "bounds",
    .help = "all-port torus broadcast bounds: lower bound, Tsay & Wang, Tseng, Tseng & Wang, Park & Choi",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<BoundsOptions>();
            sub.add_option("--dims,-d", opts->dims, "dimensions d ≥ 2 (a number, a list 2,3 or a range 2..4)")
                ->required();
            sub.add_option("--side,-n", opts->side, "torus side n ≥ 3 (a number, a list 5,7 or a range 3..30)")
                ->required();
            sub.add_flag("--json", opts->json,
                         "print JSON instead of a table: {format, version, topology, pattern, port_model, unit, rows}");
            return [opts](Io& io) {
                const auto dims = parseNumberList(opts->dims, "--dims", 2, 1000);
                const auto sides = parseNumberList(opts->side, "--side", 3, 1'000'000'000'000LL);
                if (dims.size() * sides.size() > 100000)
                    throw Error("bounds prints at most 100000 rows; got " + std::to_string(dims.size() * sides.size()));
                std::vector<TorusBroadcastBounds> rows;
                for (long long d : dims)
                    for (long long n : sides)
                        rows.push_back(torusBroadcastBounds(static_cast<int>(d), n));
                if (opts->json) {
                    io.out << boundsDocument(rows).dump(2) << '\n';
                } else {
                    printTable(io.out, rows);
                }
                return 0;
            };
        },
}};

} // namespace

} // namespace topocast::cli
