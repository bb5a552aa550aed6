#pragma once

// An MSCCL program as plain values: ranks (gpus), their threadblocks and the steps each runs in
// order, as the MSCCL executor's XML describes them. Read and written by io/msccl_xml.h; run and
// checked on a network by analysis/msccl.h.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// One instruction type of a threadblock (`<step type=…>`).
enum class MscclOp : std::uint8_t {
    Send,               ///< s: send srcbuf[srcoff, +cnt) to the threadblock's send peer
    Recv,               ///< r: receive from the recv peer into dstbuf
    RecvReduceSend,     ///< rrs: receive, add srcbuf, send the sum on (nothing stored)
    RecvCopySend,       ///< rcs: receive into dstbuf and send it on
    RecvReduceCopySend, ///< rrcs: receive, add srcbuf, store in dstbuf and send it on
    RecvReduceCopy,     ///< rrc: receive, add srcbuf, store in dstbuf
    Copy,               ///< cpy: dstbuf = srcbuf
    Reduce,             ///< re: dstbuf += srcbuf
    Nop,                ///< nop: only waits for its dependency
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
    int depTb = -1;   ///< depid: a threadblock of the same rank, −1 for none
    int depStep = -1; ///< deps: the step of that threadblock this one waits for
    bool hasDep = false;
    int line = 0; ///< where the element starts in the file (0 when built in memory)
};

/// `<tb id send recv chan>`: one stream of steps that run in order.
struct MscclThreadblock {
    int id = 0;
    int send = -1; ///< the rank it sends to, −1 for none
    int recv = -1; ///< the rank it receives from, −1 for none
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
    int ranks = 0;          ///< ngpus
    std::string collective; ///< coll, as written ("allreduce", "allgather", …)
    /// Where <algo> is, "FILE:LINE" (parseMscclXml; empty for a program made in memory): errors
    /// about its attributes start with it.
    std::string algoAt;
    bool inplace = false;
    int root = 0; ///< rooted collectives (broadcast, reduce, gather, scatter); default 0
    std::vector<MscclGpu> gpus;
};

} // namespace topocast
