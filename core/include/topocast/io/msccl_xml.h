#pragma once

// MSCCL XML: the schedule format of the MSCCL executor, written by the MSCCL tools (MSCCLang
// programs), TACOS and TE-CCL. Read with expat (no DOCTYPE, so no entities beyond the five XML
// ones, and a size limit) into a plain model; written back from it. What the program does, on
// which network, and whether it is right: msccl.h.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// Largest MSCCL XML file read (64 MiB). A 64-rank all-pairs all-reduce with one chunk per pair
/// is about 2 MB; anything far larger is refused before it is parsed.
inline constexpr std::uint64_t kMaxMscclXmlBytes = std::uint64_t{64} << 20;

/// One instruction type of a threadblock (`<step type=…>`).
enum class MscclOp : std::uint8_t {
    Send,                ///< s: send srcbuf[srcoff, +cnt) to the threadblock's send peer
    Recv,                ///< r: receive from the recv peer into dstbuf
    RecvReduceSend,      ///< rrs: receive, add srcbuf, send the sum on (nothing stored)
    RecvCopySend,        ///< rcs: receive into dstbuf and send it on
    RecvReduceCopySend,  ///< rrcs: receive, add srcbuf, store in dstbuf and send it on
    RecvReduceCopy,      ///< rrc: receive, add srcbuf, store in dstbuf
    Copy,                ///< cpy: dstbuf = srcbuf
    Reduce,              ///< re: dstbuf += srcbuf
    Nop,                 ///< nop: only waits for its dependency
};

/// "s", "r", "rrs", … as in the files.
std::string_view mscclOpName(MscclOp op);
/// Whether the op sends to the threadblock's send peer (s, rrs, rcs, rrcs).
bool mscclSends(MscclOp op);
/// Whether the op receives from the threadblock's recv peer (r, rrs, rcs, rrcs, rrc).
bool mscclReceives(MscclOp op);
/// Whether the op adds a received or local chunk into another (rrs, rrcs, rrc, re).
bool mscclReduces(MscclOp op);
/// Whether the op reads its local source buffer (s, cpy, re, and the reduce of rrs/rrcs/rrc).
bool mscclReadsSource(MscclOp op);
/// Whether the op writes its local destination buffer (r, rcs, rrcs, rrc, cpy, re).
bool mscclWritesDestination(MscclOp op);

enum class MscclBuffer : std::uint8_t { Input, Output, Scratch };
/// "i", "o", "s".
char mscclBufferLetter(MscclBuffer b);
/// "input", "output", "scratch".
std::string_view mscclBufferName(MscclBuffer b);

/// `<step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep>`.
struct MscclStep {
    int s = 0;
    MscclOp type = MscclOp::Nop;
    MscclBuffer srcBuf = MscclBuffer::Input;
    int srcOff = 0;
    MscclBuffer dstBuf = MscclBuffer::Output;
    int dstOff = 0;
    int cnt = 1;
    int depTb = -1;    ///< depid: a threadblock of the same rank, −1 for none
    int depStep = -1;  ///< deps: the step of that threadblock this one waits for
    bool hasDep = false;
    int line = 0;      ///< where the element starts in the file (0 when built in memory)
};

/// `<tb id send recv chan>`: one stream of steps that run in order.
struct MscclThreadblock {
    int id = 0;
    int send = -1;     ///< the rank it sends to, −1 for none
    int recv = -1;     ///< the rank it receives from, −1 for none
    int channel = 0;
    std::vector<MscclStep> steps;
    int line = 0;
};

/// `<gpu id i_chunks o_chunks s_chunks>`: one rank.
struct MscclGpu {
    int id = 0;
    int inputChunks = 0;
    int outputChunks = 0;
    int scratchChunks = 0;
    std::vector<MscclThreadblock> threadblocks;
    int line = 0;
};

/// `<algo name proto nchannels nchunksperloop ngpus coll inplace [root]>`.
struct MscclProgram {
    std::string name;
    std::string protocol = "Simple";
    int channels = 1;
    int chunksPerLoop = 0;
    int ranks = 0;             ///< ngpus
    std::string collective;    ///< coll, as written ("allreduce", "allgather", …)
    bool inplace = false;
    int root = 0;              ///< rooted collectives (broadcast, reduce, gather, scatter); default 0
    std::vector<MscclGpu> gpus;
};

/// Whether a file is read as MSCCL XML: a .xml name, any case.
bool isMscclXmlPath(const std::filesystem::path& path);

/// Parses MSCCL XML. `what` names the text in errors (a path, or "standard input").
/// Throws Error "WHAT:LINE: problem; what is allowed" for malformed XML, a DOCTYPE (refused before
/// its declarations are read, so no entity is ever expanded), an element other than algo/gpu/tb/
/// step in its place, a missing or non-integer attribute, an unknown op type or buffer, or text
/// past kMaxMscclXmlBytes. Values that are well-formed but wrong (a peer or offset out of range,
/// cnt ≤ 0, a dependency on a missing step) are kept: checkMscclProgram (msccl.h) reports them
/// with their rank. O(text size).
MscclProgram parseMscclXml(std::string_view text, std::string_view what = "MSCCL XML");
/// Reads and parses a file: refused before reading when it is larger than kMaxMscclXmlBytes.
MscclProgram readMscclXml(const std::filesystem::path& path);

/// Writes the program in the layout the MSCCL tools write (one attribute set per element,
/// indented by two spaces). parseMscclXml reads back an equal program (lines aside).
void writeMscclXml(std::ostream& out, const MscclProgram& program);

} // namespace topocast
