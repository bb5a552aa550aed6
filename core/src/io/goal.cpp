#include "topocast/io/goal.h"

#include "topocast/io/read_file.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <ostream>
#include <sstream>
#include <unordered_map>

namespace topocast {

namespace {

/// The text with comments blanked out (newlines kept, so line numbers stay right).
std::string withoutComments(std::string_view text, const std::string& name)
{
    std::string out(text);
    std::size_t line = 1;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '\n')
            ++line;
        if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
            --i;
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            const std::size_t start = line;
            std::size_t j = i;
            for (; j + 1 < out.size() && !(out[j] == '*' && out[j + 1] == '/'); ++j)
                if (out[j] != '\n')
                    out[j] = ' ';
                else
                    ++line;
            if (j + 1 >= out.size())
                throw Error(name + ":" + std::to_string(start) + ": a comment /* is never closed with */");
            out[j] = out[j + 1] = ' ';
            out[i] = ' ';
            i = j + 1;
        }
    }
    return out;
}

class Parser {
public:
    Parser(std::string_view text, const std::string& name) : m_name(name), m_text(withoutComments(text, name)) {}

    OpProgram run()
    {
        std::istringstream in(m_text);
        std::string raw;
        while (std::getline(in, raw)) {
            ++m_line;
            std::vector<std::string> words = split(raw);
            if (!words.empty())
                statement(words);
        }
        if (m_inRank)
            fail("rank " + std::to_string(m_rank) + " is never closed with '}'", m_rankLine);
        if (!m_haveRanks)
            fail("no 'num_ranks N' line: a GOAL file starts with the number of ranks", 1);
        return std::move(m_program);
    }

private:
    [[noreturn]] void fail(const std::string& what, std::size_t line = 0) const
    {
        throw Error(m_name + ":" + std::to_string(line ? line : m_line) + ": " + what);
    }

    static std::vector<std::string> split(const std::string& line)
    {
        std::vector<std::string> words;
        std::string word;
        for (char c : line) {
            if (c == ' ' || c == '\t' || c == '\r') {
                if (!word.empty())
                    words.push_back(std::move(word));
                word.clear();
            } else if (c == ':' || c == '{' || c == '}') {
                if (!word.empty())
                    words.push_back(std::move(word));
                word.clear();
                words.emplace_back(1, c);
            } else {
                word += c;
            }
        }
        if (!word.empty())
            words.push_back(std::move(word));
        return words;
    }

