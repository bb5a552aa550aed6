#include "topocast/model/msccl_program.h"

namespace topocast {

std::string_view mscclOpName(MscclOp op)
{
    switch (op) {
    case MscclOp::Send:
        return "s";
    case MscclOp::Recv:
        return "r";
    case MscclOp::RecvReduceSend:
        return "rrs";
    case MscclOp::RecvCopySend:
        return "rcs";
    case MscclOp::RecvReduceCopySend:
        return "rrcs";
    case MscclOp::RecvReduceCopy:
        return "rrc";
    case MscclOp::Copy:
        return "cpy";
    case MscclOp::Reduce:
        return "re";
    case MscclOp::Nop:
        return "nop";
    }
    return "?";
}

bool mscclSends(MscclOp op)
{
    return op == MscclOp::Send || op == MscclOp::RecvReduceSend || op == MscclOp::RecvCopySend ||
           op == MscclOp::RecvReduceCopySend;
}

bool mscclReceives(MscclOp op)
{
    return op == MscclOp::Recv || op == MscclOp::RecvReduceSend || op == MscclOp::RecvCopySend ||
           op == MscclOp::RecvReduceCopySend || op == MscclOp::RecvReduceCopy;
}

bool mscclReduces(MscclOp op)
{
    return op == MscclOp::RecvReduceSend || op == MscclOp::RecvReduceCopySend || op == MscclOp::RecvReduceCopy ||
           op == MscclOp::Reduce;
}

bool mscclReadsSource(MscclOp op)
{
    return op == MscclOp::Send || op == MscclOp::Copy || mscclReduces(op);
}

bool mscclWritesDestination(MscclOp op)
{
    return op == MscclOp::Recv || op == MscclOp::RecvCopySend || op == MscclOp::RecvReduceCopySend ||
           op == MscclOp::RecvReduceCopy || op == MscclOp::Copy || op == MscclOp::Reduce;
}

char mscclBufferLetter(MscclBuffer b)
{
    return b == MscclBuffer::Input ? 'i' : b == MscclBuffer::Output ? 'o' : 's';
}

std::string_view mscclBufferName(MscclBuffer b)
{
    return b == MscclBuffer::Input ? "input" : b == MscclBuffer::Output ? "output" : "scratch";
}

} // namespace topocast
