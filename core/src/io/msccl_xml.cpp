#include "topocast/io/msccl_xml.h"

#include "topocast/io/xml_text.h"

#include "topocast/io/read_file.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <expat.h>

#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <ostream>

namespace topocast {

namespace {

constexpr MscclOp kOps[] = {
    MscclOp::Send,           MscclOp::Recv, MscclOp::RecvReduceSend, MscclOp::RecvCopySend, MscclOp::RecvReduceCopySend,
    MscclOp::RecvReduceCopy, MscclOp::Copy, MscclOp::Reduce,         MscclOp::Nop};

/// Builds the program from expat's callbacks; the first problem stops the parser and is kept.
class Reader {
public:
    Reader(XML_Parser parser, std::string_view what) : m_parser(parser), m_what(what) {}

    void start(std::string_view element, const XML_Char** attrs)
    {
        m_attrs = attrs;
        m_element = element;
        const int depth = m_depth++;
        if (element == "algo" && depth == 0 && !m_sawAlgo)
            readAlgo();
        else if (element == "gpu" && depth == 1)
            readGpu();
        else if (element == "tb" && depth == 2)
            readThreadblock();
        else if (element == "step" && depth == 3)
            readStep();
        else
            fail("<" + std::string(element) +
                 "> is not allowed here; MSCCL XML is <algo> holding <gpu>s, each "
                 "holding <tb>s, each holding <step>s");
    }
    void end() { --m_depth; }
    void doctype() { fail("a DOCTYPE is refused (MSCCL XML has none; its entities are never expanded)"); }

    void fail(const std::string& problem)
    {
        if (m_error.empty())
            m_error = m_what + ":" + std::to_string(line()) + ": " + problem;
        XML_StopParser(m_parser, XML_FALSE);
    }
    const std::string& error() const { return m_error; }
    MscclProgram take()
    {
        if (!m_sawAlgo)
            throw Error(m_what + ": no <algo> element; an MSCCL XML file is one <algo>");
        return std::move(m_program);
    }

private:
    int line() const { return static_cast<int>(XML_GetCurrentLineNumber(m_parser)); }

    const char* find(const char* name) const
    {
        for (const XML_Char** a = m_attrs; *a; a += 2)
            if (std::strcmp(a[0], name) == 0)
                return a[1];
        return nullptr;
    }
    /// The attribute as a whole number; `fallback` when absent and not required.
    int integer(const char* name, bool required, int fallback = 0)
    {
        const char* text = find(name);
        if (!text) {
            if (required)
                fail("<" + m_element + "> has no " + name + " attribute");
            return fallback;
        }
        int value = 0;
        const char* end = text + std::strlen(text);
        const auto [ptr, ec] = std::from_chars(text, end, value);
        if (ec != std::errc() || ptr != end || ptr == text) {
            fail("<" + m_element + "> " + name + "=\"" + text + "\" is not a whole number between " +
                 std::to_string(std::numeric_limits<int>::min()) + " and " +
                 std::to_string(std::numeric_limits<int>::max()));
            return fallback;
        }
        return value;
    }
    std::string text(const char* name, bool required)
    {
        const char* value = find(name);
        if (!value && required)
            fail("<" + m_element + "> has no " + name + " attribute");
        return value ? value : "";
    }
    MscclBuffer buffer(const char* name)
    {
        const std::string b = text(name, true);
        if (b == "i")
            return MscclBuffer::Input;
        if (b == "o")
            return MscclBuffer::Output;
        if (b == "s")
            return MscclBuffer::Scratch;
        fail("<step> " + std::string(name) + "=\"" + b +
             "\" is not a buffer; use i (input), o (output) or s (scratch)");
        return MscclBuffer::Input;
    }

    void readAlgo()
    {
        m_sawAlgo = true;
        m_program.name = text("name", false);
        m_program.protocol = find("proto") ? text("proto", false) : "Simple";
        m_program.channels = integer("nchannels", false, 1);
        m_program.chunksPerLoop = integer("nchunksperloop", false, 0);
        m_program.ranks = integer("ngpus", true);
        m_program.collective = text("coll", true);
        m_program.algoAt = m_what + ":" + std::to_string(line());
        m_program.inplace = integer("inplace", false, 0) != 0;
        m_program.root = integer("root", false, 0);
    }
    void readGpu()
    {
        MscclGpu& g = m_program.gpus.emplace_back();
        g.line = line();
        g.id = integer("id", true);
        g.inputChunks = integer("i_chunks", true);
        g.outputChunks = integer("o_chunks", true);
        g.scratchChunks = integer("s_chunks", false, 0);
    }
    void readThreadblock()
    {
        MscclThreadblock& tb = m_program.gpus.back().threadblocks.emplace_back();
        tb.line = line();
        tb.id = integer("id", true);
        tb.send = integer("send", false, -1);
        tb.recv = integer("recv", false, -1);
        tb.channel = integer("chan", false, 0);
    }
    void readStep()
    {
        MscclStep& st = m_program.gpus.back().threadblocks.back().steps.emplace_back();
        st.line = line();
        st.s = integer("s", true);
        const std::string type = text("type", true);
        bool known = false;
        for (MscclOp op : kOps)
            if (type == mscclOpName(op)) {
                st.type = op;
                known = true;
            }
        if (!known && !type.empty())
            fail("<step> type=\"" + type + "\" is not an MSCCL op; use s, r, rrs, rcs, rrcs, rrc, cpy, re or nop");
        st.srcBuf = find("srcbuf") ? buffer("srcbuf") : MscclBuffer::Input;
        st.srcOff = integer("srcoff", false, -1);
        st.dstBuf = find("dstbuf") ? buffer("dstbuf") : MscclBuffer::Output;
        st.dstOff = integer("dstoff", false, -1);
        st.cnt = integer("cnt", false, 1);
        st.depTb = integer("depid", false, -1);
        st.depStep = integer("deps", false, -1);
        st.hasDep = integer("hasdep", false, 0) != 0;
    }