    std::uint64_t number(const std::string& text, const std::string& what, std::uint64_t max) const
    {
        std::uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || ptr != text.data() + text.size())
            fail(what + " '" + text + "' is not a whole number");
        if (v > max)
            fail(what + " " + text + " is over " + std::to_string(max));
        return v;
    }

    /// A rank or tag that may be −1 (any).
    std::uint32_t rankOrAny(const std::string& text, const std::string& what, bool anyAllowed) const
    {
        if (text == "-1") {
            if (!anyAllowed)
                fail(what + " -1 (any) is allowed only for a receive");
            return ProgramOp::kAny;
        }
        return static_cast<std::uint32_t>(number(text, what, ProgramOp::kAny - 1));
    }

    void statement(const std::vector<std::string>& w)
    {
        if (!m_inRank) {
            if (w[0] == "num_ranks" && w.size() == 2 && !m_haveRanks) {
                m_program.ranks = static_cast<std::uint32_t>(number(w[1], "num_ranks", 1u << 24));
                if (m_program.ranks == 0)
                    fail("num_ranks must be at least 1");
                m_haveRanks = true;
                m_seen.assign(m_program.ranks, false);
                return;
            }
            if (w[0] == "rank" && w.size() == 3 && w[2] == "{") {
                if (!m_haveRanks)
                    fail("'rank' before 'num_ranks N'");
                m_rank = static_cast<std::uint32_t>(number(w[1], "rank", ProgramOp::kAny - 1));
                if (m_rank >= m_program.ranks)
                    fail("rank " + w[1] + " is outside num_ranks " + std::to_string(m_program.ranks) + " (ranks 0.." +
                         std::to_string(m_program.ranks - 1) + ")");
                if (m_seen[m_rank])
                    fail("rank " + w[1] + " is given twice");
                m_seen[m_rank] = true;
                m_inRank = true;
                m_rankLine = m_line;
                m_labels.clear();
                return;
            }
            fail("expected 'num_ranks N' or 'rank R {'; got '" + w[0] + "'");
        }
        if (w.size() == 1 && w[0] == "}") {
            m_inRank = false;
            return;
        }
        if (w.size() == 3 && (w[1] == "requires" || w[1] == "irequires")) {
            m_program.dependencies.push_back({label(w[0]), label(w[2]), w[1] == "irequires"});
            return;
        }
        std::string name;
        std::size_t at = 0;
        if (w.size() >= 2 && w[1] == ":") {
            name = w[0];
            at = 2;
        }
        ProgramOp op = operation(w, at);
        op.rank = m_rank;
        op.line = static_cast<std::uint32_t>(m_line);
        if (m_program.ops.size() >= kGoalMaxOps)
            fail("more than " + std::to_string(kGoalMaxOps) + " ops, the most a GOAL file may hold here");
        const auto index = static_cast<std::uint32_t>(m_program.ops.size());
        if (!name.empty()) {
            const auto [it, added] = m_labels.emplace(name, index);
            if (!added)
                fail("label " + name + " of rank " + std::to_string(m_rank) + " is given twice (first on line " +
                     std::to_string(m_program.ops[it->second].line) + ")");
            m_program.labels.resize(index + 1);
            m_program.labels[index] = name;
        }
        m_program.ops.push_back(op);
    }

    std::uint32_t label(const std::string& name) const
    {
        const auto it = m_labels.find(name);
        if (it == m_labels.end())
            fail("label " + name + " is not defined in rank " + std::to_string(m_rank) +
                 " before this line (a dependency names labels of its own rank)");
        return it->second;
    }

    /// "send 1024b to 1 tag 0 cpu 0 nic 0", "recv 8b from -1 tag -1", "calc 100 cpu 1".
    ProgramOp operation(const std::vector<std::string>& w, std::size_t at) const
    {
        ProgramOp op;
        if (at >= w.size())
            fail("a label without an op");
        const std::string& kind = w[at];
        std::vector<std::string> rest(w.begin() + static_cast<std::ptrdiff_t>(at) + 1, w.end());
        // "512 b" as well as "512b".
        if (rest.size() >= 2 && rest[1] == "b") {
            rest[0] += "b";
            rest.erase(rest.begin() + 1);
        }
        std::size_t i = 0;
        const auto next = [&](const std::string& what) -> const std::string& {
            if (i >= rest.size())
                fail(kind + " is missing " + what);
            return rest[i++];
        };
        if (kind == "send" || kind == "recv") {
            op.kind = kind == "send" ? ProgramOp::Kind::Send : ProgramOp::Kind::Recv;
            const std::string size = next("its size (e.g. 1024b)");
            if (size.size() < 2 || size.back() != 'b')
                fail("size '" + size + "' must be bytes written as 1024b");
            op.size = number(size.substr(0, size.size() - 1), "size", std::uint64_t{1} << 50);
            const std::string& word = next(kind == "send" ? "'to R'" : "'from R'");
            if (word != (kind == "send" ? "to" : "from"))
                fail(kind + " needs '" + (kind == "send" ? "to" : "from") + " R' after its size; got '" + word + "'");
            op.peer = rankOrAny(next("its peer rank"), kind == "send" ? "destination" : "source", kind == "recv");
            if (op.peer != ProgramOp::kAny && op.peer >= m_program.ranks)
                fail((kind == "send" ? "destination rank " : "source rank ") + std::to_string(op.peer) +
                     " is outside num_ranks " + std::to_string(m_program.ranks));
        } else if (kind == "calc") {
            op.kind = ProgramOp::Kind::Calc;
            op.size = number(next("its time"), "calc time", std::uint64_t{1} << 50);
        } else {
            fail("unknown op '" + kind + "'; a GOAL op is send, recv or calc (or 'a requires b', 'a irequires b')");
        }
        while (i < rest.size()) {
            const std::string key = rest[i++];
            const std::string& value = next("a value after '" + key + "'");
            if (key == "tag" && op.kind != ProgramOp::Kind::Calc)
                op.tag = rankOrAny(value, "tag", op.kind == ProgramOp::Kind::Recv);
            else if (key == "cpu")
                op.cpu = static_cast<std::uint32_t>(number(value, "cpu", 1023));
            else if (key == "nic" && op.kind != ProgramOp::Kind::Calc)
                op.nic = op.recvNic = static_cast<std::uint32_t>(number(value, "nic", 1023));
            else
                fail("unknown option '" + key + "' of " + kind + "; it takes " +
                     (op.kind == ProgramOp::Kind::Calc ? "cpu N" : "tag T, cpu N, nic N"));
        }
        return op;
    }

    std::string m_name;
    std::string m_text;
    OpProgram m_program;
    std::size_t m_line = 0;
    std::size_t m_rankLine = 0;
    bool m_haveRanks = false;
    bool m_inRank = false;
    std::uint32_t m_rank = 0;
    std::vector<bool> m_seen;
    std::unordered_map<std::string, std::uint32_t> m_labels;
};

std::string where(const OpProgram& p, std::uint32_t op, const std::string& name)
{
    const ProgramOp& o = p.ops[op];
    std::string label = op < p.labels.size() && !p.labels[op].empty() ? " " + p.labels[op] : std::string();
    return (o.line ? name + ":" + std::to_string(o.line) + ": " : std::string()) + "rank " + std::to_string(o.rank) +
           label;
}

} // namespace

OpProgram parseGoal(std::string_view text, const std::string& name)
{
    OpProgram p = Parser(text, name).run();
    p.labels.resize(p.ops.empty() || p.labels.empty() ? 0 : p.ops.size());
    return p;
}

bool isGoalPath(const std::filesystem::path& path)
{
    std::string ext = path.extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".goal";
}

OpProgram readGoal(const std::filesystem::path& path)
{
    ReadFileLimits limits;
    limits.kind = "GOAL file";
    limits.maxBytes = kGoalMaxBytes;
    limits.whenPast = [&] {
        throw Error(path.string() + ": past " + std::to_string(kGoalMaxBytes >> 20) +
                    " MiB, the largest GOAL file topocast reads");
    };
    return parseGoal(readFileText(path, limits), path.string());
}

void requireGoalRuns(const OpProgram& program, const std::string& name)
{
    if (const std::vector<std::string> findings = checkGoal(program, name); !findings.empty()) {
        std::string text;
        for (const std::string& f : findings)
            text += "\n  " + f;
        throw Error(name + " cannot run to its end:" + text);
    }
}

GoalSchedule readGoalSchedule(const std::filesystem::path& path, const Topology& topology,
                              std::span<const NodeId> placement)
{
    const std::string name = path.string();
    const OpProgram program = readGoal(path);
    requireGoalRuns(program, name);
    if (!placement.empty())
        return scheduleFromGoal(program, topology, placement, name);
    return scheduleFromGoal(program, topology, goalIdentityPlacement(program, topology, name), name);
}

std::vector<NodeId> goalIdentityPlacement(const OpProgram& program, const Topology& topology, const std::string& name)
{
    if (program.ranks > topology.nodeCount())
        throw Error(name + " has " + std::to_string(program.ranks) + " ranks; the " + topology.displayName() + " has " +
                    std::to_string(topology.nodeCount()) +
                    " nodes (one node per rank: a larger network, or a placement)");
    std::vector<NodeId> identity;
    for (std::uint32_t r = 0; r < program.ranks; ++r)
        identity.push_back(NodeId{r});
    return identity;
}