    XML_Parser m_parser;
    std::string m_what;
    const XML_Char** m_attrs = nullptr;
    std::string m_element;
    int m_depth = 0;
    bool m_sawAlgo = false;
    MscclProgram m_program;
    std::string m_error;
};

struct ParserDeleter {
    void operator()(XML_ParserStruct* p) const { XML_ParserFree(p); }
};

} // namespace

bool isMscclXmlPath(const std::filesystem::path& path)
{
    std::string ext = path.extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".xml";
}

MscclProgram parseMscclXml(std::string_view text, std::string_view what)
{
    if (text.size() > kMaxMscclXmlBytes)
        throw Error(std::string(what) + ": " + formatBytes(text.size()) + " is past the " +
                    formatBytes(kMaxMscclXmlBytes) + " an MSCCL XML file may have");
    std::unique_ptr<XML_ParserStruct, ParserDeleter> parser(XML_ParserCreate("UTF-8"));
    if (!parser)
        throw Error(std::string(what) + ": cannot start the XML parser (out of memory)");
    XML_Parser p = parser.get();
    Reader reader(p, what);
    XML_SetUserData(p, &reader);
    XML_SetElementHandler(
        p,
        [](void* user, const XML_Char* name, const XML_Char** attrs) {
            static_cast<Reader*>(user)->start(name, attrs);
        },
        [](void* user, const XML_Char*) { static_cast<Reader*>(user)->end(); });
    // Stopped at "<!DOCTYPE", before any declaration inside it is read: no entity can be declared.
    XML_SetStartDoctypeDeclHandler(p, [](void* user, const XML_Char*, const XML_Char*, const XML_Char*, int) {
        static_cast<Reader*>(user)->doctype();
    });
    XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER);
    const auto status = XML_Parse(p, text.data(), static_cast<int>(text.size()), XML_TRUE);
    if (!reader.error().empty())
        throw Error(reader.error());
    if (status != XML_STATUS_OK)
        throw Error(std::string(what) + ":" + std::to_string(XML_GetCurrentLineNumber(p)) + ": not well-formed XML (" +
                    XML_ErrorString(XML_GetErrorCode(p)) + ")");
    return reader.take();
}

MscclProgram readMscclXml(const std::filesystem::path& path)
{
    ReadFileLimits limits;
    limits.kind = "MSCCL XML file";
    limits.checkSize = [&](std::uint64_t bytes) {
        if (bytes > kMaxMscclXmlBytes)
            throw Error(path.string() + ": " + formatBytes(bytes) + " is past the " + formatBytes(kMaxMscclXmlBytes) +
                        " an MSCCL XML file may have");
    };
    limits.maxBytes = kMaxMscclXmlBytes; // past it: parseMscclXml refuses the text
    return parseMscclXml(readFileText(path, limits), path.string());
}

namespace {

/// XML attribute text: the five escapes (names come from users).
std::string escaped(std::string_view s)
{
    return xmlEscaped(s);
}

} // namespace

void writeMscclXml(std::ostream& out, const MscclProgram& program)
{
    out << "<algo name=\"" << escaped(program.name) << "\" proto=\"" << escaped(program.protocol) << "\" nchannels=\""
        << program.channels << "\" nchunksperloop=\"" << program.chunksPerLoop << "\" ngpus=\"" << program.ranks
        << "\" coll=\"" << escaped(program.collective) << "\" inplace=\"" << (program.inplace ? 1 : 0) << "\"";
    if (program.root != 0)
        out << " root=\"" << program.root << "\"";
    out << ">\n";
    for (const MscclGpu& g : program.gpus) {
        out << "  <gpu id=\"" << g.id << "\" i_chunks=\"" << g.inputChunks << "\" o_chunks=\"" << g.outputChunks
            << "\" s_chunks=\"" << g.scratchChunks << "\">\n";
        for (const MscclThreadblock& tb : g.threadblocks) {
            out << "    <tb id=\"" << tb.id << "\" send=\"" << tb.send << "\" recv=\"" << tb.recv << "\" chan=\""
                << tb.channel << "\">\n";
            for (const MscclStep& st : tb.steps)
                out << "      <step s=\"" << st.s << "\" type=\"" << mscclOpName(st.type) << "\" srcbuf=\""
                    << mscclBufferLetter(st.srcBuf) << "\" srcoff=\"" << st.srcOff << "\" dstbuf=\""
                    << mscclBufferLetter(st.dstBuf) << "\" dstoff=\"" << st.dstOff << "\" cnt=\"" << st.cnt
                    << "\" depid=\"" << st.depTb << "\" deps=\"" << st.depStep << "\" hasdep=\"" << (st.hasDep ? 1 : 0)
                    << "\"/>\n";
            out << "    </tb>\n";
        }
        out << "  </gpu>\n";
    }
    out << "</algo>\n";
}

} // namespace topocast