std::vector<std::string> checkGoal(const OpProgram& program, const std::string& name, std::size_t limit)
{
    std::vector<std::string> out;
    std::size_t more = 0;
    const auto add = [&](std::string s) {
        if (out.size() < limit)
            out.push_back(std::move(s));
        else
            ++more;
    };
    // Matching, counted: sends per (source, destination, tag) against receives, exact keys
    // first, then wildcard receives take whatever is left for their rank.
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> sends;
    for (std::uint32_t i = 0; i < program.ops.size(); ++i)
        if (program.ops[i].kind == ProgramOp::Kind::Send)
            sends[{program.ops[i].rank, program.ops[i].peer, program.ops[i].tag}].push_back(i);
    std::vector<std::uint32_t> wild;
    for (std::uint32_t i = 0; i < program.ops.size(); ++i) {
        const ProgramOp& r = program.ops[i];
        if (r.kind != ProgramOp::Kind::Recv)
            continue;
        if (r.peer == ProgramOp::kAny || r.tag == ProgramOp::kAny) {
            wild.push_back(i);
            continue;
        }
        auto it = sends.find({r.peer, r.rank, r.tag});
        if (it == sends.end() || it->second.empty()) {
            add(where(program, i, name) + ": receive of " + std::to_string(r.size) + " B from rank " +
                std::to_string(r.peer) + " tag " + std::to_string(r.tag) + " has no send to match it");
            continue;
        }
        it->second.erase(it->second.begin());
    }
    for (std::uint32_t i : wild) {
        const ProgramOp& r = program.ops[i];
        bool matched = false;
        for (auto& [key, list] : sends)
            if (!list.empty() && std::get<1>(key) == r.rank &&
                (r.peer == ProgramOp::kAny || std::get<0>(key) == r.peer) &&
                (r.tag == ProgramOp::kAny || std::get<2>(key) == r.tag)) {
                list.erase(list.begin());
                matched = true;
                break;
            }
        if (!matched)
            add(where(program, i, name) + ": receive from " +
                (r.peer == ProgramOp::kAny ? std::string("any rank") : "rank " + std::to_string(r.peer)) +
                " has no send left to match it");
    }
    for (const auto& [key, list] : sends)
        for (std::uint32_t i : list)
            add(where(program, i, name) + ": send of " + std::to_string(program.ops[i].size) + " B to rank " +
                std::to_string(std::get<1>(key)) + " tag " + std::to_string(std::get<2>(key)) +
                " has no receive to take it");
    // Cycles: Kahn's algorithm; what is left sits on or behind a cycle.
    const std::size_t n = program.ops.size();
    std::vector<std::uint32_t> indegree(n, 0);
    std::vector<std::vector<std::uint32_t>> after(n);
    for (const ProgramDependency& d : program.dependencies) {
        ++indegree[d.op];
        after[d.on].push_back(d.op);
    }
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < n; ++i)
        if (indegree[i] == 0)
            ready.push_back(i);
    std::size_t seen = 0;
    while (!ready.empty()) {
        const std::uint32_t i = ready.back();
        ready.pop_back();
        ++seen;
        for (std::uint32_t j : after[i])
            if (--indegree[j] == 0)
                ready.push_back(j);
    }
    if (seen < n) {
        // Walk back along unfinished dependencies from one stuck op until an op repeats: that is a cycle.
        std::vector<std::vector<std::uint32_t>> before(n);
        for (const ProgramDependency& d : program.dependencies)
            if (indegree[d.op] > 0 && indegree[d.on] > 0)
                before[d.op].push_back(d.on);
        std::uint32_t at = 0;
        while (indegree[at] == 0)
            ++at;
        std::vector<std::int64_t> visited(n, -1);
        std::vector<std::uint32_t> path;
        while (visited[at] < 0 && !before[at].empty()) {
            visited[at] = static_cast<std::int64_t>(path.size());
            path.push_back(at);
            at = before[at].front();
        }
        std::string cycle;
        if (visited[at] >= 0)
            for (std::size_t k = static_cast<std::size_t>(visited[at]); k < path.size(); ++k)
                cycle += (cycle.empty() ? "" : " ← ") + where(program, path[k], name);
        add("a cycle of dependencies: " + (cycle.empty() ? where(program, at, name) : cycle) + " (" +
            std::to_string(n - seen) + " ops can never start)");
    }
    if (more > 0)
        out.push_back("… and " + std::to_string(more) + " more findings");
    return out;
}

void writeGoal(std::ostream& out, const OpProgram& program)
{
    std::vector<std::vector<std::uint32_t>> byRank(program.ranks);
    for (std::uint32_t i = 0; i < program.ops.size(); ++i)
        byRank[program.ops[i].rank].push_back(i);
    std::vector<std::vector<ProgramDependency>> deps(program.ranks);
    for (const ProgramDependency& d : program.dependencies)
        deps[program.ops[d.op].rank].push_back(d);
    std::vector<std::uint32_t> label(program.ops.size(), 0);
    out << "num_ranks " << program.ranks << "\n";
    const auto any = [](std::uint32_t v) { return v == ProgramOp::kAny ? std::string("-1") : std::to_string(v); };
    for (std::uint32_t r = 0; r < program.ranks; ++r) {
        out << "\nrank " << r << " {\n";
        std::uint32_t next = 1;
        for (std::uint32_t i : byRank[r]) {
            label[i] = next++;
            const ProgramOp& op = program.ops[i];
            out << 'l' << label[i] << ": ";
            switch (op.kind) {
            case ProgramOp::Kind::Send:
                out << "send " << op.size << "b to " << op.peer << " tag " << op.tag;
                break;
            case ProgramOp::Kind::Recv:
                out << "recv " << op.size << "b from " << any(op.peer) << " tag " << any(op.tag);
                break;
            case ProgramOp::Kind::Calc:
                out << "calc " << op.size;
                break;
            }
            if (op.cpu)
                out << " cpu " << op.cpu;
            if (op.nic && op.kind != ProgramOp::Kind::Calc)
                out << " nic " << op.nic;
            out << '\n';
        }
        for (const ProgramDependency& d : deps[r]) {
            if (program.ops[d.on].rank != r)
                throw Error("GOAL cannot hold a dependency between ranks (rank " + std::to_string(r) + " on rank " +
                            std::to_string(program.ops[d.on].rank) + ")");
            out << 'l' << label[d.op] << (d.onStart ? " irequires l" : " requires l") << label[d.on] << '\n';
        }
        out << "}\n";
    }
}

} // namespace topocast
